"""The table API at a table of many (issue 13): each seat's link submits, confirms another
seat's claim and reads the table's state; the director resolves, enters and corrects with every
seat's score."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import LazySettings

from tests import factories
from tests.tournaments import results_support
from tests.tournaments.api_support import (
    assert_error,
    post,
    private_cache,
    table_client,
    user_client,
)
from tests.tournaments.tables_support import (
    make_event,
    make_round,
    plain,
    table_at,
    tied_below_the_winner,
    with_halves,
)
from tournaments.models import Event, MatchResult

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cache(settings: LazySettings) -> Any:
    with private_cache(settings):
        yield


def claims_url(match_id: int) -> str:
    return f"/api/matches/{match_id}/claims/"


def confirm_url(match_id: int) -> str:
    return f"/api/matches/{match_id}/confirm/"


def test_three_seats_claim_and_confirm_over_http() -> None:
    rnd = make_round(make_event())
    match = table_at(rnd, 1)
    seats = [table_client(rnd, 1, side=s) for s in range(3)]
    sheet, scores = with_halves(3)
    mine = seats[0].get("/api/table/")
    assert mine.status_code == 200, mine.content
    assert mine.json()["game"]["players"] == 3 and mine.json()["game"]["partnerships"] is False
    assert len(mine.json()["side_names"]) == 3
    first = post(seats[0], claims_url(match.pk), {"sheet": sheet})
    assert first.status_code == 201, first.content
    body = first.json()
    assert body["claim"]["scores"] == scores and body["match"]["state"] == "pending"
    assert [s["side"] for s in body["match"]["sides"]] == [0, 1, 2]
    # seat C's link acts only as seat C
    assert_error(
        post(seats[2], claims_url(match.pk), {"side": 1, "sheet": sheet}), 403, "not_your_side"
    )
    second = post(seats[1], confirm_url(match.pk), {}, If_Match='"1"')
    assert second.status_code == 201, second.content
    assert second.json()["match"]["state"] == "pending"
    third = post(seats[2], confirm_url(match.pk), {"of_side": 1}, If_Match='"1"')
    assert third.status_code == 201, third.content
    state = third.json()["match"]
    assert state["state"] == "confirmed"
    assert state["result"]["scores"] == scores
    ranked = sorted(scores, reverse=True)
    assert state["result"]["placings"] == [1 + ranked.index(s) for s in scores]
    detail = seats[1].get(f"/api/matches/{match.pk}/")
    assert detail.status_code == 200 and detail.json()["state"] == "confirmed"


def test_confirming_needs_whose_claim_when_the_others_differ() -> None:
    event = make_event("four", table_size=4, table_confirmation=Event.TableConfirmation.MAJORITY)
    rnd = make_round(event, (4,))
    match = table_at(rnd, 1)
    seats = [table_client(rnd, 1, side=s) for s in range(4)]
    a, _ = plain(4)
    b, b_scores = tied_below_the_winner(4)
    post(seats[0], claims_url(match.pk), {"sheet": a})
    conflict = post(seats[1], claims_url(match.pk), {"sheet": b})
    assert conflict.json()["match"]["state"] == "conflict"
    assert_error(post(seats[2], confirm_url(match.pk), {}, If_Match='"1"'), 400, "confirm_whose")
    assert post(seats[2], confirm_url(match.pk), {"of_side": 1}, If_Match='"1"').status_code == 201
    # seats C and D confirm seat B's sheet: two of B's three others, a majority
    done = post(seats[3], confirm_url(match.pk), {"of_side": 1}, If_Match='"1"')
    state = done.json()["match"]
    assert state["state"] == "confirmed" and state["result"]["scores"] == b_scores
    assert MatchResult.objects.get(match=match).claim is not None


def test_the_director_resolves_enters_and_corrects_with_every_seat() -> None:
    event = make_event()
    director = factories.make_director(event, "boss")
    rnd = make_round(event, (3, 3))
    match, other = table_at(rnd, 1), table_at(rnd, 2)
    boss = user_client(director)
    seats = [table_client(rnd, 1, side=s) for s in range(3)]
    post(seats[0], claims_url(match.pk), {"sheet": plain(3)[0]})
    post(seats[2], claims_url(match.pk), {"sheet": with_halves(3)[0]})
    assert_error(
        post(boss, f"/api/matches/{match.pk}/resolve/", {"side": 1, "reason": "x"}),
        400,
        "nothing_to_confirm",
    )
    resolved = post(boss, f"/api/matches/{match.pk}/resolve/", {"side": 2, "reason": "seat C"})
    assert resolved.status_code == 201, resolved.content
    assert resolved.json()["result"]["scores"] == with_halves(3)[1]
    two = post(
        boss,
        f"/api/matches/{other.pk}/override/",
        {"final_score": {"scores": [100, 40]}, "reason": "paper"},
    )
    assert_error(two, 400, "invalid_score")
    entered = post(
        boss,
        f"/api/matches/{other.pk}/override/",
        {"final_score": {"scores": [100, 40, 40]}, "reason": "paper"},
    )
    assert entered.status_code == 201, entered.content
    result = entered.json()["result"]
    assert result["scores"] == [100, 40, 40] and result["placings"] == [1, 2, 2]
    assert result["winner_side"] == 0
    corrected = post(
        boss,
        f"/api/matches/{other.pk}/correct/",
        {"final_score": {"scores": [40, 100, 70], "winner": 1}, "reason": "swapped"},
        If_Match='"1"',
    )
    assert corrected.status_code == 201, corrected.content
    assert corrected.json()["result"]["placings"] == [3, 1, 2]


def test_a_two_entry_result_has_no_placings() -> None:
    event = results_support.make_event("duel")
    director = factories.make_director(event, "boss")
    match = results_support.match_at(results_support.make_round(event), 1)
    entered = post(
        user_client(director),
        f"/api/matches/{match.pk}/override/",
        {"final_score": {"scores": [100, 40]}, "reason": "paper"},
    )
    assert entered.status_code == 201, entered.content
    assert entered.json()["result"]["scores"] == [100, 40]
    assert entered.json()["result"]["placings"] is None
    assert len(entered.json()["match"]["sides"]) == 2
