"""What a standings recompute reads and computes: the event's records for the standings package
(``tournaments.standings``), its points setting and tiebreak list, and the canonical snapshot
document built from them. The match-points arithmetic is the standings package's alone
(:func:`points_config` feeds it).
"""

from __future__ import annotations

import gc
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta
from fractions import Fraction
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
    Number,
    PointsConfig,
    RoundKind,
    Standings,
    compute_standings,
    result_points,
    unbroken_ties,
)
from tournaments.standings import Result as StandingsResult
from tournaments.standings.records import normalise
from tournaments.standings.serialise import encode_number

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
        RoundKind(kind),
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
    published. Scores are exact (stored as half-points).
    """
    event = Event.objects.get(pk=event_id)
    entries: list[StandingsEntry] = []
    withdrawn: set[int] = set()
    for pk, name, status in Entry.objects.filter(event_id=event_id).values_list(
        "pk", "name", "status"
    ):
        entries.append(StandingsEntry(pk, name))
        if status == Entry.Status.WITHDRAWN:
            withdrawn.add(pk)
    rows = (
        Match.objects.filter(round__event_id=event_id, round__kind__in=COUNTED_KINDS)
        .annotate(current=FilteredRelation("results", condition=Q(results__is_current=True)))
        .filter(Q(is_bye=True, round__status__in=PLAYED_STATUSES) | Q(current__isnull=False))
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
    results: list[StandingsResult] = []
    for pk, number, kind, a, b, is_bye, score_a, score_b, winner_side, forfeit in rows:
        if is_bye:
            results.append(StandingsResult(pk, number, RoundKind(kind), a, None, 0, 0, None))
            continue
        results.append(
            standings_result(pk, number, kind, a, b, score_a, score_b, winner_side, forfeit or "")
        )
    return StandingsInput(
        event=event, entries=entries, withdrawn=frozenset(withdrawn), results=results
    )


def _progress(
    data: StandingsInput, points: PointsConfig
) -> tuple[dict[int, list[list[Any]]], dict[int, tuple[Number, Number]]]:
    """Per entry: cumulative match points after each counted round ``[[round, points], ...]``,
    and raw points for and against (byes count nothing; a forfeit's score only where the points
    setting counts it: ``PointsConfig.scores_count``). One pass, match points as the standings
    package awards them (margin bonus, forfeits). (The pure ``standings.progression`` says the
    same per round, at four times the cost on 10,000 results: this runs on every recompute.)"""
    per_round: dict[int, dict[int, Number]] = defaultdict(dict)
    points_for: dict[int, Number] = defaultdict(int)
    points_against: dict[int, Number] = defaultdict(int)
    counted = (RoundKind.SWISS, RoundKind.ROUND_ROBIN)
    for r in data.results:
        if r.kind not in counted:
            continue
        a, number = int(r.entry_a), r.round_number
        earned_a = result_points(r, r.entry_a, points)
        if r.entry_b is None:
            line = per_round[a]
            line[number] = line.get(number, 0) + earned_a
            continue
        b = int(r.entry_b)
        earned_b = result_points(r, r.entry_b, points)
        line = per_round[a]
        line[number] = line.get(number, 0) + earned_a
        line = per_round[b]
        line[number] = line.get(number, 0) + earned_b
        if r.forfeit and not points.scores_count(forfeit=True):
            continue
        points_for[a] += r.score_a
        points_against[a] += r.score_b
        points_for[b] += r.score_b
        points_against[b] += r.score_a
    progress: dict[int, list[list[Any]]] = {}
    for entry_id, rounds in per_round.items():
        total: Number = 0
        cumulative: list[list[Any]] = []
        for number in sorted(rounds):
            total = total + rounds[number]
            cumulative.append([number, total if type(total) is int else encode_number(total)])
        progress[entry_id] = cumulative
    scored = {e: (points_for[e], points_against[e]) for e in points_for}
    return progress, scored


def build_document(data: StandingsInput) -> tuple[dict[str, Any], Standings]:
    """The snapshot document: the standings package's canonical JSON under ``standings``, and
    per row what the pages and the CSV show beside it (points for and against, spread, the
    match-points progression, withdrawn), the places that matter and the ties across them."""
    event = data.event
    points = points_config(event)
    standings = compute_standings(
        data.entries, data.results, points=points, tiebreaks=tiebreak_list(event)
    )
    progress, scored = _progress(data, points)
    places = places_that_matter(event)
    extra = {}
    for row in standings.rows:
        entry_id = int(row.entry_id)
        pf, pa = scored.get(entry_id, (0, 0))
        extra[str(entry_id)] = {
            "points_for": encode_number(pf),
            "points_against": encode_number(pa),
            "spread": encode_number(normalise(pf - pa)),
            "progress": progress.get(entry_id, []),
            "withdrawn": entry_id in data.withdrawn,
        }
    document = {
        "format": SNAPSHOT_FORMAT,
        "event": event.slug,
        "standings": standings.to_json(),
        "extra": extra,
        "places_that_matter": places,
        "unbroken_ties": unbroken_ties(standings, places) if places else [],
        "rounds": sorted({r.round_number for r in data.results if r.kind != "tiebreak"}),
        "tiebreak_rounds": sorted({r.round_number for r in data.results if r.kind == "tiebreak"}),
    }
    return document, standings


def canonical_bytes(document: dict[str, Any]) -> bytes:
    """Canonical JSON (sorted keys, no whitespace, no floats): equal documents, equal bytes."""
    return json.dumps(
        document, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


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
    for entry in sorted(data.entries, key=lambda e: str(e.entry_id).zfill(20)):
        digest.update(f"\ne{entry.entry_id}\t{entry.name}".encode())
    lines = sorted(
        f"\nr{r.match_id}\t{r.round_number}\t{r.kind}\t{r.entry_a}\t{r.entry_b}"
        f"\t{r.score_a}\t{r.score_b}\t{r.winner}\t{r.forfeit}"
        for r in data.results
    )
    digest.update("".join(lines).encode())
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
