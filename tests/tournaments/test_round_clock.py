"""The round clock (issue 12): started with the round; paused, resumed, extended and ended by the
director, each audited; the impossible moves refused with their codes; the pure state at any
moment (explicit times, no sleeps)."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User

from tests.tournaments.rounds_factory import make_director, make_event, make_field
from tournaments import clock_math
from tournaments.errors import SpinnerError
from tournaments.models import AuditEntry, Event, Round
from tournaments.services import round_clock, round_generation, round_status

T0 = datetime.datetime(2026, 3, 1, 10, 0, tzinfo=datetime.UTC)


def at(minutes: float) -> datetime.datetime:
    return T0 + datetime.timedelta(minutes=minutes)


def fields(**values: object) -> SimpleNamespace:
    base: dict[str, object] = {
        "clock_started_at": None,
        "clock_ends_at": None,
        "clock_paused_left": None,
        "clock_ended_at": None,
    }
    return SimpleNamespace(**{**base, **values})


# --- The pure state --------------------------------------------------------------------------


def test_the_state_of_a_clock_at_each_moment() -> None:
    assert clock_math.clock_state(fields(), now=T0).state == "not_started"
    assert clock_math.clock_state(fields(), now=T0).seconds_left is None
    running = fields(clock_started_at=T0, clock_ends_at=at(45))
    state = clock_math.clock_state(running, now=at(10))
    assert (state.state, state.seconds_left, state.ends_at) == ("running", 35 * 60, at(45))
    assert state.minutes_left == 35 and not state.expired
    # Rounded up: 0 left is shown only once time is up.
    assert clock_math.clock_state(running, now=at(45) - datetime.timedelta(seconds=0.2)) == (
        clock_math.ClockState("running", 1, at(45))
    )
    up = clock_math.clock_state(running, now=at(45))
    assert (up.state, up.seconds_left, up.seconds_over, up.expired) == ("expired", 0, 0, True)
    late = clock_math.clock_state(running, now=at(52.5))
    assert (late.seconds_over, late.minutes_over, late.ends_at) == (450, 7, at(45))
    paused = fields(clock_started_at=T0, clock_ends_at=at(45), clock_paused_left=600)
    # Paused: the seconds left stay, whatever the time now.
    for now in (at(10), at(60), at(600)):
        assert clock_math.clock_state(paused, now=now) == clock_math.ClockState("paused", 600, None)
    ended = fields(clock_started_at=T0, clock_ends_at=at(45), clock_ended_at=at(20))
    state = clock_math.clock_state(ended, now=at(21))
    assert (state.state, state.seconds_left, state.ends_at, state.seconds_over) == (
        "expired",
        0,
        at(20),
        60,
    )
    assert state.as_dict() == {
        "state": "expired",
        "seconds_left": 0,
        "ends_at": "2026-03-01T10:20:00+00:00",
        "seconds_over": 60,
    }


# --- The services ----------------------------------------------------------------------------


def _in_play(minutes: int = 45) -> tuple[Event, User, Round]:
    event = make_event(round_minutes=minutes)
    boss = make_director(event)
    make_field(event, 4)
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    round_status.start_round(round=rnd, actor=boss)
    rnd.refresh_from_db()
    return event, boss, rnd


def _code(call: object) -> str:
    assert callable(call)
    with pytest.raises(SpinnerError) as caught:
        call()
    return caught.value.code


def _actions(rnd: Round) -> list[str]:
    return list(
        AuditEntry.objects.filter(object_id=str(rnd.pk), action__startswith="round.clock")
        .order_by("pk")
        .values_list("action", flat=True)
    )


@pytest.mark.django_db
def test_starting_the_round_starts_its_clock_with_the_rounds_limit() -> None:
    _event, _boss, rnd = _in_play(45)
    assert rnd.status == Round.Status.IN_PLAY
    assert rnd.clock_started_at is not None and rnd.clock_ends_at is not None
    assert rnd.clock_ends_at - rnd.clock_started_at == datetime.timedelta(minutes=45)
    entry = AuditEntry.objects.get(action="round.clock_start", object_id=str(rnd.pk))
    assert entry.after["minutes"] == 45 and entry.after["state"] == "running"
    assert entry.before["state"] == "not_started"
    state = clock_math.clock_state(rnd, now=rnd.clock_started_at)
    assert (state.state, state.seconds_left) == ("running", 45 * 60)


@pytest.mark.django_db
def test_pause_resume_extend_and_end_each_audited() -> None:
    _event, boss, rnd = _in_play(45)
    rnd.clock_started_at, rnd.clock_ends_at = T0, at(45)
    rnd.save()
    round_clock.pause_clock(round=rnd, actor=boss, now=at(30))
    rnd.refresh_from_db()
    assert rnd.clock_paused_left == 15 * 60
    assert clock_math.clock_state(rnd, now=at(90)).seconds_left == 15 * 60
    round_clock.extend_clock(round=rnd, minutes="5", actor=boss, now=at(40))
    rnd.refresh_from_db()
    assert rnd.clock_paused_left == 20 * 60
    round_clock.resume_clock(round=rnd, actor=boss, now=at(50))
    rnd.refresh_from_db()
    assert rnd.clock_paused_left is None and rnd.clock_ends_at == at(70)
    round_clock.extend_clock(round=rnd, minutes=3, actor=boss, now=at(55))
    rnd.refresh_from_db()
    assert rnd.clock_ends_at == at(73)
    round_clock.end_clock(round=rnd, actor=boss, now=at(60))
    rnd.refresh_from_db()
    assert rnd.clock_ended_at == at(60)
    state = clock_math.clock_state(rnd, now=at(61))
    assert state.expired and state.seconds_over == 60
    assert _actions(rnd) == [
        "round.clock_start",
        "round.clock_pause",
        "round.clock_extend",
        "round.clock_resume",
        "round.clock_extend",
        "round.clock_end",
    ]
    pause = AuditEntry.objects.get(action="round.clock_pause", object_id=str(rnd.pk))
    assert pause.actor == boss
    assert (pause.before["state"], pause.after["state"]) == ("running", "paused")
    assert pause.after["seconds_left"] == 15 * 60
    extend = AuditEntry.objects.filter(action="round.clock_extend").order_by("pk").last()
    assert extend is not None and extend.after["minutes"] == 3
    end = AuditEntry.objects.get(action="round.clock_end", object_id=str(rnd.pk))
    assert end.after["state"] == "expired" and end.before["seconds_left"] == 13 * 60


@pytest.mark.django_db
def test_the_impossible_moves_are_refused_with_their_codes() -> None:
    _event, boss, rnd = _in_play(45)
    rnd.clock_started_at, rnd.clock_ends_at = T0, at(45)
    rnd.save()
    assert _code(lambda: round_clock.start_clock(round=rnd, actor=boss)) == (
        "clock_already_started"
    )
    assert _code(lambda: round_clock.resume_clock(round=rnd, actor=boss, now=at(1))) == (
        "clock_not_paused"
    )
    round_clock.pause_clock(round=rnd, actor=boss, now=at(5))
    assert _code(lambda: round_clock.pause_clock(round=rnd, actor=boss, now=at(6))) == (
        "clock_paused"
    )
    for bad in (0, 121, "-5", "2.5", "five", "", None):
        assert _code(
            lambda bad=bad: round_clock.extend_clock(round=rnd, minutes=bad, actor=boss, now=at(7))
        ) == ("clock_minutes_invalid"), bad
    round_clock.resume_clock(round=rnd, actor=boss, now=at(10))
    # Time runs out (the clock was resumed at 10 with 40 minutes left: up at 50).
    for move in (
        lambda: round_clock.pause_clock(round=rnd, actor=boss, now=at(50)),
        lambda: round_clock.resume_clock(round=rnd, actor=boss, now=at(51)),
        lambda: round_clock.extend_clock(round=rnd, minutes=5, actor=boss, now=at(52)),
        lambda: round_clock.end_clock(round=rnd, actor=boss, now=at(53)),
    ):
        assert _code(move) == "clock_expired"
    # Ended by the director: the same.
    rnd.refresh_from_db()
    rnd.clock_ends_at = at(90)
    rnd.save()
    round_clock.end_clock(round=rnd, actor=boss, now=at(60))
    assert _code(
        lambda: round_clock.extend_clock(round=rnd, minutes=5, actor=boss, now=at(61))
    ) == ("clock_expired")
    # A closed round's clock does not move.
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    assert _code(lambda: round_clock.pause_clock(round=rnd, actor=boss, now=at(62))) == (
        "round_not_in_play"
    )
    rnd.refresh_from_db()
    assert rnd.clock_ended_at == at(60) and rnd.clock_paused_left is None
    assert _actions(rnd).count("round.clock_end") == 1


@pytest.mark.django_db
def test_a_clock_not_started_refuses_every_move() -> None:
    _event, boss, rnd = _in_play(45)
    Round.objects.filter(pk=rnd.pk).update(clock_started_at=None, clock_ends_at=None)
    for move in (
        lambda: round_clock.pause_clock(round=rnd, actor=boss),
        lambda: round_clock.resume_clock(round=rnd, actor=boss),
        lambda: round_clock.extend_clock(round=rnd, minutes=5, actor=boss),
        lambda: round_clock.end_clock(round=rnd, actor=boss),
    ):
        assert _code(move) == "clock_not_started"
    round_clock.start_clock(round=rnd, actor=boss, now=T0)
    rnd.refresh_from_db()
    assert rnd.clock_ends_at == at(45)


@pytest.mark.django_db
def test_a_round_without_a_time_limit_starts_without_a_clock() -> None:
    event = make_event(round_minutes=0)
    boss = make_director(event)
    make_field(event, 4)
    rnd = round_generation.generate_round(event=event, actor=boss)
    Round.objects.filter(pk=rnd.pk).update(time_limit_minutes=None)
    round_status.publish_round(round=rnd, actor=boss)
    round_status.start_round(round=rnd, actor=boss)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.IN_PLAY and rnd.clock_started_at is None
    assert _code(lambda: round_clock.start_clock(round=rnd, actor=boss)) == "clock_no_limit"
