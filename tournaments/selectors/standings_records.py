"""What a standings recompute reads and computes: the event's records for the standings package
(``tournaments.standings``), its points setting and tiebreak list, and the canonical snapshot
document built from them. The match-points arithmetic is the standings package's alone
(:func:`points_config` feeds it).
"""

from __future__ import annotations

import gc
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from fractions import Fraction
from itertools import accumulate
from typing import Any

from django.db.models import FilteredRelation, Max, Q

from tournaments.models import (
    Entry,
    Event,
    Match,
    MatchResult,
    Round,
    StandingsRecompute,
)
from tournaments.standings import Entry as StandingsEntry
from tournaments.standings import (
    EntryTally,
    Number,
    PointsConfig,
    RoundKind,
    Standings,
    standings_from_tally,
    tally,
    unbroken_ties,
)
from tournaments.standings import Result as StandingsResult
from tournaments.standings.records import normalise
from tournaments.standings.serialise import canonical_json, encode_number

SNAPSHOT_FORMAT = "spinner-standings/1"


COUNTED_KINDS = ("swiss", "round_robin", "tiebreak")
"""Round kinds whose results a recompute loads (play-off results belong to the bracket)."""


PLAYED_STATUSES = (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.CLOSED)
"""A bye counts once its round is published."""


def points_config(event: Event) -> PointsConfig:
    """The event's match points as the standings package takes them, forfeits included (their
    points: ``None`` is "as a played win / loss"; whether their scores count in the spread)."""
    return PointsConfig(
        win=event.points_win,
        draw=event.points_draw,
        loss=event.points_loss,
        bye=event.points_bye,
        margin_bonus=event.margin_bonus_points,
        margin_threshold=event.margin_bonus_at or None,
        forfeit_win=event.points_forfeit_win,
        forfeit_loss=event.points_forfeit_loss,
        double_forfeit=event.points_double_forfeit,
        forfeit_spread=event.forfeit_spread,
    )


def tiebreak_list(event: Event) -> list[str]:
    """The event's ordered tiebreak names, match points first (the event lists what follows)."""
    names = [str(name) for name in (event.tiebreaks or [])]
    return names if names[:1] == ["match_points"] else ["match_points", *names]


def places_that_matter(event: Event) -> list[int]:
    """Places where a tie must be broken: the play-off cut when the event has a play-off, else
    the podium (with a play-off, the bracket decides the podium)."""
    if event.playoff != Event.Playoff.NONE:
        return [event.playoff_qualifiers] if event.playoff_qualifiers >= 1 else []
    return [1, 2, 3]


@dataclass(frozen=True)
class StandingsInput:
    """Everything a recompute reads, as plain records."""

    event: Event
    entries: list[StandingsEntry]
    withdrawn: frozenset[int]
    results: list[StandingsResult]


def _exact(halves: int | None) -> Number:
    """Raw points from stored half-points: an ``int`` when whole (almost always), else exact."""
    if halves is None:
        return 0
    if halves % 2 == 0:
        return halves // 2
    return Fraction(halves, 2)


ROUND_KINDS = {kind.value: kind for kind in RoundKind}
"""A round's stored kind as the standings package's :class:`RoundKind` (a lookup, not a call)."""


def standings_result(
    match_id: int,
    round_number: int,
    kind: str,
    entry_a: int,
    entry_b: int,
    score_a_halves: int | None,
    score_b_halves: int | None,
    winner_side: int | None,
    forfeit: str = "",
) -> StandingsResult:
    """A match's confirmed result as the standings package's record (scores exact, from the
    stored half-points; ``winner_side`` 0 or 1 as the seat order has it, None for a draw or a
    double forfeit; ``forfeit`` the result's ``MatchResult.forfeit``: any forfeit, by one side or
    both, is the record's ``forfeit=True``)."""
    winner = entry_a if winner_side == 0 else entry_b if winner_side == 1 else None
    return StandingsResult(
        match_id,
        round_number,
        ROUND_KINDS.get(kind, kind),  # an unknown kind: Result says so
        entry_a,
        entry_b,
        _exact(score_a_halves),
        _exact(score_b_halves),
        winner,
        bool(forfeit),
    )


