"""What a standings recompute computes from what it reads (``standings_input``: the event's
records, its points setting and tiebreak list): the standings, the canonical snapshot document
and its fingerprint, and the computations kept per process. The match-points arithmetic is the
standings package's alone (:func:`points_config` feeds it).
"""

from __future__ import annotations

import gc
import hashlib
import logging
import threading
from bisect import bisect_left, insort
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from itertools import accumulate
from operator import itemgetter
from typing import Any, NamedTuple

from django.db.models import Max
from django.utils import timezone

from tournaments.models import (
    MatchResult,
    StandingsRecompute,
)
from tournaments.selectors.standings_input import (
    SNAPSHOT_FORMAT,
    ResultRow,
    StandingsInput,
    load_standings_input,
    places_that_matter,
    points_config,
    records_by_row,
    tiebreak_list,
)
from tournaments.standings import Entry as StandingsEntry
from tournaments.standings import (
    EntryTally,
    Number,
    Standings,
    unbroken_ties,
)
from tournaments.standings import Result as StandingsResult
from tournaments.standings.compute import rows_json
from tournaments.standings.incremental import Computation, compute
from tournaments.standings.multiplayer import (
    PlacingPoints,
    TableResult,
    TableTally,
    placings,
    table_points,
)
from tournaments.standings.records import normalise
from tournaments.standings.serialise import canonical_json, encode_number

logger = logging.getLogger(__name__)


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


def compute_standings_of(data: StandingsInput, previous: Computation | None = None) -> Computation:
    """The event's standings from its records, reusing ``previous`` (an earlier computation of
    the same event) where the results did not change: the same standings either way."""
    event = data.event
    return compute(
        data.entries,
        data.results,
        points=points_config(event),
        tiebreaks=tiebreak_list(event),
        previous=previous,
        tables=data.tables,
        placing=data.placing,
    )


def build_document(
    data: StandingsInput,
    computation: Computation | None = None,
    extras: RowExtras | None = None,
    rows: list[dict[str, Any]] | None = None,
) -> tuple[dict[str, Any], Standings]:
    """The snapshot document: the standings package's canonical JSON under ``standings``, and
    per row what the pages and the CSV show beside it (points for and against, spread, the
    match-points progression, withdrawn), the places that matter and the ties across them.

    ``computation``: the standings of ``data`` (:func:`compute_standings_of`); ``extras``: its
    rows' extras (:func:`row_extras`); ``rows``: its rows' JSON (``standings.compute.rows_json``);
    each made here when not given. The extras read the computation's tally: the results are
    tallied once."""
    event = data.event
    if computation is None:
        computation = compute_standings_of(data)
    counted, standings = computation.tally, computation.standings
    places = places_that_matter(event)
    if extras is None:
        extras = row_extras(computation, data.withdrawn)
    rounds: set[int] = set().union(*(record.rounds for record in counted.entries.values()))
    document: dict[str, Any] = {
        "format": SNAPSHOT_FORMAT,
        "event": event.slug,
        "standings": standings.to_json(rows),
        "extra": {key: extra for key, (_, _, extra) in extras.items()},
        "places_that_matter": places,
        "unbroken_ties": unbroken_ties(standings, places) if places else [],
        "rounds": sorted(rounds),
        "tiebreak_rounds": sorted({r.round_number for r in counted.tiebreak_results}),
    }
    if data.tables:  # an individual event at tables of many: each table, its seats and places
        document.update(tables_document(data.tables, data.placing or PlacingPoints()))
        at_tables = entry_placings(data.tables)
        document["extra"] = {
            key: {**extra, "placings": at_tables.get(key, [])}
            for key, extra in document["extra"].items()
        }
    return document, standings


def entry_placings(tables: Sequence[TableResult]) -> dict[str, list[list[int]]]:
    """Each entry's places at its tables of many, ``[[round, place, players], ...]`` in round
    order, by entry id as text (the document's key)."""
    out: dict[str, list[list[int]]] = {}
    for t in sorted(tables, key=lambda t: (t.round_number, t.match_id)):
        place = placings(t)
        for e in t.seats:
            out.setdefault(str(e), []).append([t.round_number, place[e], len(t.seats)])
    return out


def tables_document(tables: Sequence[TableResult], placing: PlacingPoints) -> dict[str, Any]:
    """The snapshot's account of the tables of many: the placing points setting and, by match id,
    each table's round, entries in seat order, scores (raw, exact), placings and match points
    (:func:`~tournaments.standings.multiplayer.placings` and ``table_points``). Only in the
    document of an event that has such tables."""
    enc = encode_number
    out: dict[str, Any] = {}
    for t in sorted(tables, key=lambda t: (t.round_number, t.match_id)):
        place = placings(t)
        gained = table_points(t, placing)
        out[str(t.match_id)] = {
            "round": t.round_number,
            "seats": list(t.seats),
            "scores": [s if type(s) is int else enc(s) for s in t.scores],
            "placings": [place[e] for e in t.seats],
            "points": [gained[e] if type(gained[e]) is int else enc(gained[e]) for e in t.seats],
        }
    setting: dict[str, Any] = (
        {"proportional": enc(placing.proportional)}
        if placing.proportional is not None
        else {str(size): [enc(p) for p in points] for size, points in placing.places}
    )
    return {"placing_points": setting, "tables": out}


