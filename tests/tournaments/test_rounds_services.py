"""Round control through the services: generate, edit with reasons, publish, close, brackets."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.tournaments.rounds_factory import (
    make_director,
    make_entry,
    make_event,
    make_field,
    settle_round,
)
from tournaments.errors import SpinnerError
from tournaments.models import (
    AuditEntry,
    BackgroundJob,
    Entry,
    EntryPlayer,
    Event,
    Match,
    Round,
    RoundSeat,
)
from tournaments.pairing import draw
from tournaments.pairing.records import DrawRecord
from tournaments.selectors import pairing_inputs
from tournaments.selectors import rounds as selectors
from tournaments.services import (
    director_jobs,
    playoffs,
    round_edits,
    round_generation,
    round_status,
)

pytestmark = pytest.mark.django_db


def pairs_of(rnd: Round) -> set[frozenset[int]]:
    return {
        frozenset((m.entry_a_id, m.entry_b_id))
        for m in rnd.matches.all()
        if m.entry_b_id is not None
    }


def layout(rnd: Round) -> list[tuple[int | None, int, int | None]]:
    return sorted(
        ((m.table.number if m.table else None), m.entry_a_id, m.entry_b_id)
        for m in rnd.matches.select_related("table")
    )


def play(rnd: Round, actor: User) -> Round:
    round_status.publish_round(round=rnd, actor=actor)
    settle_round(rnd, actor)
    return round_status.close_round(round=rnd, actor=actor)


def as_record(data: dict[str, Any]) -> DrawRecord:
    """A draw as recorded in the round's JSON, read back into the pairing package's record."""
    return DrawRecord(
        purpose=data["purpose"],
        round_no=data["round"],
        method=data["method"],
        inputs=tuple(data["candidates"]),
        outcome=tuple(data["outcome"]),
        context=tuple(data["context"]),
    )


def refused(code: str, call: Any, **kwargs: Any) -> SpinnerError:
    with pytest.raises(SpinnerError) as info:
        call(**kwargs)
    assert info.value.code == code, info.value.as_dict()
    return info.value


def test_round_one_is_a_random_draw_from_the_salt_reproducibly() -> None:
    event = make_event(salt="open-2026")
    boss = make_director(event)
    make_field(event, 12)
    first = round_generation.generate_round(event=event, actor=boss)
    assert first.kind == Round.Kind.SWISS and first.status == Round.Status.DRAFT
    drawn = layout(first)
    assert len(drawn) == 6 and [t for t, _, _ in drawn] == [1, 2, 3, 4, 5, 6]
    # Every draw is recorded with what anyone needs to recompute it from the published salt.
    draws = first.explanation["draws"]
    assert {d["purpose"] for d in draws} >= {"first-round"}
    for d in draws:
        assert draw.verify(as_record(d), "open-2026")
    # The same salt gives the same draw; another salt another.
    round_edits.discard_draft_round(round=first, reason="check reproducibility", actor=boss)
    again = round_generation.generate_round(event=event, actor=boss)
    assert layout(again) == drawn
    round_edits.discard_draft_round(round=again, reason="new salt", actor=boss)
    Event.objects.filter(pk=event.pk).update(salt="another-salt")
    event.refresh_from_db()
    assert layout(round_generation.generate_round(event=event, actor=boss)) != drawn


def test_round_one_seeded_puts_the_top_half_against_the_bottom_half() -> None:
    event = make_event(first_round="seed")
    boss = make_director(event)
    entries = [make_entry(event, f"Seed {s}", seed=s) for s in range(1, 9)]
    rnd = round_generation.generate_round(event=event, actor=boss)
    by_seed = {e.pk: e.seed for e in entries}
    seeds = [(t, by_seed[a], by_seed[b]) for t, a, b in layout(rnd)]
    assert seeds == [(1, 1, 5), (2, 2, 6), (3, 3, 7), (4, 4, 8)]
    assert all(m.explanation["reason"] for m in rnd.matches.all())


def test_only_checked_in_entries_are_paired_one_seat_each() -> None:
    event = make_event()
    boss = make_director(event)
    playing = make_field(event, 6)
    late = make_entry(event, "Not here yet", status=Entry.Status.REGISTERED)
    gone = make_entry(event, "Gone home", status=Entry.Status.WITHDRAWN)
    rnd = round_generation.generate_round(event=event, actor=boss)
    seated = sorted(RoundSeat.objects.filter(round=rnd).values_list("entry_id", flat=True))
    assert seated == sorted(e.pk for e in playing)
    assert late.pk not in seated and gone.pk not in seated
    assert rnd.explanation["active_entries"] == sorted(e.pk for e in playing)


def test_round_two_is_swiss_without_a_rematch_for_five_rounds() -> None:
    event = make_event(swiss_rounds=5)
    boss = make_director(event)
    make_field(event, 10)
    met: set[frozenset[int]] = set()
    for number in range(1, 6):
        rnd = round_generation.generate_round(event=event, actor=boss)
        assert rnd.number == number
        pairs = pairs_of(rnd)
        assert len(pairs) == 5 and not pairs & met, f"rematch in round {number}"
        met |= pairs
        assert selectors.check_round_record(rnd) == []
        play(rnd, boss)
    refused("schedule_complete", round_generation.generate_round, event=event, actor=boss)


def test_an_odd_field_gives_one_bye_never_twice_while_avoidable() -> None:
    event = make_event(swiss_rounds=7)
    boss = make_director(event)
    make_field(event, 7)
    had_bye: list[int] = []
    for _ in range(7):
        rnd = round_generation.generate_round(event=event, actor=boss)
        byes = list(rnd.matches.filter(is_bye=True))
        assert len(byes) == 1 and byes[0].table is None and byes[0].entry_b is None
        assert byes[0].explanation["reason"]
        assert RoundSeat.objects.filter(round=rnd).count() == 7
        had_bye.append(byes[0].entry_a_id)
        play(rnd, boss)
    assert len(set(had_bye)) == 7
    # Byes earn the event's bye points, and every settled match its winner's points, in the
    # results the pairing reads: 7 byes and 7 x 3 decided matches.
    results = pairing_inputs.results_for_pairing(event)
    total = sum(r.match_points for r in results.values())
    assert total == 7 * event.points_bye + 21 * (event.points_win + event.points_loss)
    assert all(r.match_points >= event.points_bye for r in results.values())
    assert sum(r.spread for r in results.values()) == 0


def test_a_pinned_entry_keeps_its_table() -> None:
    # Seeded round 1 (1 v 6, 2 v 7, 3 v 8, 4 v 9, 5 v 10) keeps the two pinned entries (seeds 5
    # and 8) at different tables whatever the database's ids, so both pins can hold.
    event = make_event(first_round="seed")
    boss = make_director(event)
    entries = [make_entry(event, f"Seed {s}", seed=s) for s in range(1, 11)]
    Entry.objects.filter(pk=entries[4].pk).update(pinned_table=4)
    Entry.objects.filter(pk=entries[7].pk).update(pinned_table=1)
    rnd = round_generation.generate_round(event=event, actor=boss)
    seat = {
        s.entry_id: s.match.table.number
        for s in RoundSeat.objects.select_related("match__table").filter(round=rnd)
    }
    assert seat[entries[4].pk] == 4 and seat[entries[7].pk] == 1
    assert sorted(set(seat.values())) == [1, 2, 3, 4, 5]


def test_generation_is_refused_while_a_round_is_open_or_the_field_is_too_small() -> None:
    event = make_event()
    boss = make_director(event)
    make_entry(event)
    refused("too_few_entries", round_generation.generate_round, event=event, actor=boss)
    refused("too_few_entries", round_generation.start_round_generation, event=event, actor=boss)
    make_entry(event)
    rnd = round_generation.generate_round(event=event, actor=boss)
    refused("previous_round_open", round_generation.generate_round, event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    refused("previous_round_open", round_generation.start_round_generation, event=event, actor=boss)
    assert not BackgroundJob.objects.filter(event=event).exists()


def test_status_flow_and_its_refusals() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 4)
    rnd = round_generation.generate_round(event=event, actor=boss)
    refused("round_not_published", round_status.close_round, round=rnd, actor=boss)
    refused("round_not_published", round_status.start_round, round=rnd, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED and rnd.published_at is not None
    refused("round_not_draft", round_status.publish_round, round=rnd, actor=boss)
    a, b = rnd.matches.first().entry_a_id, rnd.matches.last().entry_a_id  # type: ignore[union-attr]
    refused(
        "round_not_draft",
        round_edits.swap_entries,
        round=rnd,
        entry_x=a,
        entry_y=b,
        reason="late",
        actor=boss,
    )
    round_status.start_round(round=rnd, actor=boss)
    refused("results_missing", round_status.close_round, round=rnd, actor=boss)
    settle_round(rnd, boss)
    round_status.close_round(round=rnd, actor=boss)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED and rnd.closed_at is not None
    refused("round_not_published", round_status.close_round, round=rnd, actor=boss)
    actions = list(
        AuditEntry.objects.filter(event=event).order_by("pk").values_list("action", flat=True)
    )
    assert [a for a in actions if not a.startswith("result.")] == [
        "round.generate",
        "round.publish",
        "round.start",
        "round.clock_start",  # starting the round starts its clock (issue 12)
        "round.close",
    ]


def test_a_swap_needs_a_reason_is_audited_and_checks_as_an_override() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 6)
    first = round_generation.generate_round(event=event, actor=boss)
    play(first, boss)
    second = round_generation.generate_round(event=event, actor=boss)
    # Plant a rematch by hand: put a round-one opponent of table 1's first entry opposite it.
    m1 = second.matches.select_related("table").get(table__number=1)
    old = RoundSeat.objects.select_related("match").get(round=first, entry=m1.entry_a_id).match
    former = old.entry_b_id if old.entry_a_id == m1.entry_a_id else old.entry_a_id
    assert former is not None and former != m1.entry_b_id
    refused(
        "reason_required",
        round_edits.swap_entries,
        round=second,
        entry_x=m1.entry_b_id,
        entry_y=former,
        reason="  ",
        actor=boss,
    )
    round_edits.swap_entries(
        round=second,
        entry_x=m1.entry_b_id,  # type: ignore[arg-type]
        entry_y=former,
        reason="they asked to play again",
        actor=boss,
    )
    m1.refresh_from_db()
    assert m1.entry_b_id == former
    assert m1.explanation["overrides"][0]["reason"] == "they asked to play again"
    log = AuditEntry.objects.get(event=event, action="round.swap_entries")
    assert log.reason == "they asked to play again" and log.actor == boss
    assert log.before != log.after
    found = selectors.check_round_record(second)
    assert found and {v.code for v in found} == {"override"}
    assert all(not v.is_violation for v in found)
    # Seats follow the swap: still one per entry.
    assert RoundSeat.objects.filter(round=second, entry_id=former).get().match_id == m1.pk
    round_status.publish_round(round=second, actor=boss)  # overrides do not block publishing


def test_swapping_tables_keeps_one_match_per_table() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 6)
    rnd = round_generation.generate_round(event=event, actor=boss)
    before = {m.table.number: m.pk for m in rnd.matches.select_related("table")}  # type: ignore[union-attr]
    refused(
        "same_table",
        round_edits.swap_tables,
        round=rnd,
        table_x=1,
        table_y=1,
        reason="x",
        actor=boss,
    )
    refused(
        "not_in_round",
        round_edits.swap_tables,
        round=rnd,
        table_x=1,
        table_y=9,
        reason="x",
        actor=boss,
    )
    round_edits.swap_tables(round=rnd, table_x=1, table_y=3, reason="wheelchair access", actor=boss)
    after = {m.table.number: m.pk for m in rnd.matches.select_related("table")}  # type: ignore[union-attr]
    assert after == {1: before[3], 2: before[2], 3: before[1]}
    assert AuditEntry.objects.get(action="round.swap_tables").reason == "wheelchair access"


def test_a_bye_can_be_swapped_into_a_match() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 5)
    rnd = round_generation.generate_round(event=event, actor=boss)
    bye = rnd.matches.get(is_bye=True)
    playing = rnd.matches.filter(is_bye=False).first()
    assert playing is not None
    round_edits.swap_entries(
        round=rnd,
        entry_x=bye.entry_a_id,
        entry_y=playing.entry_a_id,
        reason="arrived late",
        actor=boss,
    )
    bye.refresh_from_db()
    playing.refresh_from_db()
    assert bye.is_bye and bye.entry_a_id != playing.entry_a_id
    assert RoundSeat.objects.filter(round=rnd).count() == 5


def test_the_generation_job_completes_eagerly_and_is_safe_to_run_twice(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 8)
    with django_capture_on_commit_callbacks(execute=True):
        job = round_generation.start_round_generation(event=event, actor=boss)
    job.refresh_from_db()
    assert job.kind == "generate_round" and job.status == BackgroundJob.Status.DONE
    assert job.progress == 100 and job.result["round"] == 1
    rnd = Round.objects.get(event=event, number=1)
    assert rnd.matches.count() == 4
    director_jobs.run_director_job(job_id=job.pk)  # a redelivered message
    assert Round.objects.filter(event=event).count() == 1


def test_a_job_that_can_no_longer_run_fails_with_the_code(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 4)
    with django_capture_on_commit_callbacks(execute=False):
        job = round_generation.start_round_generation(event=event, actor=boss)
    round_generation.generate_round(event=event, actor=boss)  # someone was quicker
    director_jobs.run_director_job(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == BackgroundJob.Status.FAILED
    assert job.result["code"] == "previous_round_open" and job.message


def test_round_robin_meets_every_pair_once_with_a_rotating_bye() -> None:
    event = make_event(format=Event.Format.ROUND_ROBIN)
    boss = make_director(event)
    entries = make_field(event, 5)
    met: list[frozenset[int]] = []
    byes: list[int] = []
    for _ in range(5):
        rnd = round_generation.generate_round(event=event, actor=boss)
        assert rnd.kind == Round.Kind.ROUND_ROBIN
        met.extend(pairs_of(rnd))
        byes.extend(rnd.matches.filter(is_bye=True).values_list("entry_a_id", flat=True))
        assert selectors.check_round_record(rnd) == []
        play(rnd, boss)
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations([e.pk for e in entries], 2)), key=sorted
    )
    assert sorted(byes) == sorted(e.pk for e in entries)
    refused("schedule_complete", round_generation.generate_round, event=event, actor=boss)


def test_the_playoff_bracket_seeds_the_first_round_in_standard_order() -> None:
    event = make_event(swiss_rounds=1, playoff=Event.Playoff.SINGLE, playoff_qualifiers=5)
    boss = make_director(event)
    entries = make_field(event, 8)
    play(round_generation.generate_round(event=event, actor=boss), boss)
    refused("playoff_needs_seeding", round_generation.generate_round, event=event, actor=boss)
    ranking = [e.pk for e in entries]  # seed 1 = entries[0]
    refused(
        "too_few_qualifiers",
        playoffs.create_playoff_bracket,
        event=event,
        ranking=ranking[:1],
        actor=boss,
    )
    rnd = playoffs.create_playoff_bracket(event=event, ranking=ranking, actor=boss)
    assert rnd.kind == Round.Kind.PLAYOFF and rnd.number == 2
    games = list(rnd.matches.filter(is_bye=False).select_related("table"))
    assert [(g.table.number, g.entry_a_id, g.entry_b_id) for g in games] == [  # type: ignore[union-attr]
        (1, entries[3].pk, entries[4].pk)
    ]
    assert games[0].bracket_slot
    assert sorted(rnd.matches.filter(is_bye=True).values_list("entry_a_id", flat=True)) == sorted(
        e.pk for e in entries[:3]
    )
    assert rnd.explanation["bracket"]["size"] == 8
    assert selectors.check_round_record(rnd) == []


def test_pairing_inputs_read_history_per_player_in_fixed_queries(
    django_assert_num_queries: Any,
) -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 6)
    play(round_generation.generate_round(event=event, actor=boss), boss)
    with django_assert_num_queries(6):
        inputs = pairing_inputs.pairing_inputs(event, round_no=2)
    assert len(inputs.history) == 3 and len(inputs.active) == 6
    players = {p for e in inputs.entries for p in e.player_ids}
    for past in inputs.history:
        assert past.players_a <= players and len(past.players_a) == 2
    make_field(event, 6)
    play(round_generation.generate_round(event=event, actor=boss), boss)
    with django_assert_num_queries(6):
        pairing_inputs.pairing_inputs(event, round_no=3)
    assert Match.objects.filter(round__event=event).count() == 9


def test_each_table_records_its_first_leader_and_a_swap_draws_it_again() -> None:
    event = make_event(salt="leaders")
    boss = make_director(event)
    make_field(event, 6)
    rnd = round_generation.generate_round(event=event, actor=boss)
    for m in rnd.matches.all():
        leader = m.explanation["first_leader"]
        record = as_record(leader["draw"])
        assert draw.verify(record, "leaders") and record.context == (m.entry_a_id, m.entry_b_id)
        members = set(
            EntryPlayer.objects.filter(entry_id__in=[m.entry_a_id, m.entry_b_id]).values_list(
                "player_id", flat=True
            )
        )
        assert leader["player"] in members
    m1 = rnd.matches.get(table__number=1)
    m2 = rnd.matches.get(table__number=2)
    round_edits.swap_entries(
        round=rnd, entry_x=m1.entry_a_id, entry_y=m2.entry_a_id, reason="swap", actor=boss
    )
    m1.refresh_from_db()
    record = as_record(m1.explanation["first_leader"]["draw"])
    assert record.context == (m1.entry_a_id, m1.entry_b_id) and draw.verify(record, "leaders")


def test_a_second_generation_is_refused_while_one_is_pending(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 4)
    with django_capture_on_commit_callbacks(execute=False):
        first = round_generation.start_round_generation(event=event, actor=boss)
    error = refused(
        "generation_running", round_generation.start_round_generation, event=event, actor=boss
    )
    assert error.details == {"job": first.pk}
    # A job lost long ago (a dead worker) no longer blocks.
    BackgroundJob.objects.filter(pk=first.pk).update(
        created_at=first.created_at - round_generation.JOB_STALE_AFTER
    )
    with django_capture_on_commit_callbacks(execute=True):
        round_generation.start_round_generation(event=event, actor=boss)
    assert Round.objects.filter(event=event, number=1).exists()


def test_publishing_is_refused_while_the_checker_finds_violations() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 6)
    rnd = round_generation.generate_round(event=event, actor=boss)
    Match.objects.filter(round=rnd, table__number=2).delete()  # two entries lost
    error = refused("round_has_violations", round_status.publish_round, round=rnd, actor=boss)
    assert len(error.details["violations"]) == 2
    assert all(": missing " in line for line in error.details["violations"])
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.DRAFT


def test_generate_and_publish_for_scripts() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 8)
    rnd = round_generation.generate_and_publish_round(event=event, actor=boss)
    assert (rnd.number, rnd.status) == (1, Round.Status.PUBLISHED)


def test_round_robin_schedule_ignores_late_check_ins_and_covers_withdrawals() -> None:
    event = make_event(format=Event.Format.ROUND_ROBIN)
    boss = make_director(event)
    entries = make_field(event, 4)
    play(round_generation.generate_round(event=event, actor=boss), boss)
    late = make_entry(event, "Late Comers")
    Entry.objects.filter(pk=entries[0].pk).update(status=Entry.Status.WITHDRAWN)
    second = round_generation.generate_round(event=event, actor=boss)
    seated = set(RoundSeat.objects.filter(round=second).values_list("entry_id", flat=True))
    assert late.pk not in seated and entries[0].pk not in seated
    assert len(seated) == 3
    bye = second.matches.get(is_bye=True)
    assert bye.explanation["overrides"][0]["reason"].startswith("round robin")
    assert any("not in the round robin schedule" in n for n in second.explanation["notes"])
    findings = selectors.check_round_record(second)
    assert all(not v.is_violation for v in findings), findings


@pytest.mark.django_db(transaction=True)
def test_a_generation_the_broker_refuses_fails_at_once_and_may_be_retried(
    dead_broker: str,
) -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 4)
    job = round_generation.start_round_generation(event=event, actor=boss)
    job.refresh_from_db()
    assert job.status == BackgroundJob.Status.FAILED
    assert "could not be reached" in job.message
    assert not Round.objects.filter(event=event).exists()
    # The failed job does not block the director's next try.
    again = round_generation.start_round_generation(event=event, actor=boss)
    assert again.pk != job.pk
