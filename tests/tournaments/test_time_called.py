"""Time called at the table (issue 12), below the browser: the phone's clock JSON, the table API's
clock, the verify answer's ``time_last_hand`` (the engine's policy, not restated), running scores
on a sheet with time called in its last hand, and a claim carrying ``time``."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tests.tournaments.api_support import table_client
from tests.tournaments.phone_factory import make_setup
from tournaments import game
from tournaments.models import Claim, Round
from tournaments.presenters.table import hand_lines
from tournaments.services import claims

pytestmark = pytest.mark.django_db

HAND = {
    "leader": 0,
    "tally": [{"seat": 0, "score": 15}],
    "end": "domino",
    "finisher": 0,
    "remaining": [0, 10, 3, 10],
}


def sheet(*hands: dict[str, Any], time: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": "fives-scoresheet/1",
        "rules": "five-up",
        "players": 4,
        "target": 100,
        "hands": list(hands),
    }
    if time is not None:
        out["time"] = time
    return out


def test_the_phone_reads_the_round_clock_as_json() -> None:
    setup = make_setup("tc", rules="five-up", target=100)
    path = setup.path(0)
    answer = Client().get(path + "clock")
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    body = answer.json()
    assert set(body) == {"state", "seconds_left", "ends_at", "seconds_over", "as_of"}
    assert body["state"] == "not_started" and body["seconds_left"] is None
    now = timezone.now()
    Round.objects.filter(pk=setup.round.pk).update(
        clock_started_at=now - datetime.timedelta(minutes=50),
        clock_ends_at=now - datetime.timedelta(minutes=5),
    )
    body = Client().get(path + "clock").json()
    assert body["state"] == "expired" and body["seconds_left"] == 0
    assert 299 <= body["seconds_over"] <= 310
    page = Client().get(path).content.decode()
    assert 'id="clock-label">Time is up<' in page and 'data-clock-state="expired"' in page
    assert Client().get("/t/not-a-token/clock").json()["code"] == "table_link_invalid"


def test_the_table_api_carries_the_clock_and_verify_says_where_time_ends() -> None:
    setup = make_setup("tapi", rules="five-up", target=100, time_policy="one-more-hand")
    now = timezone.now()
    Round.objects.filter(pk=setup.round.pk).update(
        clock_started_at=now, clock_ends_at=now + datetime.timedelta(minutes=45)
    )
    client = table_client(setup.round, 1)
    clock = client.get("/api/table/").json()["clock"]
    assert clock["state"] == "running" and 44 * 60 < clock["seconds_left"] <= 45 * 60
    url = f"/api/matches/{setup.matches[0].pk}/verify/"
    timed = sheet(HAND, time={"called_in_hand": 0, "policy": "one-more-hand"})
    answer = client.post(url, {"sheet": timed}, format="json").json()
    assert answer["time_last_hand"] == 1  # the engine's: one more hand after hand 0
    assert answer["verdict"]["finished"] is False
    assert client.post(url, {"sheet": sheet(HAND)}, format="json").json()["time_last_hand"] is None


def test_running_scores_with_time_called_in_a_later_hand() -> None:
    later = sheet(HAND, {**HAND, "tally": []}, time={"called_in_hand": 1, "policy": "finish-hand"})
    running = game.running_scores(later)
    assert running[0] == [10, -20]  # the prefix before time was called, as played
    assert running[1] is not None
    assert game.time_last_hand(later) == 1
    assert game.time_last_hand(sheet(HAND, time={"called_in_hand": 0, "policy": "x"})) is None


def test_a_claim_with_time_called_is_finished_by_the_engine() -> None:
    setup = make_setup("tclaim", rules="five-up", target=100, time_policy="finish-hand")
    timed = sheet(HAND, time={"called_in_hand": 0, "policy": "finish-hand"})
    out = claims.submit_claim(match=setup.matches[0], side=0, sheet=timed)
    claim = Claim.objects.get(pk=out.claim.pk)
    assert claim.verified and claim.finished and claim.winner_side == 0
    assert claim.sheet["time"] == {"called_in_hand": 0, "policy": "finish-hand"}
    # Without time called the same hand leaves the match unfinished: a draft.
    other = claims.submit_claim(match=setup.matches[0], side=1, sheet=sheet(HAND))
    assert other.claim.status == Claim.Status.DRAFT and not other.claim.finished


def test_the_other_side_reads_where_time_was_called() -> None:
    timed = sheet(HAND, time={"called_in_hand": 0, "policy": "finish-hand"})
    assert hand_lines(timed)[0].endswith("seat 0 dominoed; time was called in this hand")
    assert "time" not in hand_lines(sheet(HAND))[0]
