"""A worker's recompute reuses its last computation of the event (issue 17), and the snapshot it
writes is byte for byte the one a computation from scratch writes: after corrections, after a
withdrawal, after a new round, whatever that last computation was."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.tournaments.live_support import (
    confirm,
    make_director,
    make_entries,
    make_event,
    make_round,
)
from tournaments.models import Entry
from tournaments.selectors import standings_input, standings_records

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_recent_recomputes() -> Iterator[None]:
    """Each test starts (and leaves) with no remembered recompute in this process."""
    standings_records._recent.clear()
    yield
    standings_records._recent.clear()


def from_scratch(event_id: int) -> tuple[bytes, str]:
    """The snapshot as a process that never recomputed the event makes it."""
    kept = dict(standings_records._recent)
    standings_records._recent.clear()
    try:
        return standings_records.compute_snapshot_bytes(event_id=event_id)
    finally:
        standings_records._recent.clear()
        standings_records._recent.update(kept)


@pytest.fixture
def event() -> dict[str, Any]:
    """Six teams, round 1 played."""
    event = make_event(tiebreaks=["head_to_head", "buchholz", "opponents_win_rate", "spread"])
    teams = make_entries(event, 6)
    director = make_director(event)
    matches = make_round(
        event, 1, [(teams[0], teams[1]), (teams[2], teams[3]), (teams[4], teams[5])]
    )
    for match, (a, b) in zip(matches, [(100, 50), (30, 100), (100, 95)], strict=True):
        confirm(match, a, b, director)
    return {"event": event, "teams": teams, "director": director, "matches": matches}


def test_after_a_correction_the_reused_computation_writes_the_bytes_from_scratch(
    event: dict[str, Any],
) -> None:
    event_id = event["event"].pk
    first = standings_records.compute_snapshot_bytes(event_id=event_id)
    assert first == from_scratch(event_id)
    confirm(event["matches"][0], 20, 100, event["director"])  # Team 2 now beat Team 1
    again = standings_records.compute_snapshot_bytes(event_id=event_id)
    recent = standings_records._recent[event_id]
    # reused, not from scratch
    assert recent.computation.changed == frozenset({event["matches"][0].pk})
    assert again != first
    assert again == from_scratch(event_id)


def test_a_new_round_and_a_withdrawal_give_the_bytes_from_scratch(event: dict[str, Any]) -> None:
    event_id, teams = event["event"].pk, event["teams"]
    standings_records.compute_snapshot_bytes(event_id=event_id)
    pairs = [(teams[0], teams[2]), (teams[1], teams[4]), (teams[3], None)]
    matches = make_round(event["event"], 2, pairs)
    confirm(matches[0], 100, 100, event["director"])
    assert standings_records.compute_snapshot_bytes(event_id=event_id) == from_scratch(event_id)
    Entry.objects.filter(pk=teams[5].pk).update(status=Entry.Status.WITHDRAWN)
    confirm(matches[1], 0, 100, event["director"])
    assert standings_records.compute_snapshot_bytes(event_id=event_id) == from_scratch(event_id)


def test_another_events_computation_in_between_changes_nothing(event: dict[str, Any]) -> None:
    event_id = event["event"].pk
    other = make_event(slug="other")
    teams = make_entries(other, 4)
    matches = make_round(other, 1, [(teams[0], teams[1]), (teams[2], teams[3])])
    confirm(matches[0], 100, 0, make_director(other, name="other-director"))
    standings_records.compute_snapshot_bytes(event_id=event_id)
    # this event's remembered computation handed to the other event: it is computed from scratch
    standings_records._recent[other.pk] = standings_records._recent[event_id]
    assert standings_records.compute_snapshot_bytes(event_id=other.pk) == from_scratch(other.pk)
    assert standings_records._recent[other.pk].computation.changed is None


def test_a_process_remembers_a_bounded_number_of_events(
    event: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(standings_records, "RECENT_EVENTS", 1)
    other = make_event(slug="other")
    make_entries(other, 2)
    standings_records.compute_snapshot_bytes(event_id=event["event"].pk)
    standings_records.compute_snapshot_bytes(event_id=other.pk)
    assert list(standings_records._recent) == [other.pk]


def test_a_result_read_again_unchanged_is_the_very_record_of_the_last_read(
    event: dict[str, Any],
) -> None:
    event_id, first_match = event["event"].pk, event["matches"][0]
    standings_records.compute_snapshot_bytes(event_id=event_id)
    before = standings_records._recent[event_id]
    kept = {r.match_id: r for r in before.computation.tally.results_by_id.values()}
    confirm(first_match, 20, 100, event["director"])  # a correction: a new row for this match
    data = standings_input.load_standings_input(event_id=event_id, known=before.records)
    fresh = standings_input.load_standings_input(event_id=event_id)
    assert data.results == fresh.results  # the same records as a read from scratch
    for record in data.results:
        if record.match_id == first_match.pk:
            assert record is not kept[record.match_id] and record != kept[record.match_id]
        else:
            assert record is kept[record.match_id]
    assert standings_input.records_by_row(data) == dict(zip(data.rows, data.results, strict=True))


def test_a_process_remembers_the_events_recomputed_lately_and_reuses_them(
    event: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a worker computes before it forks (``spinner.celery``): the most recently recomputed
    events, as many as a process keeps; the next recompute of one reuses that computation."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.models import StandingsRecompute
    from tournaments.services import standings

    monkeypatch.setattr(standings_records, "RECENT_EVENTS", 2)
    old, other = make_event(slug="old"), make_event(slug="other")
    for extra in (old, other):
        make_entries(extra, 2, prefix=extra.slug)
    for event_id in (old.pk, event["event"].pk, other.pk):
        standings.recompute_standings(event_id=event_id, force=True)
    StandingsRecompute.objects.filter(pk=old.pk).update(
        last_started_at=timezone.now() - timedelta(hours=7)
    )
    standings_records._recent.clear()
    remembered = standings_records.remember_recent_events(within=timedelta(hours=6))
    assert remembered == [other.pk, event["event"].pk]  # the most recent first; not the old one
    assert list(standings_records._recent) == [event["event"].pk, other.pk]  # it stays longest
    standings_records._recent.clear()
    real = standings_records.compute_snapshot_bytes

    def fails_for_other(*, event_id: int) -> tuple[bytes, str]:
        if event_id == other.pk:
            raise ValueError("an entry read while being added")
        return real(event_id=event_id)

    monkeypatch.setattr(standings_records, "compute_snapshot_bytes", fails_for_other)
    assert standings_records.remember_recent_events(within=timedelta(hours=6)) == [
        event["event"].pk
    ]  # the other one logged and left out
    monkeypatch.setattr(standings_records, "compute_snapshot_bytes", real)
    confirm(event["matches"][1], 100, 20, event["director"])
    again = standings_records.compute_snapshot_bytes(event_id=event["event"].pk)
    assert standings_records._recent[event["event"].pk].computation.changed == frozenset(
        {event["matches"][1].pk}
    )
    assert again == from_scratch(event["event"].pk)


def test_a_starting_worker_computes_the_recent_standings_then_closes_and_freezes(
    event: dict[str, Any],
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``worker_init`` (in the worker's main process, before its pool forks): the recent events'
    standings are kept, the database connections closed, the objects frozen out of the
    collector; a failure is logged, not raised."""
    import gc

    from django.db import connections

    from spinner import celery
    from tournaments.services import standings

    standings.recompute_standings(event_id=event["event"].pk, force=True)
    standings_records._recent.clear()
    closed: list[bool] = []
    monkeypatch.setattr(connections, "close_all", lambda: closed.append(True))
    settings.SPINNER_WORKER_WARM_STANDINGS_HOURS = 6
    gc.unfreeze()
    try:
        celery._remember_recent_standings(sender=None)
        assert list(standings_records._recent) == [event["event"].pk]
        assert closed == [True]
        assert gc.get_freeze_count() > 0
        gc.unfreeze()
        standings_records._recent.clear()

        def fail(**_: Any) -> list[int]:
            raise RuntimeError("the database is away")

        monkeypatch.setattr(standings_records, "remember_recent_events", fail)
        celery._remember_recent_standings(sender=None)  # logged, not raised
        assert "could not be computed at start" in caplog.text
        assert closed == [True, True] and gc.get_freeze_count() > 0
        settings.SPINNER_WORKER_WARM_STANDINGS_HOURS = 0
        monkeypatch.undo()
        monkeypatch.setattr(connections, "close_all", lambda: closed.append(True))
        celery._remember_recent_standings(sender=None)
        assert not standings_records._recent  # turned off: nothing computed
    finally:
        gc.unfreeze()