def load_standings_input(*, event_id: int) -> StandingsInput:
    """Read the event, its entries and every counted result or bye (three queries).

    A result is a match's current confirmed ``MatchResult``; a bye counts once its round is
    published. Scores are exact (stored as half-points). Rows come as plain tuples (no model
    instance), unordered (the standings package orders them), straight into the records.
    """
    event = Event.objects.get(pk=event_id)
    entries: list[StandingsEntry] = []
    withdrawn: set[int] = set()
    for pk, name, status in (
        Entry.objects.filter(event_id=event_id).order_by().values_list("pk", "name", "status")
    ):
        entries.append(StandingsEntry(pk, name))
        if status == Entry.Status.WITHDRAWN:
            withdrawn.add(pk)
    rows = (
        Match.objects.filter(round__event_id=event_id, round__kind__in=COUNTED_KINDS)
        .annotate(current=FilteredRelation("results", condition=Q(results__is_current=True)))
        .filter(Q(is_bye=True, round__status__in=PLAYED_STATUSES) | Q(current__isnull=False))
        .order_by()  # no sort (nor the joins Match's default ordering needs) in the database
        .values_list(
            "pk",
            "round__number",
            "round__kind",
            "entry_a_id",
            "entry_b_id",
            "is_bye",
            "current__score_a_halves",
            "current__score_b_halves",
            "current__winner_side",
            "current__forfeit",
        )
    )
    kinds, exact = ROUND_KINDS, _exact
    results = [
        StandingsResult(pk, number, kinds[kind], a, None, 0, 0, None)
        if is_bye
        else StandingsResult(
            pk,
            number,
            kinds[kind],
            a,
            b,
            # _exact, its common case inline (this runs per result)
            score_a // 2 if score_a is not None and not score_a & 1 else exact(score_a),
            score_b // 2 if score_b is not None and not score_b & 1 else exact(score_b),
            a if winner_side == 0 else b if winner_side == 1 else None,
            bool(forfeit),
        )
        for pk, number, kind, a, b, is_bye, score_a, score_b, winner_side, forfeit in rows
    ]
    return StandingsInput(
        event=event, entries=entries, withdrawn=frozenset(withdrawn), results=results
    )


def _progress(record: EntryTally, whole: bool) -> list[list[Any]]:
    """An entry's cumulative match points after each round it has a counted result in,
    ``[[round, points], ...]`` (several results in one round add up), from the tally's
    per-result points (``EntryTally.rounds`` and ``earned``: awarded by the standings package).
    ``whole``: every award is an int (``PointsConfig.whole``), so every total is one too."""
    rounds: Sequence[int] = record.rounds
    totals: Iterable[Number] = accumulate(record.earned)
    if len(set(rounds)) < len(rounds):  # a round with two results (a bye and a match): its last
        kept = dict(zip(rounds, totals, strict=True))
        rounds, totals = tuple(kept), iter(kept.values())
    elif whole:
        return list(map(list, zip(rounds, totals, strict=True)))
    return [
        [number, total if type(total) is int else encode_number(total)]
        for number, total in zip(rounds, totals, strict=True)
    ]


