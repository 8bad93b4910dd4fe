"""Ratings through the database: what is rated, the coalesced task after each result, a
correction re-rates, and re-rating from a round equals re-rating from scratch."""

from __future__ import annotations

import datetime
import io
import random
from fractions import Fraction
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import transaction
from django.template.loader import render_to_string

from tests.tournaments import ratings_support as rs
from tournaments import job_kinds
from tournaments.models import (
    BackgroundJob,
    Entry,
    EntryPlayer,
    Match,
    Partnership,
    Player,
    RatingChange,
)
from tournaments.rating import RatedGame, rate_round
from tournaments.ratings_scale import display_rating
from tournaments.selectors.pairing_inputs import pairing_inputs
from tournaments.selectors.ratings import rating_history
from tournaments.services import events, forfeits, ratings

pytestmark = pytest.mark.django_db


def players_of(entry: Entry) -> tuple[int, ...]:
    return tuple(sorted(entry.members.values_list("player_id", flat=True)))


def test_a_confirmed_result_rates_its_four_players_as_openskill_does(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = rs.make_event("one")
    actor = rs.director(event)
    (match,) = rs.seat_round(event, 1, [(0, 1)])
    with django_capture_on_commit_callbacks(execute=True):
        rs.enter(match, actor, (100, 40))

    expected = rate_round(
        {},
        [
            RatedGame.two_sides(
                (1, match.pk), players_of(match.entry_a), players_of(match.entry_b), 0
            )
        ],
    )
    for player_id, rating in expected.items():
        player = Player.objects.get(pk=player_id)
        assert (player.rating_mu, player.rating_sigma, player.rated_games) == (
            rating.mu,
            rating.sigma,
            1,
        )
        step = RatingChange.objects.get(player=player)
        assert (step.mu, step.sigma, step.games, step.round_id) == (
            rating.mu,
            rating.sigma,
            1,
            match.round_id,
        )
    assert not BackgroundJob.objects.filter(kind=job_kinds.RERATE).exists()


def test_forfeits_byes_and_unrated_events_are_not_rated(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = rs.make_event("forfeits", entries=5)
    actor = rs.director(event)
    (match,) = rs.seat_round(event, 1, [(0, 1)])
    rs.factories.seat_bye(match.round, rs.field(event)[4])
    unrated = rs.make_event("friendly", rated=False)
    (friendly,) = rs.seat_round(unrated, 1, [(0, 1)])
    with django_capture_on_commit_callbacks(execute=True):
        forfeits.record_forfeit(match=match, side=1, reason="no show", actor=actor)
        rs.enter(friendly, rs.director(unrated), (100, 20))
    ratings.rerate_all()
    assert RatingChange.objects.count() == 0
    assert not Player.objects.filter(rating_mu__isnull=False).exists()


def test_a_correction_rerates_from_its_round(django_capture_on_commit_callbacks: Any) -> None:
    event = rs.make_event("fix")
    actor = rs.director(event)
    first = rs.seat_round(event, 1, [(0, 1), (2, 3)])
    second = rs.seat_round(event, 2, [(0, 2), (1, 3)])
    with django_capture_on_commit_callbacks(execute=True):
        for match in first + second:
            rs.enter(match, actor, (100, 50))
    winner = players_of(first[0].entry_a)[0]
    before = Player.objects.get(pk=winner).rating_mu
    with django_capture_on_commit_callbacks(execute=True):
        rs.enter(first[0], actor, (30, 100))  # the correction: side B won round 1's table 1
    after = rs.snapshot()
    assert Player.objects.get(pk=winner).rating_mu != before
    ratings.rerate_all()
    assert rs.snapshot() == after


def test_a_burst_of_results_is_one_mark_and_one_run(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = rs.make_event("burst", entries=6)
    actor = rs.director(event)
    rs.seat_round(event, 1, [(0, 1), (2, 3), (4, 5)])
    later = rs.seat_round(event, 2, [(0, 2), (1, 4), (3, 5)])
    first = list(Match.objects.filter(round__number=1, round__event=event))
    with django_capture_on_commit_callbacks(execute=False) as callbacks, transaction.atomic():
        rs.enter(later[0], actor, (100, 10))
        for match in first:
            rs.enter(match, actor, (100, 10))
        marks = list(BackgroundJob.objects.filter(kind=job_kinds.RERATE))
        changed = sorted(m.pk for m in [later[0], *first])
        assert [(m.status, m.params) for m in marks] == [
            ("pending", {"round": 1, "matches": changed})
        ]
    for callback in callbacks:  # the standings' requests and the one re-rate task
        callback()
    assert not BackgroundJob.objects.filter(kind=job_kinds.RERATE).exists()
    assert RatingChange.objects.filter(round__number=1).count() == 12
    assert RatingChange.objects.filter(round__number=2).count() == 4
    rated = rs.snapshot()
    assert ratings.run_requested_rerate() is None  # a second delivery does nothing
    ratings.rerate_all()
    assert rs.snapshot() == rated


def test_a_mark_whose_task_was_lost_is_rerated_by_the_reconcile(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tournaments.tasks import reconcile_ratings

    with django_capture_on_commit_callbacks(execute=False):  # the task never sent: lost
        event = rs.mark_left_unsent("lost")
    later = rs.seat_round(event, 2, [(0, 2), (1, 3)])
    with django_capture_on_commit_callbacks(execute=True):  # finds the mark pending: sends none
        rs.enter(later[0], event.directors.get(), (100, 10))
    mark = BackgroundJob.objects.get(kind=job_kinds.RERATE)
    assert mark.status == "pending" and not RatingChange.objects.exists()

    assert reconcile_ratings.apply().get() is False  # a minute not gone: its task may yet run
    BackgroundJob.objects.filter(pk=mark.pk).update(
        created_at=mark.created_at - ratings.FORGOTTEN_AFTER
    )
    assert reconcile_ratings.apply().get() is True  # sent, and run (eager here)
    assert not BackgroundJob.objects.filter(kind=job_kinds.RERATE).exists()
    assert RatingChange.objects.filter(round__number=1).count() == 8
    assert RatingChange.objects.filter(round__number=2).count() == 4
    rated = rs.snapshot()
    ratings.rerate_all()
    assert rs.snapshot() == rated
    assert reconcile_ratings.apply().get() is False  # nothing waits now


def test_a_mark_left_running_by_a_dead_worker_is_taken_again(
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        rs.mark_left_unsent("dead")
    BackgroundJob.objects.filter(kind=job_kinds.RERATE).update(status="running")  # then died
    assert ratings.rerate_forgotten_marks() is False  # it may still be running
    BackgroundJob.objects.filter(kind=job_kinds.RERATE).update(
        updated_at=datetime.datetime.now(datetime.UTC) - ratings.STALE_RUNNING
    )
    assert ratings.rerate_forgotten_marks() is True
    assert not BackgroundJob.objects.filter(kind=job_kinds.RERATE).exists()
    assert RatingChange.objects.filter(round__number=1).count() == 8


def test_beat_runs_the_ratings_reconcile() -> None:
    from django.conf import settings

    from tournaments.tasks import reconcile_ratings

    entries = [
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == reconcile_ratings.name
    ]
    assert len(entries) == 1
    assert entries[0]["schedule"] == settings.SPINNER_RECONCILE_SECONDS


def _season() -> tuple[list[list[Match]], Any]:
    """Two events of two rounds each (the second a day later), the same players in both."""
    matches: list[list[Match]] = []
    actors = []
    for day, slug in ((5, "winter"), (6, "spring")):
        event = rs.make_event(slug, day=day, entries=6)
        actors.append(rs.director(event))
        matches.append(rs.seat_round(event, 1, [(0, 1), (2, 3), (4, 5)]))
        matches.append(rs.seat_round(event, 2, [(0, 3), (1, 5), (2, 4)]))
    return matches, actors


def test_confirmation_order_within_a_round_changes_nothing() -> None:
    rounds, actors = _season()
    scores = [(100, 40), (55, 100), (100, 95)]
    outcomes = []
    for seed in range(4):
        rng = random.Random(seed)
        sid = transaction.savepoint()
        for index, matches in enumerate(rounds):
            order = list(zip(matches, scores, strict=True))
            rng.shuffle(order)
            for match, score in order:
                rs.enter(match, actors[index // 2], score)
            ratings.run_requested_rerate()  # as the worker would, after each round's burst
        outcomes.append(rs.snapshot()["players"])
        transaction.savepoint_rollback(sid)
    assert all(outcome == outcomes[0] for outcome in outcomes)
    assert any(mu is not None for _, mu, _, _ in outcomes[0])


def test_rerating_from_any_round_equals_rerating_from_scratch() -> None:
    rounds, actors = _season()
    for index, matches in enumerate(rounds):
        for match, score in zip(matches, [(100, 40), (55, 100), (100, 95)], strict=True):
            rs.enter(match, actors[index // 2], score)
    ratings.rerate_all()
    scratch = rs.snapshot()
    for matches in rounds:
        rnd = matches[0].round
        # an incremental run from each round finds the stored numbers already right
        assert (
            ratings.rerate_from(event_id=rnd.event_id, round_number=rnd.number).steps_written == 0
        )
    RatingChange.objects.filter(event=rounds[2][0].round.event).delete()
    ratings.rerate_from(event_id=rounds[2][0].round.event_id, round_number=1)
    assert rs.snapshot() == scratch


def _correct(match: Match, actor: Any, rng: random.Random) -> None:
    """A random correction a director could make: other scores, a forfeit, or a draw."""
    current = match.results.filter(is_current=True).first()  # type: ignore[attr-defined]
    version = None if current is None else current.version
    what = rng.choice(["scores", "scores", "forfeit", "draw"])
    if what == "forfeit":
        forfeits.record_forfeit(
            match=match,
            side=rng.randint(0, 1),
            reason="no show",
            actor=actor,
            expected_version=version,
        )
    elif what == "draw":
        rs.enter(match, actor, (90, 90))
    else:
        rs.enter(match, actor, (5 * rng.randint(0, 19), 100) if rng.random() < 0.5 else (100, 40))


def test_incremental_rerates_give_the_numbers_from_scratch(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Random corrections anywhere in a season (scores, forfeits, draws), each re-rated by the
    worker's incremental path (only what the changed match can move), always equal a re-rate
    from scratch; and the path touched fewer rounds than the season has."""
    rounds, actors = _season()
    for index, matches in enumerate(rounds):
        for match, score in zip(matches, [(100, 40), (55, 100), (100, 95)], strict=True):
            rs.enter(match, actors[index // 2], score)
    ratings.run_requested_rerate()
    rng = random.Random(16)
    for _ in range(12):
        index = rng.randrange(len(rounds))
        match = rng.choice(rounds[index])
        with django_capture_on_commit_callbacks(execute=False):
            _correct(match, actors[index // 2], rng)
        marks = list(BackgroundJob.objects.filter(kind=job_kinds.RERATE))
        assert [m.params.get("matches") for m in marks] == [[match.pk]]
        outcome = ratings.run_requested_rerate()
        assert outcome is not None and outcome.rounds <= len(rounds) - index
        incremental = rs.snapshot()
        scratch = ratings.rerate_all()  # writes nothing: the incremental numbers were right
        assert (scratch.steps_written, scratch.steps_deleted, scratch.players_updated) == (0, 0, 0)
        assert rs.snapshot() == incremental


def test_seeding_by_rating_uses_the_openskill_rating_then_the_registration_one() -> None:
    season = rs.make_event("season", day=5)
    (match,) = rs.seat_round(season, 1, [(0, 1)])
    rs.enter(match, rs.director(season), (100, 10))
    ratings.rerate_all()
    cup = rs.make_event("cup", day=9, first_round="rating", entries=0)
    winners = players_of(match.entry_a)
    newcomer = Player.objects.create(name="New Comer", rating=1234)
    unrated = rs.factories.make_entry(cup, "unrated")
    mixed = Entry.objects.create(
        event=cup,
        partnership=Partnership.objects.create(player_a_id=winners[0], player_b=newcomer),
        name="mixed",
    )
    for player_id in (winners[0], newcomer.pk):
        EntryPlayer.objects.create(event=cup, entry=mixed, player_id=player_id)

    records = {r.entry_id: r for r in pairing_inputs(cup, round_no=1).entries}

    rated = Player.objects.get(pk=winners[0])
    assert rated.rating_mu is not None and rated.rating_sigma is not None
    shown = display_rating(rated.rating_mu, rated.rating_sigma)[0]
    assert shown > 1500
    assert records[mixed.pk].rating == Fraction(shown + 1234, 2)
    assert records[unrated.pk].rating is None


def test_the_rating_include_draws_the_history() -> None:
    event = rs.make_event("drawn")
    actor = rs.director(event)
    for number in (1, 2, 3):
        (match,) = rs.seat_round(event, number, [(0, 1)])
        rs.enter(match, actor, (100, 10))
    ratings.rerate_all()
    player = Player.objects.get(pk=players_of(match.entry_a)[0])
    html = render_to_string("tournaments/players/_rating.html", {"player": player})
    rating, plus_minus = display_rating(player.rating_mu or 0, player.rating_sigma or 0)
    assert f"<strong>{rating}</strong> ± {plus_minus}" in html
    assert html.count("<circle") == 3 and "<polyline" in html
    assert [p.games for p in rating_history(player)] == [1, 2, 3]


def test_the_rerate_command_rebuilds_what_was_lost() -> None:
    event = rs.make_event("cmd")
    (match,) = rs.seat_round(event, 1, [(0, 1)])
    rs.enter(match, rs.director(event), (100, 10))
    ratings.rerate_all()
    rated = rs.snapshot()
    RatingChange.objects.all().delete()
    Player.objects.update(rating_mu=None, rating_sigma=None, rated_games=0)
    out = io.StringIO()
    call_command("rerate", "--event", "cmd", stdout=out)
    assert rs.snapshot() == rated
    assert "4 rating steps written" in out.getvalue()
    call_command("rerate", stdout=out)
    assert rs.snapshot() == rated


def test_making_an_event_unrated_or_moving_it_rerates(
    django_capture_on_commit_callbacks: Any,
) -> None:
    early = rs.make_event("early", day=5)
    late = rs.make_event("late", day=8)
    for event in (early, late):
        (match,) = rs.seat_round(event, 1, [(0, 1)])
        with django_capture_on_commit_callbacks(execute=True):
            rs.enter(match, rs.director(event), (100, 10))
    assert RatingChange.objects.count() == 8
    with django_capture_on_commit_callbacks(execute=True):
        events.update_event(actor=None, event=late, rated=False, reason="a friendly")
    assert set(RatingChange.objects.values_list("event_id", flat=True)) == {early.pk}
    with django_capture_on_commit_callbacks(execute=True):
        events.update_event(actor=None, event=late, rated=True, reason="rated after all")
        events.update_event(
            actor=None, event=late, start_date=datetime.date(2026, 12, 1), reason="moved"
        )
    moved = rs.snapshot()
    ratings.rerate_all()
    assert rs.snapshot() == moved
    assert RatingChange.objects.count() == 8


def test_a_merged_player_is_rated_as_the_survivor() -> None:
    first = rs.make_event("first", day=5)
    second = rs.make_event("second", day=6)
    for event in (first, second):
        (match,) = rs.seat_round(event, 1, [(0, 1)])
        rs.enter(match, rs.director(event), (100, 10))
    old = Player.objects.get(pk=players_of(rs.field(first)[0])[0])
    survivor = Player.objects.get(pk=players_of(rs.field(second)[0])[0])
    Player.objects.filter(pk=old.pk).update(merged_into=survivor)
    ratings.rerate_all()
    survivor.refresh_from_db()
    assert survivor.rated_games == 2
    assert not RatingChange.objects.filter(player=old).exists()
    assert Player.objects.get(pk=old.pk).rating_mu is None
    old.refresh_from_db()
    assert [p.games for p in rating_history(old)] == [1, 2]  # a merged row: the survivor's


def test_the_memo_of_rated_games_never_gives_a_number_from_scratch_would_not() -> None:
    rounds, actors = _season()
    for index, matches in enumerate(rounds):
        for match, score in zip(matches, [(100, 40), (55, 100), (100, 95)], strict=True):
            rs.enter(match, actors[index // 2], score)
    last = rounds[-1][0].round
    ratings.rerate_all()
    ratings.rerate_from(event_id=last.event_id, round_number=last.number)  # learns the round
    assert cache.get(f"ratings:certified:{last.pk}")
    # a stored step tampered with is not trusted: its game is rated again
    step = RatingChange.objects.filter(round=last).order_by("pk").first()
    assert step is not None
    RatingChange.objects.filter(pk=step.pk).update(mu=step.mu + 1)
    ratings.rerate_from(event_id=last.event_id, round_number=last.number)
    assert RatingChange.objects.get(player=step.player_id, round=last).mu == step.mu
    # a correction in the round: only its game changes, the others come from the memo
    rs.enter(rounds[-1][1], actors[1], (100, 5))
    ratings.rerate_from(event_id=last.event_id, round_number=last.number)
    incremental = rs.snapshot()
    ratings.rerate_all()
    assert rs.snapshot() == incremental


@pytest.mark.postgres
def test_a_big_rewrite_by_copy_stores_the_same_floats(
    postgres: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    rounds, actors = _season()
    for index, matches in enumerate(rounds):
        for match, score in zip(matches, [(100, 40), (55, 100), (100, 95)], strict=True):
            rs.enter(match, actors[index // 2], score)
    ratings.rerate_all()
    inserted = rs.snapshot()
    RatingChange.objects.all().delete()
    monkeypatch.setattr(ratings, "COPY_FROM", 1)  # every rewrite takes the COPY path
    assert ratings.rerate_all().steps_written == len(inserted["steps"])
    assert rs.snapshot() == inserted