RowExtras = dict[str, tuple[EntryTally, bool, dict[str, Any]]]
"""Each row's extras by entry id (as text, the document's key), with the record and the
withdrawn mark they were made from."""


def row_extras(
    computation: Computation, withdrawn: frozenset[int], known: RowExtras | None = None
) -> RowExtras:
    """Each row's extras, in standings order: points for and against, spread, the per-round
    progress, withdrawn. Those in ``known`` made from the same record (the very same object:
    a recompute keeps the records its changes cannot move) and mark are kept as they are."""
    records, enc = computation.tally.entries, encode_number
    # every award an int: not so at tables of many (shared places, points in proportion)
    whole = computation.tally.points.whole and not isinstance(computation.tally, TableTally)
    extras: RowExtras = {}
    for row in computation.standings.rows:
        record = records[row.entry_id]
        entry_id = int(row.entry_id)
        key, out = str(entry_id), entry_id in withdrawn
        hit = known.get(key) if known else None
        if hit is not None and hit[0] is record and hit[1] is out:
            extras[key] = hit
            continue
        pf, pa = record.points_for, record.points_against
        extra = {
            "points_for": pf if type(pf) is int else enc(pf),
            "points_against": pa if type(pa) is int else enc(pa),
            "spread": pf - pa if type(pf) is int and type(pa) is int else enc(normalise(pf - pa)),
            "progress": _progress(record, whole) if record.rounds else [],
            "withdrawn": out,
        }
        extras[key] = (record, out, extra)
    return extras


def canonical_bytes(document: dict[str, Any]) -> bytes:
    """Canonical JSON (sorted keys, no whitespace, no floats): equal documents, equal bytes
    (the standings package's :func:`~tournaments.standings.serialise.canonical_json`)."""
    return canonical_json(document)


RESULT_LINE = "\nr%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s"
"""A result's line in the fingerprint: its nine fields in order (``Result`` is a named tuple, so
``RESULT_LINE % result`` formats it, in C)."""


@dataclass(frozen=True)
class ResultLines:
    """The fingerprint's result lines (:data:`RESULT_LINE`): by match id, and all of them sorted
    (what the fingerprint hashes)."""

    by_match: dict[Any, str]
    ordered: list[str]


def result_lines(
    data: StandingsInput,
    previous: ResultLines | None = None,
    computation: Computation | None = None,
) -> ResultLines:
    """The lines of ``data.results``; from ``previous`` (the lines of an earlier read) when
    ``computation`` (the standings of ``data``) names every match id whose result was added,
    altered or removed since (``Computation.changed``)."""
    changed = computation.changed if computation is not None else None
    if previous is None or computation is None or changed is None:
        results = data.results
        formatted = map(RESULT_LINE.__mod__, results)
        by_match = dict(zip(map(_match_id, results), formatted, strict=True))
        return ResultLines(by_match, sorted(by_match.values()))
    by_match, ordered = dict(previous.by_match), list(previous.ordered)
    now = computation.tally.results_by_id
    for match_id in changed:
        old = by_match.pop(match_id, None)
        if old is not None:
            del ordered[bisect_left(ordered, old)]
        result = now.get(match_id)
        if result is not None:
            line = by_match[match_id] = RESULT_LINE % result
            insort(ordered, line)
    return ResultLines(by_match, ordered)


_match_id = itemgetter(0)  # a Result's match_id


def input_fingerprint(
    data: StandingsInput, lines: ResultLines | None = None, entry_lines: bytes | None = None
) -> str:
    """SHA-256 of the records a recompute read, order-independent: ``computed_from``
    (``lines``, ``entry_lines``: :func:`result_lines` and :func:`entry_lines` of ``data``, made
    here when not given)."""
    event = data.event
    digest = hashlib.sha256()
    settings = {
        "points": Standings(points_config(event), (), ()).to_json()["points"],
        "tiebreaks": tiebreak_list(event),
        "places": places_that_matter(event),
        "withdrawn": sorted(data.withdrawn),
    }
    digest.update(canonical_bytes(settings))
    digest.update(entry_lines if entry_lines is not None else _entry_lines(data.entries))
    digest.update("".join((lines or result_lines(data)).ordered).encode())
    if data.tables:  # tables of many: their records and the placing points setting
        digest.update(
            canonical_bytes(tables_document(data.tables, data.placing or PlacingPoints()))
        )
    return digest.hexdigest()


def _entry_lines(entries: Iterable[StandingsEntry]) -> bytes:
    """The fingerprint's lines of the entries."""
    ordered = sorted(entries, key=lambda e: str(e.entry_id).zfill(20))
    return "".join([f"\ne{e.entry_id}\t{e.name}" for e in ordered]).encode()


