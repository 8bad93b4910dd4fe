"""``manage.py check_pairings``: exit codes and one line per finding."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tests.tournaments.rounds_factory import make_director, make_event, make_field, settle_round
from tournaments.models import Event, Match, Round, RoundSeat
from tournaments.services import round_edits, round_generation, round_status

pytestmark = pytest.mark.django_db


def run(*args: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("check_pairings", *[str(a) for a in args], stdout=out, stderr=err)
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def two_rounds(event: Event, boss: User) -> tuple[Round, Round]:
    first = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=first, actor=boss)
    settle_round(first, boss)
    round_status.close_round(round=first, actor=boss)
    second = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=second, actor=boss)
    return first, second


def plant_rematch(first: Round, second: Round) -> int:
    """Rewrite round 2 in the database so table 1 replays a round-1 match; return the table."""
    m1 = second.matches.select_related("table").get(table__number=1)
    a = m1.entry_a_id
    old = RoundSeat.objects.select_related("match").get(round=first, entry_id=a).match
    former = old.entry_b_id if old.entry_a_id == a else old.entry_a_id
    assert former is not None
    other_seat = RoundSeat.objects.select_related("match").get(round=second, entry_id=former)
    other = other_seat.match
    b = m1.entry_b_id
    RoundSeat.objects.filter(round=second, entry_id__in=[b, former]).delete()
    Match.objects.filter(pk=m1.pk).update(entry_b_id=former)
    if other_seat.side == 0:
        Match.objects.filter(pk=other.pk).update(entry_a_id=b)
    else:
        Match.objects.filter(pk=other.pk).update(entry_b_id=b)
    RoundSeat.objects.create(round=second, entry_id=former, match_id=m1.pk, side=1)
    RoundSeat.objects.create(round=second, entry_id=b, match_id=other.pk, side=other_seat.side)
    assert m1.table is not None
    return m1.table.number


def test_clean_rounds_exit_zero_and_print_nothing() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 9)
    two_rounds(event, boss)
    code, out, err = run(event.slug)
    assert (code, out) == (0, "")
    assert "2 rounds checked: 0 violations" in err
    assert run(event.slug, 2)[0] == 0


def test_a_planted_rematch_is_reported_with_its_table_and_exit_one() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 8)
    first, second = two_rounds(event, boss)
    table = plant_rematch(first, second)
    code, out, _ = run(event.slug)
    assert code == 1
    lines = out.splitlines()
    assert any(line.startswith(f"round 2 table {table}: rematch ") for line in lines), out
    assert all(re.match(r"^round \d+( table \d+| bye)?: [a-z_]+ ", line) for line in lines)
    assert run(event.slug, 1)[0] == 0  # round 1 itself is fine


def test_a_director_edit_with_a_reason_prints_as_override_and_exits_zero() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 6)
    first = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=first, actor=boss)
    settle_round(first, boss)
    round_status.close_round(round=first, actor=boss)
    second = round_generation.generate_round(event=event, actor=boss)
    m1 = second.matches.get(table__number=1)
    old = RoundSeat.objects.select_related("match").get(round=first, entry_id=m1.entry_a_id).match
    former = old.entry_b_id if old.entry_a_id == m1.entry_a_id else old.entry_a_id
    assert former is not None and m1.entry_b_id is not None
    round_edits.swap_entries(
        round=second, entry_x=m1.entry_b_id, entry_y=former, reason="family", actor=boss
    )
    round_status.publish_round(round=second, actor=boss)
    code, out, err = run(event.slug, 2)
    assert code == 0, out
    assert out.startswith("round 2 table 1: override rematch")
    assert "(director: family)" in out
    assert "0 violations" in err


def test_a_missing_entry_and_a_wrong_bye_count_are_violations() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 6)
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    gone = rnd.matches.get(table__number=3)
    Match.objects.filter(pk=gone.pk).delete()
    code, out, _ = run(event.slug, 1)
    assert code == 1
    assert out.count(": missing ") == 2


def test_unknown_event_or_round_exits_two() -> None:
    event = make_event()
    assert run("no-such-event")[0] == 2
    code, _, err = run(event.slug, 7)
    assert code == 2 and "no round 7" in err
