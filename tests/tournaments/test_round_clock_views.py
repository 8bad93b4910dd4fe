"""The round clock on the director's pages (issue 12): the controls on the desk and the round
page, "call time" asking first, a refused move shown as a message, and the tables still playing
after time highlighted on the desk and the results board."""

from __future__ import annotations

import datetime
import re
import zoneinfo
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from tests.tournaments.desk_support import states_round
from tournaments.models import AuditEntry, Round

pytestmark = pytest.mark.django_db


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _expire(rnd: Round) -> None:
    """Set the round's clock in the past: started 60 minutes ago, up 10 minutes ago."""
    now = timezone.now()
    Round.objects.filter(pk=rnd.pk).update(
        clock_started_at=now - datetime.timedelta(minutes=60),
        clock_ends_at=now - datetime.timedelta(minutes=10),
    )


def test_the_desk_and_the_round_page_show_the_clock_and_its_controls() -> None:
    event, boss, _rnd, _ = states_round()
    client = _client(boss)
    desk = client.get(f"/director/events/{event.slug}/").content.decode()
    text = _text(desk)
    assert re.search(r"\( (50:00|49:5\d) left \)", text), text
    assert 'data-clock-state="running"' in desk and "spinner/clock.js" in desk
    for label in ("Pause the clock", "+5 min", "Add minutes", "Call time now"):
        assert label in text, label
    page = _text(client.get(f"/director/events/{event.slug}/rounds/1/").content.decode())
    assert "Clock" in page and "Pause the clock" in page and "left, time at" in page
    assert "still playing after time" not in page


def test_the_controls_pause_extend_resume_and_call_time_after_asking() -> None:
    event, boss, rnd, _ = states_round()
    client = _client(boss)
    base = f"/director/events/{event.slug}/rounds/1/clock/"
    answer = client.post(base + "pause/", {"back": "desk"})
    assert answer.status_code == 302 and answer["Location"] == f"/director/events/{event.slug}/"
    rnd.refresh_from_db()
    assert rnd.clock_paused_left is not None
    desk = _text(client.get(f"/director/events/{event.slug}/").content.decode())
    assert "paused" in desk and "Resume the clock" in desk
    # A refused move is a message, not an error page; what was there stays.
    client.post(base + "pause/", {"back": "round"})
    again = _text(client.get(f"/director/events/{event.slug}/rounds/1/").content.decode())
    assert "already paused" in again
    answer = client.post(base + "extend/", {"minutes": "500", "back": "round"})
    assert answer["Location"] == f"/director/events/{event.slug}/rounds/1/"
    page = _text(client.get(answer["Location"]).content.decode())
    assert "from 1 to 120" in page
    left = rnd.clock_paused_left
    client.post(base + "extend/", {"minutes": "5", "back": "round"})
    rnd.refresh_from_db()
    assert rnd.clock_paused_left == left + 300
    client.post(base + "resume/", {"back": "round"})
    rnd.refresh_from_db()
    assert rnd.clock_paused_left is None and rnd.clock_ends_at is not None
    # Calling time asks first; a plain POST does not act.
    asked = client.post(base + "end/", {"back": "desk"})
    assert asked.status_code == 200 and "Call time in round 1 now?" in asked.content.decode()
    rnd.refresh_from_db()
    assert rnd.clock_ended_at is None
    done = client.post(base + "end/", {"back": "desk", "confirm": "yes"})
    assert done.status_code == 302
    rnd.refresh_from_db()
    assert rnd.clock_ended_at is not None
    actions = list(
        AuditEntry.objects.filter(action__startswith="round.clock")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == [
        "round.clock_start",
        "round.clock_pause",
        "round.clock_extend",
        "round.clock_resume",
        "round.clock_end",
    ]
    log = _text(client.get(f"/director/events/{event.slug}/audit/").content.decode())
    assert "dana paused round 1's clock (" in log and "dana called time in round 1." in log
    assert "dana added 5 min to round 1's clock." in log


def test_tables_still_playing_after_time_are_highlighted() -> None:
    event, boss, rnd, matches = states_round()
    client = _client(boss)
    board_url = f"/director/events/{event.slug}/rounds/1/results/"
    assert "data-over-time" not in client.get(board_url).content.decode()
    _expire(rnd)
    board = client.get(board_url).content.decode()
    found = re.findall(r'data-match="(\d+)" data-state="\w+" data-over-time', board)
    late = {int(m) for m in found}
    assert late == {matches[s].pk for s in ("conflict", "missing", "pending")}
    others = [m for m in rnd.matches.filter(is_bye=False) if m.pk not in late]
    assert matches["confirmed"] in others
    assert f"{len(late) + len(others) - 1} still playing after time" in _text(board)
    desk = _text(client.get(f"/director/events/{event.slug}/").content.decode())
    assert "time is up: 10 min over time" in desk
    count = rnd.matches.filter(is_bye=False).count() - 1
    assert f"{count} tables still playing after time" in desk
    assert "Pause the clock" not in desk and "Call time now" not in desk


def test_the_projector_shows_the_clock_as_the_moment_it_runs_out() -> None:
    """The projector is kept as a document: a running clock is its end, as an instant for the
    script (data-clock-ends, milliseconds since the epoch) and as a time of day in the event's
    zone without it, so the page is the same from one second to the next; paused and expired
    clocks are as they were."""
    event, _boss, rnd, _ = states_round()
    url = f"/events/{event.slug}/projector/"
    html = Client().get(url).content.decode()
    clock = re.search(r'<p class="clock clock-running" id="projector-clock"([^>]*)>(.*?)</p>', html)
    assert clock is not None, html
    rnd.refresh_from_db()
    assert rnd.clock_ends_at is not None
    ends_ms = int(rnd.clock_ends_at.timestamp() * 1000)
    assert f'data-clock-ends="{ends_ms}"' in clock.group(1)
    assert 'data-clock-word-left="left"' in clock.group(1)
    assert 'data-clock-word-up="Time is up"' in clock.group(1)
    local = timezone.localtime(rnd.clock_ends_at, zoneinfo.ZoneInfo(event.time_zone))
    assert '<span class="clock-word">ends</span> <time class="clock-time" datetime="' in clock[2]
    assert f">{local:%H:%M} " in clock.group(2)  # "14:35 CST"
    assert "data-clock-left=" not in clock.group(0)  # nothing that changes with the time of day
    assert Client().get(url).content.decode() == html
    assert "spinner/clock.js" in html
    Round.objects.filter(pk=rnd.pk).update(clock_paused_left=754)
    html = Client().get(url).content.decode()
    assert 'data-clock-left="754">12:34</span> <span class="clock-word">paused<' in html
    assert "data-clock-ends" not in html
    Round.objects.filter(pk=rnd.pk).update(clock_paused_left=None)
    _expire(rnd)
    html = Client().get(url).content.decode()
    assert 'class="clock clock-expired"' in html and ">Time is up<" in html
    assert "data-clock-ends" not in html


def test_the_projector_says_when_the_clock_ends_in_spanish() -> None:
    event, _boss, _rnd, _ = states_round()
    html = Client().get(f"/events/{event.slug}/projector/", HTTP_ACCEPT_LANGUAGE="es")
    text = html.content.decode()
    assert '<span class="clock-word">termina</span>' in text
    assert 'data-clock-word-left="restantes"' in text
    assert 'data-clock-word-up="Se acabó el tiempo"' in text
