"""What a standings recompute reads and computes: the event's records for the standings package
(``tournaments.standings``), its points setting and tiebreak list, and the canonical snapshot
document built from them. The match-points arithmetic is the standings package's alone
(:func:`points_config` feeds it).
"""

from __future__ import annotations

import gc
import hashlib
import logging
import threading
from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import timedelta
from fractions import Fraction
from itertools import accumulate, compress, repeat
from operator import eq, itemgetter
from typing import Any, cast

from django.db import connections, router
from django.db.models import Max
from django.utils import timezone

from tournaments import game
from tournaments.models import (
    Entry,
    Event,
    Match,
    MatchResult,
    Round,
    RoundSeat,
    StandingsRecompute,
)
from tournaments.standings import Entry as StandingsEntry
from tournaments.standings import (
    EntryTally,
    Number,
    PointsConfig,
    RoundKind,
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
from tournaments.standings.records import entries_from_columns, normalise
from tournaments.standings.serialise import canonical_json, encode_number

logger = logging.getLogger(__name__)

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
    """Everything a recompute reads, as plain records: ``tables`` are the tables of many of an
    individual event (three or four players), scored by ``placing``; none elsewhere."""

    event: Event
    entries: list[StandingsEntry]
    withdrawn: frozenset[int]
    results: list[StandingsResult]
    tables: list[TableResult] = field(default_factory=list)
    placing: PlacingPoints | None = None
    rows: list[ResultRow] = field(default_factory=list)
    """The results query's rows ``results`` were made from, in the same order (with tables of
    many, before those were set aside)."""
    made: list[int] | None = None
    """Where in ``rows`` the records made by this read are (the others were ``known``); None:
    all of them."""


ResultRow = tuple[Any, ...]
"""A row of :func:`results_sql`: what one record of the results is made from, and all of it."""


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


def results_sql() -> str:
    """Every counted result or bye of an event, one row per match (see
    :func:`load_standings_input`): the ORM's query, written out once, since building the
    queryset cost more than the database took to answer it (benchmarks/standings/RESULTS.md)."""
    return (
        "SELECT m.id, r.number, r.kind, m.entry_a_id, m.entry_b_id, c.score_a_halves,"
        " c.score_b_halves, c.winner_side, c.forfeit"
        f" FROM {Match._meta.db_table} m"
        f" JOIN {Round._meta.db_table} r ON r.id = m.round_id"
        f" LEFT JOIN {MatchResult._meta.db_table} c ON c.match_id = m.id AND c.is_current"
        f" WHERE r.event_id = %s AND r.kind IN ({', '.join(['%s'] * len(COUNTED_KINDS))})"
        f" AND ((m.is_bye AND r.status IN ({', '.join(['%s'] * len(PLAYED_STATUSES))}))"
        " OR c.id IS NOT NULL)"
    )


def entries_sql() -> str:
    """An event's entries in id order: id, name, status (written out, as :func:`results_sql`)."""
    return f"SELECT id, name, status FROM {Entry._meta.db_table} WHERE event_id = %s ORDER BY id"


def load_standings_input(
    *, event_id: int, known: Mapping[ResultRow, StandingsResult] | None = None
) -> StandingsInput:
    """Read the event, its entries and every counted result or bye (three queries).

    A result is a match's current confirmed ``MatchResult``; a bye (a match without
    ``entry_b``: the database ties the two) counts once its round is published. Scores are exact
    (stored as half-points). Rows come as plain tuples (no model instance), unordered (the
    standings package orders them), straight into the records. ``known``: records made from
    rows of an earlier read (:func:`records_by_row`); a row read again, the same in every
    field, gives that very record (a record is made from its row alone) instead of a new one.
    """
    event = Event.objects.get(pk=event_id)
    with connections[router.db_for_read(Match)].cursor() as cursor:
        # in a fixed order: the next recompute reuses this one's only for the same entries
        cursor.execute(entries_sql(), [event_id])
        entry_rows = cursor.fetchall()
        cursor.execute(results_sql(), [event_id, *COUNTED_KINDS, *PLAYED_STATUSES])
        rows = cursor.fetchall()
    ids, names, statuses = zip(*entry_rows, strict=True) if entry_rows else ((), (), ())
    entries = entries_from_columns(ids, names)
    withdrawn = frozenset(compress(ids, map(eq, statuses, repeat(Entry.Status.WITHDRAWN))))
    made: list[int] | None = None
    if known:
        # in C, by the whole row; then the rows not known (the changed results) made one by one
        found: list[StandingsResult | None] = list(map(known.get, rows))
        made, at = [], -1
        with suppress(ValueError):  # no further row not known
            while True:
                at = found.index(None, at + 1)
                found[at] = _records([rows[at]])[0]
                made.append(at)
        results = cast(list[StandingsResult], found)
    else:
        results = _records(rows)
    tables: list[TableResult] = []
    if event.entry_kind == Event.EntryKind.SINGLE:  # tables of many: individual events only
        tables = load_tables_of_many(event_id)
        if tables:
            at_tables = {t.match_id for t in tables}
            results = [r for r in results if r.match_id not in at_tables]
    return StandingsInput(
        event=event,
        entries=entries,
        withdrawn=withdrawn,
        results=results,
        tables=tables,
        placing=game.placing_points(event) if tables else None,
        rows=rows,
        made=made,
    )


def _records(rows: Iterable[ResultRow]) -> list[StandingsResult]:
    """The records of :func:`results_sql`'s rows, in order."""
    kinds = ROUND_KINDS
    return [
        StandingsResult(pk, number, kinds[kind], a, None, 0, 0, None)
        if b is None
        else StandingsResult(
            pk,
            number,
            kinds[kind],
            a,
            b,
            # exact raw points from half-points (never null on a result): whole almost always
            score_a // 2 if not score_a & 1 else Fraction(score_a, 2),
            score_b // 2 if not score_b & 1 else Fraction(score_b, 2),
            a if winner_side == 0 else b if winner_side == 1 else None,
            bool(forfeit),
        )
        for pk, number, kind, a, b, score_a, score_b, winner_side, forfeit in rows
    ]


def records_by_row(
    data: StandingsInput, known: dict[ResultRow, StandingsResult] | None = None
) -> dict[ResultRow, StandingsResult]:
    """Each record of ``data`` by the row it was made from (for :func:`load_standings_input`'s
    ``known``); none with tables of many (their rows and records do not pair up).

    With ``known`` (what ``data`` was read with): that dict, the records ``data`` made added.
    A row no longer read stays in it (a record is made from its row alone: it is right again if
    the row comes back) until the rows not read are a quarter of those read; then the dict is
    made afresh."""
    rows, results = data.rows, data.results
    if data.tables or len(rows) != len(results):
        return {}
    made = data.made
    if known is None or made is None or len(known) + len(made) > len(rows) * 5 // 4 + 64:
        return dict(zip(rows, results, strict=True))
    for at in made:
        known[rows[at]] = results[at]
    return known


TABLE_KINDS = ("swiss", "round_robin")
"""Round kinds whose tables of many the standings count (the standings package settles tiebreak
rounds between two entries only)."""


def load_tables_of_many(event_id: int) -> list[TableResult]:
    """Each confirmed table of many of the event (``Match.table_entries`` 3 or 4) as the
    standings package's :class:`TableResult`: its entries in seat order and every seat's final
    score, exact from the stored half-points. One query, and a second only when there is one."""
    rows = list(
        MatchResult.objects.filter(
            is_current=True,
            match__round__event_id=event_id,
            match__table_entries__gt=2,
            match__round__kind__in=TABLE_KINDS,
        ).values_list("match_id", "match__round__number", "match__round__kind", "scores_halves")
    )
    if not rows:
        return []
    seats: dict[int, list[int]] = {}
    for match_id, entry_id in (
        RoundSeat.objects.filter(match_id__in=[r[0] for r in rows])
        .order_by("match_id", "side")
        .values_list("match_id", "entry_id")
    ):
        seats.setdefault(match_id, []).append(entry_id)
    return [
        TableResult(
            match_id,
            number,
            ROUND_KINDS[kind],
            tuple(seats[match_id]),
            tuple(_exact(h) for h in halves or ()),
        )
        for match_id, number, kind, halves in rows
    ]


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


def compute_snapshot_bytes(*, event_id: int) -> tuple[bytes, str]:
    """Load the event's records and compute its snapshot: ``(canonical bytes, fingerprint)``.

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
        snapshot = canonical_bytes(document), input_fingerprint(data, lines, entries)
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
