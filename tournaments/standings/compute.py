"""Standings: the ordered table of entries, computed from plain records by a tiebreak list.

How the order is made (:func:`compute_standings`):

1. Only Swiss and round-robin results count (:class:`~tournaments.standings.records.RoundKind`);
   play-off results are ignored; tiebreak-round results are used in step 3 only.
2. All entries start as one group. For each name in the tiebreak list in turn, every group of two
   or more is ordered by that tiebreak and split where its values differ. A group tiebreak
   (``head_to_head``) sees exactly the group still tied at its place in the list.
3. **Settlement by tiebreak rounds** (extra games among entries tied after the whole list, at a
   place that matters; see :func:`unbroken_ties`): tiebreak rounds are applied one at a time, in
   round order, as final keys. A tiebreak round applies to a group still tied at that moment when
   every entry of the group took part in it *within the group* (played a match against another
   entry of the group, or had that round's bye); the group is then ordered by the match points
   each entry earned in that round (win, draw, loss, margin bonus and bye as in the main
   standings), and entries still equal stay tied for the next tiebreak round. A tiebreak round in
   which only some of a group took part does not decide that group: tiebreak rounds only order
   the entries that played them, never against one that did not. Results of a tiebreak round
   between entries of different groups are ignored.
4. Entries still tied share a rank (1, 2, 2, 4); among them rows are listed by ``entry_id``, for a
   stable display only.

The result depends only on the set of entries and results, never on their order, and serialises to
canonical bytes (:meth:`Standings.to_json_bytes`) for snapshots.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby, repeat
from operator import attrgetter
from typing import Any, NamedTuple

from tournaments.standings.multiplayer import PlacingPoints, TableResult, table_tally
from tournaments.standings.records import (
    Entry,
    EntryId,
    MatchId,
    Number,
    PointsConfig,
    Result,
    normalise,
)
from tournaments.standings.serialise import (
    canonical_json,
    decode_number,
    encode_number,
    encode_value,
)
from tournaments.standings.tallying import Tally, id_key, result_points, tally
from tournaments.standings.tiebreaks import Tiebreak, find_tiebreak

FORMAT = "spinner.standings/1"
"""The ``format`` field of the canonical JSON; bumped on any incompatible change."""

Value = Number | None
"""A tiebreak value: an exact number, or ``None`` where a group tiebreak did not apply."""


class StandingRow(NamedTuple):
    """One entry's line in the standings (an immutable record: a named tuple).

    - ``rank``: 1-based; entries still tied after the whole list (and the settlement) share it.
    - ``values``: one per name of :attr:`Standings.tiebreaks`, in that order (use
      :meth:`Standings.value` to read one by name). ``head_to_head`` is ``None`` where it did not
      apply (the entry was already separated, or its group had not all met).
    - ``settlement``: the match points earned in each tiebreak round that applied to this entry's
      group, in round order (``()`` when none did); ``settlement_match_ids`` are those rounds'
      matches (and byes) among the group.
    - ``match_ids``: the counted matches (and byes) that made this row, in round order.
    - ``played`` .. ``forfeits``: the entry's record over the counted rounds (a bye is not played).
    """

    rank: int
    entry_id: EntryId
    name: str
    match_points: Number
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    forfeits: int
    values: tuple[Value, ...]
    settlement: tuple[Number, ...]
    match_ids: tuple[MatchId, ...]
    settlement_match_ids: tuple[MatchId, ...]


@dataclass(frozen=True, slots=True)
class Standings:
    """The standings: the settings they were computed with and the rows, best first."""

    points: PointsConfig
    tiebreaks: tuple[str, ...]
    rows: tuple[StandingRow, ...]

    def value(self, row: StandingRow, name: str) -> Value:
        """``row``'s value for the tiebreak ``name`` (its first place in the list).

        Raises :class:`ValueError` when ``name`` is not in this event's list.
        """
        try:
            return row.values[self.tiebreaks.index(name)]
        except ValueError:
            raise ValueError(f"tiebreak {name!r} is not in this list: {self.tiebreaks}") from None

    def row(self, entry_id: EntryId) -> StandingRow:
        """The row of ``entry_id``; :class:`KeyError` when it is not in the standings."""
        for row in self.rows:
            if row.entry_id == entry_id:
                return row
        raise KeyError(entry_id)

    def to_json(self, rows: list[RowJson] | None = None) -> dict[str, Any]:
        """The canonical JSON document (plain dicts and lists; see :meth:`to_json_bytes`).

        ``rows``: the rows' JSON already made (:func:`rows_json` of :attr:`rows`), else made here.
        """
        p = self.points
        points: dict[str, Any] = {
            "win": encode_number(p.win),
            "draw": encode_number(p.draw),
            "loss": encode_number(p.loss),
            "bye": encode_number(p.bye),
            "margin_bonus": encode_number(p.margin_bonus),
            "margin_threshold": encode_number(p.margin_threshold),
        }
        if not p.forfeit_defaults:  # written only when set, so older snapshots keep their bytes
            points["forfeit_win"] = encode_number(p.forfeit_win)
            points["forfeit_loss"] = encode_number(p.forfeit_loss)
            points["double_forfeit"] = encode_number(p.double_forfeit)
            points["forfeit_spread"] = p.forfeit_spread
        return {
            "format": FORMAT,
            "points": points,
            "tiebreaks": list(self.tiebreaks),
            "rows": [_row_json(r) for r in self.rows] if rows is None else rows,
        }

    def to_json_bytes(self) -> bytes:
        """Canonical UTF-8 JSON: the same standings always give byte-identical output.

        Sorted keys, no whitespace, rows in standings order, whole numbers as JSON integers and
        every other exact number as a string (``"2.5"``, ``"1/3"``; see
        :mod:`tournaments.standings.serialise`). No floats, so nothing can drift.
        """
        return canonical_json(self.to_json())

    @classmethod
    def from_json_bytes(cls, data: bytes | str) -> Standings:
        """Read back what :meth:`to_json_bytes` wrote (e.g. a stored snapshot), exactly.

        Raises :class:`ValueError` on another format or a malformed document.
        """
        doc = json.loads(data)
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} document")
        try:
            p = doc["points"]
            points = PointsConfig(
                win=_number(p["win"]),
                draw=_number(p["draw"]),
                loss=_number(p["loss"]),
                bye=_number(p["bye"]),
                margin_bonus=_number(p["margin_bonus"]),
                margin_threshold=decode_number(p["margin_threshold"]),
                forfeit_win=decode_number(p.get("forfeit_win")),
                forfeit_loss=decode_number(p.get("forfeit_loss")),
                double_forfeit=decode_number(p.get("double_forfeit")),
                forfeit_spread=p.get("forfeit_spread", True),
            )
            rows = tuple(
                StandingRow(
                    rank=r["rank"],
                    entry_id=r["entry_id"],
                    name=r["name"],
                    match_points=_number(r["match_points"]),
                    played=r["played"],
                    wins=r["wins"],
                    draws=r["draws"],
                    losses=r["losses"],
                    byes=r["byes"],
                    forfeits=r["forfeits"],
                    values=tuple(decode_number(v) for v in r["values"]),
                    settlement=tuple(_number(v) for v in r["settlement"]),
                    match_ids=tuple(r["match_ids"]),
                    settlement_match_ids=tuple(r["settlement_match_ids"]),
                )
                for r in doc["rows"]
            )
            return cls(points=points, tiebreaks=tuple(doc["tiebreaks"]), rows=rows)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed {FORMAT} document: {exc!r}") from None


RowJson = dict[str, Any]
"""A row of :meth:`Standings.to_json`."""

KnownRows = Mapping[EntryId, tuple[StandingRow, RowJson]]
"""Rows and their JSON by entry id (:func:`rows_json`)."""


def rows_json(
    rows: Sequence[StandingRow], known: KnownRows | None = None
) -> tuple[list[RowJson], dict[EntryId, tuple[StandingRow, RowJson]]]:
    """The JSON of ``rows`` (what :meth:`Standings.to_json` writes for them, in order), and each
    row with its JSON by entry id, for the next call's ``known``.

    A row equal in every field to the one ``known`` for its entry takes that row's JSON; equal
    but for the rank, that JSON with the rank replaced: a recompute after a few results changed
    leaves most rows as they were, or moved only. The JSON is shared, not copied: treat it as
    read-only.
    """
    out: list[RowJson] = []
    by_entry: dict[EntryId, tuple[StandingRow, RowJson]] = {}
    get = known.get if known else None
    for row in rows:
        hit = get(row[1]) if get is not None else None
        if hit is None or hit[0][1:] != row[1:]:
            made = _row_json(row)
        elif hit[0][0] == row[0]:
            made = hit[1]
        else:
            made = {**hit[1], "rank": row[0]}
        out.append(made)
        by_entry[row[1]] = (row, made)
    return out, by_entry


def _row_json(row: StandingRow) -> dict[str, Any]:
    """One row of :meth:`Standings.to_json` (this runs per row: no call for an int, no lookups)."""
    (rank, entry_id, name, match_points, played, wins, draws, losses, byes, forfeits) = row[:10]
    values, settlement, match_ids, settlement_match_ids = row[10:]
    enc = encode_number
    return {
        "rank": rank,
        "entry_id": entry_id,
        "name": name,
        "match_points": match_points if type(match_points) is int else enc(match_points),
        "played": played,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "byes": byes,
        "forfeits": forfeits,
        # ints (and None) are their own JSON: no call for them (this runs per value)
        "values": [v if v is None or type(v) is int else encode_value(v) for v in values],
        "settlement": [enc(v) for v in settlement] if settlement else [],
        "match_ids": list(match_ids),
        "settlement_match_ids": list(settlement_match_ids),
    }


def _number(value: object) -> Number:
    number = decode_number(value)
    if number is None:
        raise ValueError("a number is required here")
    return number


def resolve_tiebreaks(names: Sequence[str]) -> tuple[Tiebreak, ...]:
    """The tiebreaks for an ordered list of names, checked.

    Raises :class:`ValueError` for an unknown name (naming it), for a bare string instead of a list,
    and for a name listed twice (only ``head_to_head`` may repeat: listing it again re-applies it
    among the entries it left tied).
    """
    if isinstance(names, str):
        raise ValueError(f"tiebreaks must be a list of names, not the string {names!r}")
    resolved = tuple(find_tiebreak(name) for name in names)
    seen: set[str] = set()
    for t in resolved:
        if t.name in seen and t.group is None:
            raise ValueError(f"tiebreak {t.name!r} is listed twice")
        seen.add(t.name)
    return resolved


def _split(
    group: list[EntryId], key: Callable[[EntryId], Value], higher_is_better: bool
) -> list[list[EntryId]]:
    """Order ``group`` (already in ``entry_id`` order) by ``key`` and cut it where values differ.

    ``None`` values (a group tiebreak that did not apply) never separate: a group whose values
    are all equal, or all ``None``, comes back whole.
    """
    values = list(map(key, group))
    if values.count(values[0]) == len(values):
        return [group]
    # Stable sorts keep entry_id order among equal values (reverse=True is stable too).
    order = sorted(range(len(group)), key=values.__getitem__, reverse=higher_is_better)  # type: ignore[arg-type]
    return [list(map(group.__getitem__, run)) for _, run in groupby(order, values.__getitem__)]


def settle_by_tiebreak_rounds(
    groups: list[list[EntryId]],
    tiebreak_results: Sequence[Result],
    points: PointsConfig,
    settlement: dict[EntryId, list[Number]],
    settlement_ids: dict[EntryId, list[MatchId]],
) -> list[list[EntryId]]:
    """Apply tiebreak rounds, one at a time in round order, to the groups still tied.

    See step 3 of the module docstring for the rule. ``groups`` are in standings order, each in
    ``entry_id`` order; the refined groups are returned in the same shape. For every entry of a
    group a round applied to, the points it earned in that round are appended to
    ``settlement[entry]`` and the round's matches among the group to ``settlement_ids[entry]``.
    """
    by_round: dict[int, list[Result]] = {}
    for r in tiebreak_results:
        by_round.setdefault(r.round_number, []).append(r)
    for round_number in sorted(by_round):
        where: dict[EntryId, int] = {}
        for g, group in enumerate(groups):
            if len(group) > 1:
                for entry_id in group:
                    where[entry_id] = g
        # each group's results in this round: those with every entry inside the group
        inside: dict[int, list[Result]] = {}
        for r in by_round[round_number]:
            g = where.get(r.entry_a, -1)
            if g >= 0 and (r.entry_b is None or where.get(r.entry_b, -1) == g):
                inside.setdefault(g, []).append(r)
        if not inside:
            continue
        refined: list[list[EntryId]] = []
        for g, group in enumerate(groups):
            results = inside.get(g)
            if not results:
                refined.append(group)
                continue
            earned: dict[EntryId, Number] = {}
            for r in results:
                for side in (r.entry_a, r.entry_b):
                    if side is not None:
                        earned[side] = earned.get(side, 0) + result_points(r, side, points)
            if len(earned) < len(group):
                refined.append(group)  # not all of the group took part: this round does not decide
                continue
            used = [r.match_id for r in results]
            for entry_id in group:
                settlement.setdefault(entry_id, []).append(normalise(earned[entry_id]))
                settlement_ids.setdefault(entry_id, []).extend(used)
            refined.extend(_split(group, earned.__getitem__, True))
        groups = refined
    return groups


def compute_standings(
    entries: Iterable[Entry],
    results: Iterable[Result | TableResult],
    *,
    points: PointsConfig,
    tiebreaks: Sequence[str],
    placing: PlacingPoints | None = None,
) -> Standings:
    """Compute the standings of ``entries`` from ``results`` (see the module docstring).

    ``tiebreaks`` is the event's ordered list of names from
    :data:`~tournaments.standings.tiebreaks.TIEBREAKS` (normally starting with ``match_points``).
    Raises :class:`ValueError` for an unknown tiebreak name (naming it), duplicate entry or match
    ids, or a result naming an unknown entry. Every entry gets a row, with or without results.
    Results may include tables of many (:class:`~tournaments.standings.multiplayer.TableResult`),
    scored by ``placing`` (default 4/2/1/0, 4/2/0, 2/0; see
    :mod:`~tournaments.standings.multiplayer`); without any, the computation is the two-entry
    one, unchanged.

    >>> from tournaments.standings.records import Entry, Result
    >>> s = compute_standings(
    ...     [Entry(1, "Ann"), Entry(2, "Bo"), Entry(3, "Cy")],
    ...     [Result(10, 1, "swiss", 1, 2, 305, 120, winner=1), Result(11, 1, "swiss", 3, None, 0, 0, None)],
    ...     points=PointsConfig(win=2, loss=0, bye=2),
    ...     tiebreaks=["match_points", "spread"],
    ... )
    >>> [(r.rank, r.entry_id, r.values) for r in s.rows]
    [(1, 1, (2, 185)), (2, 3, (2, 0)), (3, 2, (0, -185))]
    """  # noqa: E501
    specs = resolve_tiebreaks(tiebreaks)
    entry_list = list(entries)
    result_list = list(results)
    t: Tally
    if placing is not None or any(issubclass(k, TableResult) for k in set(map(type, result_list))):
        # tables of many (see multiplayer); two-entry results inside are tallied as by tally()
        t = table_tally(entry_list, result_list, points, placing or PlacingPoints())
    else:
        t = tally(entry_list, result_list, points)  # type: ignore[arg-type]
    return _standings(t, dict(entry_list), specs)


def standings_from_tally(
    t: Tally, entries: Iterable[Entry], *, tiebreaks: Sequence[str]
) -> Standings:
    """The standings from a tally already made: ``compute_standings(entries, results, ...)`` is
    ``standings_from_tally(tally(entries, results, points), entries, tiebreaks=...)``.

    For a caller that reads the tally too (the recompute's per-round progress), so the results
    are tallied once. ``entries`` are those the tally was made from.
    """
    return _standings(t, dict(entries), resolve_tiebreaks(tiebreaks))


def _standings(
    t: Tally,
    names: Mapping[EntryId, str],
    specs: Sequence[Tiebreak],
    columns: Sequence[Mapping[EntryId, Value] | None] | None = None,
) -> Standings:
    """The standings from a tally: ``columns`` are the entry tiebreaks' (see
    :func:`entry_columns`; computed here when not given)."""
    if columns is None:
        columns = entry_columns(t, specs)
    full, groups = _order_by_tiebreaks(t, specs, columns)
    settlement: dict[EntryId, list[Number]] = {}
    settlement_ids: dict[EntryId, list[MatchId]] = {}
    if t.tiebreak_results:
        groups = settle_by_tiebreak_rounds(
            groups, t.tiebreak_results, t.points, settlement, settlement_ids
        )
    rows = _rows(t, names, full, groups, settlement, settlement_ids)
    return Standings(points=t.points, tiebreaks=tuple(s.name for s in specs), rows=tuple(rows))


def entry_columns(
    t: Tally,
    specs: Sequence[Tiebreak],
    only: Iterable[EntryId] | None = None,
    previous: Sequence[Mapping[EntryId, Value] | None] | None = None,
) -> list[dict[EntryId, Value] | None]:
    """Each entry tiebreak's value for every entry, ``{entry_id: value}`` per tiebreak of
    ``specs`` (``None`` for a group tiebreak, whose values depend on the groups).

    With ``previous`` (columns of the same tiebreaks over an earlier tally of the same entries),
    only the entries in ``only`` are computed again; the rest keep their previous values.
    """
    records = t.entries
    columns: list[dict[EntryId, Value] | None] = []
    for i, spec in enumerate(specs):
        function = spec.entry
        if function is None:
            columns.append(None)
        elif previous is not None and only is not None:
            column = dict(previous[i] or {})
            for entry_id in only:
                column[entry_id] = function(t, records[entry_id])
            columns.append(column)
        elif spec.field:  # the function reads this field: read the column in one pass, in C
            read = map(attrgetter(spec.field), records.values())
            columns.append(dict(zip(records, read, strict=True)))
        else:
            columns.append({entry_id: function(t, rec) for entry_id, rec in records.items()})
    return columns


def _order_by_tiebreaks(
    t: Tally, specs: Sequence[Tiebreak], entry_values: Sequence[Mapping[EntryId, Value] | None]
) -> tuple[list[Mapping[EntryId, Value]], list[list[EntryId]]]:
    """Apply the tiebreaks in order: one column per tiebreak (``{entry_id: value}``: the entry
    tiebreaks' ``entry_values``; a group tiebreak's column fills in group by group, within the
    groups still tied), and the groups of entries still tied after the last one, best first."""
    records = t.entries
    columns: list[Mapping[EntryId, Value]] = [
        dict.fromkeys(records) if column is None else column for column in entry_values
    ]
    # entry_id order (ints before strs when an event mixes them; a plain sort when it does not)
    mixed = len({type(e) for e in records}) > 1
    first: list[EntryId] = sorted(records, key=id_key) if mixed else sorted(records)
    groups: list[list[EntryId]] = [first] if records else []
    for column, spec in zip(columns, specs, strict=True):
        if len(groups) == len(records):
            break  # every entry is apart: nothing left to order
        group_function = spec.group
        key = column.__getitem__
        next_groups: list[list[EntryId]] = []
        for group in groups:
            if len(group) == 1:
                next_groups.append(group)
                continue
            if group_function is not None:
                column.update(group_function(t, group))  # type: ignore[attr-defined]
            next_groups.extend(_split(group, key, spec.higher_is_better))
        groups = next_groups
    return columns, groups


def _rows(
    t: Tally,
    names: Mapping[EntryId, str],
    columns: Sequence[Mapping[EntryId, Value]],
    groups: Sequence[Sequence[EntryId]],
    settlement: Mapping[EntryId, list[Number]],
    settlement_ids: Mapping[EntryId, list[MatchId]],
) -> list[StandingRow]:
    """One row per entry in final order; entries in one group share its best rank (1, 2, 2, 4)."""
    records = t.entries
    order = [entry_id for group in groups for entry_id in group]
    ranks: list[int] = []
    for group in groups:
        ranks.extend([len(ranks) + 1] * len(group))
    # each row's values, column by column (zip builds the tuples in C: this runs per row)
    by_column = [[c[e] for e in order] for c in columns]
    value_rows = zip(*by_column, strict=True) if columns else repeat(())
    empty: tuple[Any, ...] = ()
    rows: list[StandingRow] = []
    for rank, entry_id, values in zip(ranks, order, value_rows, strict=False):
        rec = records[entry_id]
        settled = settlement.get(entry_id)
        rows.append(
            _new_row(  # the fields in declaration order (see StandingRow), unchecked: made here
                StandingRow,
                (
                    rank,
                    entry_id,
                    names[entry_id],
                    *rec[1:8],  # match_points, played, wins, draws, losses, byes, forfeits
                    values,
                    empty if settled is None else tuple(settled),
                    rec.match_ids,
                    empty if settled is None else tuple(settlement_ids[entry_id]),
                ),
            )
        )
    return rows


_new_row = tuple.__new__


def unbroken_ties(standings: Standings, places: Iterable[int]) -> list[list[EntryId]]:
    """The groups of entries still tied across a place that matters, best group first.

    Place ``p`` matters when who finishes ``p``-th rather than ``p+1``-th matters: the play-off cut
    at 8 is ``places=[8]``; the podium is ``places=[1, 2, 3]``. A group of entries sharing a rank
    ``r`` occupies places ``r`` to ``r + size - 1``; it is returned when some ``p`` in ``places``
    satisfies ``r <= p < r + size - 1``. Each group is listed once, its entries in row order.
    Places beyond the last row match nothing. Raises :class:`ValueError` for a place below 1.

    >>> from tournaments.standings.records import PointsConfig
    >>> rows = [(1, "a"), (2, "b"), (2, "c"), (4, "d"), (4, "e")]
    >>> s = Standings(PointsConfig(), (), tuple(
    ...     StandingRow(r, e, "", 0, 0, 0, 0, 0, 0, 0, (), (), (), ()) for r, e in rows))
    >>> unbroken_ties(s, [1, 2, 3]), unbroken_ties(s, [3]), unbroken_ties(s, [4])
    ([['b', 'c']], [], [['d', 'e']])
    """
    wanted = sorted(set(places))
    for p in wanted:
        if type(p) is not int or p < 1:
            raise ValueError(f"a place must be an int >= 1, not {p!r}")
    out: list[list[EntryId]] = []
    rows = standings.rows
    listed = -1  # the last row of the last group listed
    for p in wanted:
        # places p and p + 1 in one group: rows p - 1 and p share a rank (ranks only grow)
        if p >= len(rows) or p - 1 <= listed or rows[p - 1].rank != rows[p].rank:
            continue
        start, end, rank = p - 1, p, rows[p].rank
        while start > 0 and rows[start - 1].rank == rank:
            start -= 1
        while end + 1 < len(rows) and rows[end + 1].rank == rank:
            end += 1
        listed = end
        out.append([r.entry_id for r in rows[start : end + 1]])
    return out
