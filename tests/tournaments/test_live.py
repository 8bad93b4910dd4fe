"""Live standings through the services: snapshots, idempotent recomputes, dirty marks, the
reconcile, tiebreak rounds and seeding (tasks run eagerly here; see test_live_worker.py for a
real worker on Redis)."""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import Any

import pytest
from django.db import connection

from tests.tournaments.live_support import (
    close_rounds,
    confirm,
    make_director,
    make_entries,
    make_event,
    make_round,
)
from tournaments.errors import Conflict, ValidationFailed
from tournaments.models import (
    BackgroundJob,
    MatchResult,
    Round,
    StandingsRecompute,
    StandingsSnapshot,
    StandingsState,
)
from tournaments.selectors import playoffs as playoff_reads
from tournaments.selectors import standings as standings_reads
from tournaments.selectors import standings_input, standings_records
from tournaments.selectors import tiebreak_rounds as tiebreak_reads
from tournaments.services import standings as standings_service
from tournaments.services import tiebreak_rounds

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _private_cache(settings: Any) -> None:
    """A cache of this test's own (never the machine's Redis, shared with other runs)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"live-{uuid.uuid4()}",
        }
    }


def latest(event_id: int) -> StandingsSnapshot:
    return StandingsSnapshot.objects.filter(event_id=event_id).order_by("-generation").first()


def order(event_id: int) -> list[tuple[int, str]]:
    document = json.loads(latest(event_id).data)
    return [(r["rank"], r["name"]) for r in document["standings"]["rows"]]


@pytest.fixture
def played(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """Five teams, round 1 played (T1 beat T2 100-50, T4 beat T3 100-30, T5 a bye)."""
    event = make_event()
    teams = make_entries(event, 5)
    director = make_director(event)
    matches = make_round(event, 1, [(teams[0], teams[1]), (teams[2], teams[3]), (teams[4], None)])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(matches[0], 100, 50, director)
    with django_capture_on_commit_callbacks(execute=True):
        confirm(matches[1], 30, 100, director)
    return {"event": event, "teams": teams, "director": director, "matches": matches}


def test_a_confirmed_result_makes_a_snapshot_and_clears_the_dirty_mark(played: Any) -> None:
    event = played["event"]
    state = StandingsState.objects.get(event=event)
    assert state.dirty is False
    assert state.results_generation == 2
    assert StandingsRecompute.objects.get(event=event).computed_generation == 2
    # Bye: 2 points, spread 0 (Buchholz of a bye is its own score); then by Buchholz, spread.
    assert order(event.pk) == [
        (1, "Team 5"),
        (2, "Team 4"),
        (3, "Team 1"),
        (4, "Team 2"),
        (5, "Team 3"),
    ]


def test_the_same_results_give_the_same_bytes_and_no_new_generation(played: Any) -> None:
    event = played["event"]
    before = latest(event.pk)
    stored = StandingsSnapshot.objects.filter(event=event).count()
    outcome = standings_service.recompute_standings(event_id=event.pk, force=True)
    assert outcome.status == "unchanged"
    assert outcome.generation == before.generation
    assert StandingsSnapshot.objects.filter(event=event).count() == stored  # none added
    data, fingerprint = standings_records.compute_snapshot_bytes(event_id=event.pk)
    assert data == before.data.encode()
    assert hashlib.sha256(data).hexdigest() == before.digest
    assert fingerprint == before.computed_from


def test_nothing_to_do_when_the_snapshot_covers_the_latest_results(played: Any) -> None:
    event = played["event"]
    assert standings_service.recompute_standings(event_id=event.pk).status == "current"


def test_a_correction_makes_a_new_generation(
    played: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = played["event"]
    generation = latest(event.pk).generation
    with django_capture_on_commit_callbacks(execute=True):
        confirm(played["matches"][0], 20, 100, played["director"])  # T2 now beat T1
    assert latest(event.pk).generation == generation + 1
    # Team 2: Buchholz 0, spread +80, above Team 4 (+70); Team 1 falls below Team 3 (-80 < -70).
    assert order(event.pk) == [
        (1, "Team 5"),
        (2, "Team 2"),
        (3, "Team 4"),
        (4, "Team 3"),
        (5, "Team 1"),
    ]


def test_a_recompute_within_2_seconds_of_the_last_is_deferred(played: Any) -> None:
    event = played["event"]
    outcome = standings_service.recompute_standings(event_id=event.pk, force=True, throttle=True)
    assert outcome.status == "deferred"
    assert 0 < outcome.wait <= standings_service.COALESCE_SECONDS


def test_the_dirty_mark_stays_when_results_changed_after_the_recompute_read_them(
    played: Any,
) -> None:
    event = played["event"]
    # A result confirmed meanwhile: the generation moves on, the mark is set...
    StandingsState.objects.filter(pk=event.pk).update(dirty=True, results_generation=3)
    # ...and a recompute that had read generation 2 must not clean it.
    StandingsState.objects.filter(pk=event.pk, results_generation=2).update(dirty=False)
    assert StandingsState.objects.get(pk=event.pk).dirty
    assert standings_service.recompute_standings(event_id=event.pk).status == "unchanged"
    state = StandingsState.objects.get(pk=event.pk)
    assert state.dirty is False
    assert StandingsRecompute.objects.get(pk=event.pk).computed_generation == 3


def test_the_reconcile_catches_a_result_whose_mark_was_lost(played: Any) -> None:
    event = played["event"]
    match = played["matches"][0]
    # A result written without any dirty mark or message (as if both were lost).
    MatchResult.objects.filter(match=match).update(is_current=False)
    MatchResult.objects.create(
        match=match,
        version=2,
        source=MatchResult.Source.CORRECTION,
        kind="final_score",
        score_a_halves=0,
        score_b_halves=200,
        winner_side=1,
    )
    StandingsRecompute.objects.filter(pk=event.pk).update(last_started_at=None)
    assert event.pk in standings_service.events_to_reconcile()[1]
    generation = latest(event.pk).generation
    assert standings_service.reconcile_standings() == {event.pk: "new"}
    assert latest(event.pk).generation == generation + 1
    assert order(event.pk)[1] == (2, "Team 2")
    assert standings_service.events_to_reconcile() == (set(), set())


def test_the_reconcile_recomputes_dirty_events(played: Any) -> None:
    event = played["event"]
    StandingsState.objects.filter(pk=event.pk).update(dirty=True)
    StandingsRecompute.objects.filter(pk=event.pk).update(last_started_at=None)
    assert standings_service.reconcile_standings() == {event.pk: "unchanged"}
    assert not StandingsState.objects.get(pk=event.pk).dirty


def test_a_recompute_loads_the_records_in_a_fixed_number_of_queries(
    played: Any, django_assert_num_queries: Any
) -> None:
    event = played["event"]
    with django_assert_num_queries(3):  # the event, its entries, its results and byes
        data = standings_input.load_standings_input(event_id=event.pk)
    assert len(data.results) == 3
    # The whole forced recompute: 2 get_or_create + recompute row, generation, latest snapshot,
    # the 3 loads, 2 updates (no insert: unchanged), and savepoints in the test's transaction;
    # on PostgreSQL one more, the advisory lock (inside a transaction, a transaction-level lock
    # that needs no unlock query).
    with django_assert_num_queries(12 if connection.vendor == "sqlite" else 13):
        standings_service.recompute_standings(event_id=event.pk, force=True)


def test_ranking_for_pairing_follows_the_snapshot(played: Any) -> None:
    event = played["event"]
    teams = played["teams"]
    ranks = standings_reads.ranking_for_pairing(event)
    assert ranks == {teams[4].pk: 1, teams[3].pk: 2, teams[0].pk: 3, teams[1].pk: 4, teams[2].pk: 5}
    from tournaments.pairing import EntryRecord, rank

    records = [EntryRecord(t.pk, frozenset({t.pk})) for t in teams]
    assert rank(
        records, salt=event.salt, round_no=2, key=standings_reads.pairing_rank_key(event)
    ) == [
        teams[4].pk,
        teams[3].pk,
        teams[0].pk,
        teams[1].pk,
        teams[2].pk,
    ]


# --- Tiebreak rounds, from proposal to the final standings -----------------------------------


@pytest.fixture
def tied(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """Four teams, one Swiss round (no play-off: the podium matters): T1 and T2 won 100-50, T3
    and T4 lost 50-100. Nothing separates T1 from T2, nor T3 from T4."""
    event = make_event("tied", swiss_rounds=1, tiebreaks=["buchholz", "spread", "head_to_head"])
    teams = make_entries(event, 4)
    director = make_director(event)
    matches = make_round(event, 1, [(teams[0], teams[2]), (teams[1], teams[3])])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(matches[0], 100, 50, director)
        confirm(matches[1], 100, 50, director)
    close_rounds(event)
    return {"event": event, "teams": teams, "director": director}


def test_a_tiebreak_round_settles_the_podium(
    tied: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event, teams, director = tied["event"], tied["teams"], tied["director"]
    assert order(event.pk) == [(1, "Team 1"), (1, "Team 2"), (3, "Team 3"), (3, "Team 4")]
    standings = standings_reads.latest_standings(standings_reads.event_with_state(event.slug))
    assert standings.unbroken_ties == [[teams[0].pk, teams[1].pk], [teams[2].pk, teams[3].pk]]

    with django_capture_on_commit_callbacks(execute=True):
        job = tiebreak_rounds.start_tiebreak_proposal(event=event, actor=director)
    job.refresh_from_db()
    assert job.status == BackgroundJob.Status.DONE, job.message
    rnd = Round.objects.get(event=event, kind=Round.Kind.TIEBREAK)
    assert (rnd.number, rnd.status) == (2, Round.Status.DRAFT)
    pairs = {frozenset((m.entry_a_id, m.entry_b_id)) for m in rnd.matches.select_related("table")}
    assert pairs == {frozenset((teams[0].pk, teams[1].pk)), frozenset((teams[2].pk, teams[3].pk))}
    assert sorted(m.table.number for m in rnd.matches.all()) == [1, 2]

    tiebreak_rounds.approve_tiebreak_round(event=event, round_id=rnd.pk, actor=director)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
    with django_capture_on_commit_callbacks(execute=True):
        for m in rnd.matches.all():
            # Team 2 beats Team 1; Team 3 beats Team 4.
            winner_is_a = m.entry_a_id in (teams[1].pk, teams[2].pk)
            confirm(m, 100 if winner_is_a else 40, 40 if winner_is_a else 100, director)
    close_rounds(event)
    assert order(event.pk) == [(1, "Team 2"), (2, "Team 1"), (3, "Team 3"), (4, "Team 4")]
    standings = standings_reads.latest_standings(standings_reads.event_with_state(event.slug))
    assert [row["settlement"] for row in standings.rows] == ["2", "0", "2", "0"]
    assert standings.unbroken_ties == []
    with pytest.raises(ValidationFailed) as info:
        tiebreak_reads.check_can_propose_tiebreak(event)
    assert info.value.code == "no_unbroken_ties"


def test_a_tiebreak_round_waits_for_the_main_rounds(tied: Any) -> None:
    event = tied["event"]
    Round.objects.filter(event=event).update(status=Round.Status.IN_PLAY)
    with pytest.raises(Conflict) as info:
        tiebreak_rounds.start_tiebreak_proposal(event=event, actor=tied["director"])
    assert info.value.code == "main_rounds_open"


def test_a_tiebreak_round_waits_for_current_standings(tied: Any) -> None:
    event = tied["event"]
    StandingsState.objects.filter(pk=event.pk).update(dirty=True)
    with pytest.raises(Conflict) as info:
        tiebreak_reads.check_can_propose_tiebreak(event)
    assert info.value.code == "standings_updating"


def test_seeding_refuses_a_tie_across_the_cut(tied: Any) -> None:
    event = tied["event"]
    event.playoff, event.playoff_qualifiers = "single", 3
    event.save()
    with pytest.raises(Conflict) as info:
        playoff_reads.check_can_seed(event)
    assert info.value.code == "tied_at_cut"
    event.playoff_qualifiers = 2
    event.save()
    teams = tied["teams"]
    seeds = playoff_reads.check_can_seed(event)
    # Teams 1 and 2 share rank 1: both qualify, and the salted lot orders them (reproducibly).
    assert set(seeds[:2]) == {teams[0].pk, teams[1].pk}
    assert set(seeds[2:]) == {teams[2].pk, teams[3].pk}
    assert playoff_reads.check_can_seed(event) == seeds


def test_a_three_way_tie_plays_its_round_robin_round_by_round(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tournaments.selectors import rounds as round_selectors

    event = make_event("three", swiss_rounds=1, tiebreaks=["buchholz", "spread"])
    teams = make_entries(event, 6)
    director = make_director(event)
    pairs = [(teams[0], teams[3]), (teams[1], teams[4]), (teams[2], teams[5])]
    matches = make_round(event, 1, pairs)
    with django_capture_on_commit_callbacks(execute=True):
        for match in matches:
            confirm(match, 100, 50, director)
    close_rounds(event)
    top = {teams[0].pk, teams[1].pk, teams[2].pk}
    standings = standings_reads.latest_standings(standings_reads.event_with_state(event.slug))
    assert [set(g) for g in standings.unbroken_ties] == [top]

    seen: list[frozenset[int]] = []
    for expected_number in (2, 3):
        rnd = tiebreak_rounds.propose_tiebreak_round(event=event, actor=director)
        assert rnd.number == expected_number
        assert round_selectors.check_round_record(rnd) == []  # what check_pairings sees
        tiebreak_rounds.approve_tiebreak_round(event=event, round_id=rnd.pk, actor=director)
        with django_capture_on_commit_callbacks(execute=True):
            for match in rnd.matches.filter(is_bye=False):
                pair = frozenset((match.entry_a_id, match.entry_b_id))
                assert pair not in seen  # no tiebreak rematch while another pair is left
                seen.append(pair)
                a_wins = match.entry_a_id < match.entry_b_id  # the lower id wins
                confirm(match, 100 if a_wins else 60, 60 if a_wins else 100, director)
        close_rounds(event)
        standings = standings_reads.latest_standings(standings_reads.event_with_state(event.slug))
        if expected_number == 2:
            # Three entries: one game and one bye (worth a win): the loser drops out of the
            # tie, the winner and the bye stay tied for the next tiebreak round.
            (game,) = rnd.matches.filter(is_bye=False)
            (bye,) = rnd.matches.filter(is_bye=True)
            loser = max(game.entry_a_id, game.entry_b_id)
            assert [set(g) for g in standings.unbroken_ties] == [top - {loser}]
            assert bye.entry_a_id in top and bye.entry_a_id not in (
                game.entry_a_id,
                game.entry_b_id,
            )
    assert standings.unbroken_ties == []
    podium = [(row["rank"], row["entry_id"]) for row in standings.rows[:3]]
    assert [rank for rank, _ in podium] == [1, 2, 3]
    assert {entry for _, entry in podium} == top