def test_the_records_by_row_grow_with_each_read_then_are_made_afresh() -> None:
    """A read's new records are added to the dict it was given (rows no longer read stay: a
    record is its row's, whenever that row comes back) until a quarter more rows than the read
    are kept: then the dict is made afresh."""
    from tournaments.standings import Result as Record

    def read(rows: list[tuple[Any, ...]], made: list[int] | None) -> Any:
        results = [Record(row[0], 1, "swiss", 1, 2, 305, 100, 1) for row in rows]
        return standings_input.StandingsInput(
            event=None,  # type: ignore[arg-type]
            entries=[],
            withdrawn=frozenset(),
            results=results,
            rows=rows,
            made=made,
        )

    rows = [(n, "row") for n in range(100)]
    first = read(rows, None)
    known = standings_input.records_by_row(first)
    assert known == dict(zip(rows, first.results, strict=True))
    changed = [*rows[:-1], (99, "corrected")]
    second = read(changed, [99])
    kept = standings_input.records_by_row(second, known)
    assert kept is known and len(kept) == 101  # the old row 99 stays, the new one is added
    assert kept[(99, "corrected")] is second.results[99]
    many = [(n, "again") for n in range(100)]
    third = read(many, list(range(100)))
    fresh = standings_input.records_by_row(third, kept)
    assert fresh is not kept and fresh == dict(zip(many, third.results, strict=True))
