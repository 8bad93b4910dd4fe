"""What a standings recompute reads: the event's records for the standings package
(``tournaments.standings``) by two written-out queries, its points setting, tiebreak list and
places that matter, and its tables of many. ``standings_records`` computes from them and builds
the snapshot; the match-points arithmetic is the standings package's alone (:func:`points_config`
feeds it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import compress, repeat
from operator import eq
from typing import Any, cast

from django.db import connections, router

from tournaments import game
from tournaments.models import (
    Entry,
    Event,
    Match,
    MatchResult,
    Round,
    RoundSeat,
)
from tournaments.standings import Entry as StandingsEntry
from tournaments.standings import (
    Number,
    PointsConfig,
    RoundKind,
    applied_tiebreaks,
)
from tournaments.standings import Result as StandingsResult
from tournaments.standings.multiplayer import (
    PlacingPoints,
    TableResult,
)
from tournaments.standings.records import entries_from_columns

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
    """The event's ordered tiebreak names, match points first (the event lists what follows:
    ``standings.applied_tiebreaks``)."""
    return applied_tiebreaks(event.tiebreaks)


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