def build_document(data: StandingsInput) -> tuple[dict[str, Any], Standings]:
    """The snapshot document: the standings package's canonical JSON under ``standings``, and
    per row what the pages and the CSV show beside it (points for and against, spread, the
    match-points progression, withdrawn), the places that matter and the ties across them.

    The results are tallied once: the standings and the per-row extras read the same tally."""
    event = data.event
    points = points_config(event)
    counted = tally(data.entries, data.results, points)
    standings = standings_from_tally(counted, data.entries, tiebreaks=tiebreak_list(event))
    places = places_that_matter(event)
    records, withdrawn, enc, whole = counted.entries, data.withdrawn, encode_number, points.whole
    extra = {}
    for row in standings.rows:
        record = records[row.entry_id]
        pf, pa = record.points_for, record.points_against
        entry_id = int(row.entry_id)
        extra[str(entry_id)] = {
            "points_for": pf if type(pf) is int else enc(pf),
            "points_against": pa if type(pa) is int else enc(pa),
            "spread": pf - pa if type(pf) is int and type(pa) is int else enc(normalise(pf - pa)),
            "progress": _progress(record, whole) if record.rounds else [],
            "withdrawn": entry_id in withdrawn,
        }
    rounds: set[int] = set().union(*(record.rounds for record in records.values()))
    document = {
        "format": SNAPSHOT_FORMAT,
        "event": event.slug,
        "standings": standings.to_json(),
        "extra": extra,
        "places_that_matter": places,
        "unbroken_ties": unbroken_ties(standings, places) if places else [],
        "rounds": sorted(rounds),
        "tiebreak_rounds": sorted({r.round_number for r in counted.tiebreak_results}),
    }
    return document, standings


def canonical_bytes(document: dict[str, Any]) -> bytes:
    """Canonical JSON (sorted keys, no whitespace, no floats): equal documents, equal bytes
    (the standings package's :func:`~tournaments.standings.serialise.canonical_json`)."""
    return canonical_json(document)


RESULT_LINE = "\nr%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s"
"""A result's line in the fingerprint: its nine fields in order (``Result`` is a named tuple, so
``RESULT_LINE % result`` formats it, in C)."""


def input_fingerprint(data: StandingsInput) -> str:
    """SHA-256 of the records a recompute read, order-independent: ``computed_from``."""
    event = data.event
    digest = hashlib.sha256()
    settings = {
        "points": Standings(points_config(event), (), ()).to_json()["points"],
        "tiebreaks": tiebreak_list(event),
        "places": places_that_matter(event),
        "withdrawn": sorted(data.withdrawn),
    }
    digest.update(canonical_bytes(settings))
    entries = sorted(data.entries, key=lambda e: str(e.entry_id).zfill(20))
    digest.update("".join([f"\ne{e.entry_id}\t{e.name}" for e in entries]).encode())
    digest.update("".join(sorted(map(RESULT_LINE.__mod__, data.results))).encode())
    return digest.hexdigest()


def compute_snapshot_bytes(*, event_id: int) -> tuple[bytes, str]:
    """Load the event's records and compute its snapshot: ``(canonical bytes, fingerprint)``.

    The cyclic garbage collector is paused meanwhile: the records and the document are tens of
    thousands of short-lived, acyclic objects (reference counting frees them), and collections
    passing over them took about a third of the time (benchmarks/standings/RESULTS.md).
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        data = load_standings_input(event_id=event_id)
        document, _ = build_document(data)
        return canonical_bytes(document), input_fingerprint(data)
    finally:
        if paused:
            gc.enable()


def events_with_results_newer_than_snapshot(margin_seconds: float = 0.0) -> list[int]:
    """Events with a current confirmed result created after their latest recompute started (less
    ``margin_seconds``), or never recomputed: results written without a dirty mark (the results
    service marks in the same transaction, so this catches writers that bypass it). Two queries.
    """
    newest = dict(
        MatchResult.objects.filter(is_current=True)
        .values_list("match__round__event_id")
        .annotate(newest=Max("created_at"))
        .values_list("match__round__event_id", "newest")
    )
    started = dict(
        StandingsRecompute.objects.filter(event_id__in=list(newest)).values_list(
            "event_id", "last_started_at"
        )
    )
    margin = timedelta(seconds=margin_seconds)
    return sorted(
        event_id
        for event_id, at in newest.items()
        if (last := started.get(event_id)) is None or at > last - margin
    )