@dataclass(frozen=True)
class RecentRecompute:
    """What this process's last recompute of an event computed, for the next one to reuse."""

    computation: Computation
    lines: ResultLines
    entry_lines: bytes
    extras: RowExtras
    records: dict[ResultRow, StandingsResult] = field(default_factory=dict)
    """The records by the rows they were made from (:func:`records_by_row`)."""
    rows: dict[Any, tuple[Any, dict[str, Any]]] = field(default_factory=dict)
    """The standings rows and their JSON by entry id (``standings.compute.rows_json``)."""


RECENT_EVENTS = 8
"""How many events' last recomputes a process keeps (a 2,000-entry event's: a few megabytes)."""

_recent: dict[int, RecentRecompute] = {}
_recent_lock = threading.Lock()


class ComputedSnapshot(NamedTuple):
    """A computed snapshot: its canonical bytes, the fingerprint of its input records, and the
    last round it counts a result of (0: none; ``StandingsSnapshot.round_number``)."""

    data: bytes
    fingerprint: str
    round_number: int


def covered_round(document: dict[str, Any]) -> int:
    """The last round (Swiss or tiebreak) a snapshot document counts a result of; 0 for none."""
    return max([*document.get("rounds", []), *document.get("tiebreak_rounds", [])], default=0)


def compute_snapshot_bytes(*, event_id: int) -> tuple[bytes, str]:
    """:func:`compute_snapshot`'s ``(canonical bytes, fingerprint)``."""
    snapshot = compute_snapshot(event_id=event_id)
    return snapshot.data, snapshot.fingerprint


def compute_snapshot(*, event_id: int) -> ComputedSnapshot:
    """Load the event's records and compute its snapshot (:class:`ComputedSnapshot`).

    The standings and the fingerprint reuse this process's last recompute of the event where the
    results did not change (``tournaments.standings.incremental``: the same bytes as from
    scratch, whatever that recompute was). The cyclic garbage collector is paused meanwhile: the
    records and the document are tens of thousands of short-lived, acyclic objects (reference
    counting frees them), and collections passing over them took about a third of the time
    (benchmarks/standings/RESULTS.md).
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        with _recent_lock:
            recent = _recent.get(event_id)
        data = load_standings_input(event_id=event_id, known=recent.records if recent else None)
        computation = compute_standings_of(data, recent.computation if recent else None)
        extras = row_extras(computation, data.withdrawn, recent.extras if recent else None)
        row_json, rows = rows_json(computation.standings.rows, recent.rows if recent else None)
        document, _ = build_document(data, computation, extras, row_json)
        lines = result_lines(data, recent.lines if recent else None, computation)
        same_entries = recent is not None and recent.computation.entries is computation.entries
        entries = recent.entry_lines if recent and same_entries else _entry_lines(data.entries)
        with _recent_lock:
            _recent.pop(event_id, None)
            _recent[event_id] = RecentRecompute(
                computation,
                lines,
                entries,
                extras,
                records_by_row(data, recent.records if recent else None),
                rows,
            )
            evicted = len(_recent) > RECENT_EVENTS
            while len(_recent) > RECENT_EVENTS:
                del _recent[next(iter(_recent))]
        snapshot = ComputedSnapshot(
            canonical_bytes(document),
            input_fingerprint(data, lines, entries),
            covered_round(document),
        )
        _keep_out_of_collections(cold=recent is None, evicted=evicted)
        return snapshot
    finally:
        if paused:
            gc.enable()


def _keep_out_of_collections(*, cold: bool, evicted: bool) -> None:
    """After a computation from scratch, the records kept for the next recompute (about 50,000
    objects for 2,000 entries, all alive) would be walked by the cyclic garbage collector once
    re-enabled: about 7 ms at the next young collection, more at each older one, up to 65 ms
    for a full one (benchmarks/standings/RESULTS.md). ``gc.freeze`` moves every object tracked
    now out of the collector's sight; the kept records are acyclic (reference counting frees
    them when a later recompute replaces them) and a recompute leaves no cyclic garbage, so what
    could stay frozen for nothing is the garbage cycles of the moment that the collector has not
    found yet. Once an event is dropped from the kept ones, everything is unfrozen again (the
    next full collection frees any such garbage), so freezing stays bounded."""
    if evicted:
        gc.unfreeze()
    elif cold:
        gc.freeze()


def remember_recent_events(*, within: timedelta) -> list[int]:
    """Compute and keep (as :func:`compute_snapshot_bytes` does) the standings of the events
    recomputed within ``within``, the most recent first, as many as a process keeps
    (:data:`RECENT_EVENTS`): a process's next recompute of any of them then starts from that
    computation instead of from scratch. The ids of the events kept, in that order. An event
    that cannot be computed (its records read while being changed, say) is logged and left out:
    its next recompute starts from scratch, as without this."""
    since = timezone.now() - within
    recent = list(
        StandingsRecompute.objects.filter(last_started_at__gte=since)
        .order_by("-last_started_at")
        .values_list("event_id", flat=True)[:RECENT_EVENTS]
    )
    kept: list[int] = []
    for event_id in reversed(recent):  # the most recent kept last (the last evicted)
        try:
            compute_snapshot_bytes(event_id=event_id)
        except Exception:
            logger.exception("the standings of event %s could not be computed ahead", event_id)
            continue
        kept.insert(0, event_id)
    return kept


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
