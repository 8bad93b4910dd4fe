"""Ratings: re-rating players from rated results (openskill, ``tournaments.rating``), and the
coalesced request that keeps them current after each confirmed result.

The design (issue 16; ``docs/ratings.md``)
-----------------------------------------
*What is stored.* One ``RatingChange`` per player per round they played rated games in (the
rating after the round), and the latest on ``Player.rating_mu`` / ``rating_sigma`` /
``rated_games``. :func:`rerate_all` recomputes everything from scratch; :func:`rerate_from`
recomputes from one round on, starting from the stored steps before it. Both compute with the
same pure code from the same starting floats, so they give the same numbers; both write only
the rows whose values changed (a second run writes nothing: idempotent).

*Incremental.* A mark that names the matches whose results changed is re-rated by
:func:`rerate_matches`: only the games whose players' ratings can have moved are rated again
(``services/rating_increments.py`` says why that gives the same numbers).

*Requests, coalesced.* Every change to a confirmed result of a rated event calls
:func:`request_rerate` in the result's transaction (``services.results.write_result``). The mark
is a pending ``BackgroundJob`` of kind ``rerate`` per event whose ``params["round"]`` is the
earliest round to re-rate from: a burst of results lowers that number on the one pending row,
and only the request that created the row sends the task (after commit), to run
:data:`COALESCE_SECONDS` later, so the results confirmed meanwhile join that one run. The task
(:func:`run_requested_rerate`) claims every pending mark at once (a short transaction of its
own, pending -> running, so a table's confirmation never waits on a re-rate), re-rates from the
earliest position among them, and deletes them; a result confirmed meanwhile finds no pending
row and makes a new one, so nothing is missed. Re-rates run one at a time: a PostgreSQL
transaction advisory lock (SQLite's ``IMMEDIATE`` transactions serialise
them there).
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from tournaments import job_kinds, shared_rows
from tournaments.models import BackgroundJob, Event, Player, RatingChange
from tournaments.queueing import enqueue_after_commit, send_task_safely
from tournaments.rating import PlayerRating, rate_rounds
from tournaments.rating.engine import Position
from tournaments.selectors import rating_records
from tournaments.services import rating_increments
from tournaments.services.rating_memo import CertifiedGames

logger = logging.getLogger(__name__)

RERATE_TASK = "tournaments.rerate_players"
"""The task that runs the pending re-rate (``tasks.py``)."""

COALESCE_SECONDS = 2.0
"""A re-rate task runs this long after the result that asked for it: a room confirming 8 results
a second made one run per result or two (435 runs in a 60 s burst of 495 results, most of the
worker's CPU: benchmarks/load/RESULTS.md, "sixth pass"); the results of the next 2 s now fold into
the waiting mark. Ratings are not on the live pages, so 2 s later costs no reader anything."""

LOCK_KEY = 0x5241  # "RA": one re-rate at a time, across events (ratings span the season)


@dataclass(frozen=True)
class RerateOutcome:
    """What a re-rate did: rounds rated, and rows written."""

    rounds: int = 0
    steps_written: int = 0
    steps_deleted: int = 0
    players_updated: int = 0


def _lock() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])


@transaction.atomic
def rerate_all() -> RerateOutcome:
    """Every rated event's ratings from scratch, in (start date, event id, round) order."""
    _lock()
    return _rerate(None)


@transaction.atomic
def rerate_from(*, event_id: int, round_number: int = 1) -> RerateOutcome:
    """Re-rate from the event's round ``round_number`` on (every later round of every later
    event too), from the stored ratings before it: the same numbers as :func:`rerate_all`."""
    _lock()
    return _rerate(rating_records.position_of(event_id=event_id, round_number=round_number))


@transaction.atomic
def rerate_matches(*, match_ids: list[int]) -> RerateOutcome:
    """Re-rate after the results of ``match_ids`` changed: only the games whose players'
    ratings can have moved (``services/rating_increments.py``); the same numbers as
    :func:`rerate_all`."""
    _lock()
    return _rerate_matches(match_ids)


def _rerate_matches(match_ids: list[int]) -> RerateOutcome:
    try:
        stored, computed, moving = rating_increments.changed_steps(match_ids)
    except rating_increments.TooMany as too_many:
        return _rerate(too_many.position)
    written, deleted, _ = _write_steps(stored, computed)
    latest = {player: rating for player, rating in moving.items() if rating is not None}
    updated = _write_players(set(moving), latest)
    rounds = {round_id for _, round_id in stored} | {round_id for _, round_id in computed}
    return RerateOutcome(len(rounds), len(written), len(deleted), updated)


def _rerate(since: Position | None) -> RerateOutcome:
    rated_ids, every_id = rating_records.rounds_since(since)
    rounds = rating_records.rated_rounds(rated_ids)
    stored = rating_records.steps_since(every_id)
    players = {p for rnd in rounds for game in rnd.games for p in game.players()}
    players |= {player for player, _ in stored}
    start = {} if since is None else rating_records.ratings_before(since, players)
    latest: dict[int, PlayerRating] = dict(start)
    computed: dict[tuple[int, int], tuple[int, PlayerRating]] = {}
    # From a round on, a game rated before from the same ratings is not rated again
    # (``rating_memo``: the same floats, certified); from scratch everything is computed.
    memo = None if since is None else CertifiedGames(stored, [r.round_id for r in rounds])
    for rnd, after in rate_rounds(rounds, start, memo=memo):
        for player, rating in after.items():
            computed[(player, rnd.round_id)] = (rnd.position[1], rating)
        latest.update(after)
    written, deleted, moved = _write_steps(stored, computed)
    if memo is not None:
        memo.save()
    # From a round on, a player none of whose steps changed keeps their stored rating (it is
    # their latest step's, already); from scratch, every player is checked.
    updated = _write_players(None if since is None else moved, latest)
    return RerateOutcome(len(rounds), len(written), len(deleted), updated)


StepRow = tuple[int, int, int, float, float, int]
"""A step to write: (player, event, round, mu, sigma, games)."""

COPY_FROM = 20_000
"""From this many new steps on (a re-rate from scratch), PostgreSQL takes them by ``COPY``:
model instances and ``INSERT`` batches cost several times more."""


def _write_steps(
    stored: dict[tuple[int, int], rating_records.StoredStep],
    computed: dict[tuple[int, int], tuple[int, PlayerRating]],
) -> tuple[list[StepRow], list[int], set[int]]:
    """Make the stored steps equal the computed ones, touching only the rows that differ:
    returns the rows written, the pks deleted and the players whose steps moved."""
    changed = {
        key
        for key, step in stored.items()
        if key not in computed or _values(computed[key][1]) != step[1:]
    }
    stale = [stored[key][0] for key in changed]
    fresh = [
        (player, event_id, round_id, rating.mu, rating.sigma, rating.games)
        for (player, round_id), (event_id, rating) in computed.items()
        if (player, round_id) not in stored or _values(rating) != stored[(player, round_id)][1:]
    ]
    for start in range(0, len(stale), 5000):
        RatingChange.objects.filter(pk__in=stale[start : start + 5000]).delete()
    if connection.vendor == "postgresql" and len(fresh) >= COPY_FROM:
        _copy_steps(fresh)
    else:
        RatingChange.objects.bulk_create(
            [
                RatingChange(player_id=p, event_id=e, round_id=r, mu=mu, sigma=sigma, games=g)
                for p, e, r, mu, sigma, g in fresh
            ],
            batch_size=2000,
        )
    moved = {player for player, _ in changed} | {row[0] for row in fresh}
    return fresh, stale, moved


def _copy_steps(rows: list[StepRow]) -> None:
    """PostgreSQL's ``COPY`` of new steps (floats travel exactly: psycopg writes their
    shortest round-trip text)."""
    now = timezone.now()
    table = RatingChange._meta.db_table
    columns = "player_id, event_id, round_id, mu, sigma, games, created_at"
    with connection.cursor() as cursor:
        raw: Any = cursor.cursor  # psycopg's own cursor, for COPY
        with raw.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row((*row, now))


def _values(rating: PlayerRating) -> tuple[float, float, int]:
    return (rating.mu, rating.sigma, rating.games)


def _write_players(players: set[int] | None, latest: dict[int, PlayerRating]) -> int:
    """Put each player's latest rating on ``Player`` (``players``: those that may have moved;
    None: every player), touching only the rows that differ."""
    stored = rating_records.stored_player_ratings(players)
    if players is None:
        stored |= rating_records.stored_player_ratings(set(latest) - set(stored))
    changed: list[Player] = []
    for pk, values in stored.items():
        rating = latest.get(pk)
        wanted = (None, None, 0.0) if rating is None else _values(rating)
        if tuple(values) != tuple(wanted):
            changed.append(
                Player(
                    pk=pk,
                    rating_mu=None if rating is None else rating.mu,
                    rating_sigma=None if rating is None else rating.sigma,
                    rated_games=0 if rating is None else rating.games,
                )
            )
    Player.objects.bulk_update(
        changed, ["rating_mu", "rating_sigma", "rated_games"], batch_size=500
    )
    return len(changed)


# --- Requests: the coalesced mark and the task's body ------------------------------------------


MATCHES_AT_MOST = 200
"""A mark names at most this many changed matches; beyond, it re-rates from its round."""


def request_rerate(
    *,
    event_id: int,
    round_number: int = 1,
    since_date: datetime.date | None = None,
    match_id: int | None = None,
) -> None:
    """In the caller's transaction: mark the event's ratings to re-rate from ``round_number``
    on (``since_date``: from every event on or after that day, for an event that moved or joined
    or left the ratings), and (once it commits) send the task, unless a pending mark already
    waits (see the module doc). Never raises for the broker (``enqueue_after_commit``).

    The players service calls it after a merge or an unmerge (``since_date``: the day of the
    first event either row played in). ``match_id``: the one match whose result changed (the
    re-rate then rates only what it can move)."""
    wanted: dict[str, Any] = {"round": round_number}
    if match_id is not None:
        wanted["matches"] = [match_id]
    if since_date is not None:
        wanted = {"round": 1, "since": since_date.isoformat()}
    pending = (
        BackgroundJob.objects.select_for_update()
        .filter(kind=job_kinds.RERATE, event_id=event_id, status=BackgroundJob.Status.PENDING)
        .order_by("pk")
        .first()
    )
    if pending is not None:
        merged = _earlier(pending.params, wanted)
        if merged != pending.params:
            pending.params = merged
            pending.save(update_fields=["params", "updated_at"])
        return
    job = BackgroundJob.objects.create(kind=job_kinds.RERATE, event_id=event_id, params=wanted)
    enqueue_after_commit(RERATE_TASK, job.pk, countdown=COALESCE_SECONDS)


def note_result_changed(*, event: Event, round_number: int, match_id: int | None = None) -> None:
    """A confirmed result of ``event`` changed (in the result's transaction): re-rate from its
    round (``match_id``: only what that match's result can move) when the event is rated and
    not a draft."""
    if event.rated and event.status != Event.Status.DRAFT:
        # the event's one pending mark: written last in a table's transaction (shared_rows)
        event_id = event.pk
        shared_rows.last(
            lambda: request_rerate(event_id=event_id, round_number=round_number, match_id=match_id)
        )


def _earlier(one: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """The mark that re-rates from the earlier of two marks of one event."""
    since = [mark["since"] for mark in (one, other) if mark.get("since")]
    if since:
        return {"round": 1, "since": min(since)}
    out: dict[str, Any] = {"round": min(int(one.get("round", 1)), int(other.get("round", 1)))}
    matches = _matches_of([one, other])
    if matches is not None:
        out["matches"] = matches
    return out


def _matches_of(marks: list[dict[str, Any]]) -> list[int] | None:
    """The matches all ``marks`` name, or None when one of them asks for more (a whole round
    or more), or when they name more than :data:`MATCHES_AT_MOST`."""
    if not marks or any(mark.get("since") or "matches" not in mark for mark in marks):
        return None
    matches = sorted({int(m) for mark in marks for m in mark["matches"]})
    return matches if len(matches) <= MATCHES_AT_MOST else None


def _mark_position(event_id: int, params: dict[str, Any]) -> Position:
    if params.get("since"):
        return (datetime.date.fromisoformat(params["since"]), 0, 0)
    return rating_records.position_of(event_id=event_id, round_number=int(params.get("round", 1)))


def run_requested_rerate() -> RerateOutcome | None:
    """The task's body: claim every pending mark, re-rate from the earliest, drop the marks.
    None when nothing was pending (a second delivery, or a run that a sibling already did).

    The claim is a short transaction of its own (pending -> running), so a table confirming a
    result never waits on a re-rate for its mark; a worker that dies mid-run leaves its marks
    running, and the next run takes them again once they are ``STALE_RUNNING`` old.
    """
    marks = _claim_marks()
    if not marks:
        return None
    positions = [_mark_position(event_id, params) for _, event_id, params in marks]
    matches = _matches_of([params for _, _, params in marks])
    with transaction.atomic():
        _lock()
        if matches is not None:
            outcome = _rerate_matches(matches)
        else:
            outcome = _rerate(min(positions)) if positions else RerateOutcome()
        BackgroundJob.objects.filter(pk__in=[pk for pk, _, _ in marks]).delete()
    logger.info("re-rated from %s: %s", min(positions, default=None), outcome)
    return outcome


STALE_RUNNING = datetime.timedelta(minutes=15)
"""A running mark this old belongs to a worker that died: the next run takes it again."""


def _stale_running(now: datetime.datetime) -> Q:
    """The running marks of a worker that died (older than :data:`STALE_RUNNING`)."""
    return Q(status=BackgroundJob.Status.RUNNING, updated_at__lt=now - STALE_RUNNING)


FORGOTTEN_AFTER = datetime.timedelta(minutes=1)
"""A pending mark this old has lost its task: it was made :data:`COALESCE_SECONDS` before its
task was due to run, and a task claims every pending mark."""


def rerate_forgotten_marks() -> bool:
    """Send the re-rate task when a mark waits with no task to run it; True when sent. The
    periodic reconcile calls it (``tasks.reconcile_ratings``).

    Only the request that makes a mark sends its task, so a task that never runs leaves the
    mark, and every result after it, unrated: the broker refused the message (down for a
    moment: a result's confirmation never fails for it), or the worker holding it died (its
    message comes back only after the broker's visibility timeout, an hour). A pending mark older
    than :data:`FORGOTTEN_AFTER`, or a running one older than :data:`STALE_RUNNING`, is such a
    mark. A second task finds nothing to claim, so sending one too many is harmless."""
    now = timezone.now()
    forgotten = (
        BackgroundJob.objects.filter(kind=job_kinds.RERATE, event__isnull=False)
        .filter(
            Q(status=BackgroundJob.Status.PENDING, created_at__lt=now - FORGOTTEN_AFTER)
            | _stale_running(now)
        )
        .order_by("pk")
        .values_list("pk", flat=True)
        .first()
    )
    if forgotten is None:
        return False
    logger.warning("a re-rate mark waited with no task to run it: sending one (mark %s)", forgotten)
    return send_task_safely(RERATE_TASK, forgotten)


@transaction.atomic
def _claim_marks() -> list[tuple[int, int, dict[str, Any]]]:
    """Every pending mark (and every stale running one), now running: (pk, event id, params)
    of the events that still exist."""
    rows = list(
        BackgroundJob.objects.select_for_update()
        .filter(kind=job_kinds.RERATE, event__isnull=False)
        .filter(Q(status=BackgroundJob.Status.PENDING) | _stale_running(timezone.now()))
        .values_list("pk", "event_id", "params")
    )
    BackgroundJob.objects.filter(pk__in=[pk for pk, _, _ in rows]).update(
        status=BackgroundJob.Status.RUNNING, updated_at=timezone.now()
    )
    return [(pk, event_id, params) for pk, event_id, params in rows if event_id is not None]
