"""Results of tables of three or four players (or more than two entries): placings, match points,
and the tally the standings read.

A :class:`TableResult` is one table of a round: its entries in seat order and each one's final
score (raw points, exact). From it:

**Placings** (:func:`placings`): by final score, highest first. The rules end a game the moment
one entity is *uniquely* highest at or above the target (All Fives, 7-tile Five-Up), or after a
settled hand (Five-Up), so the winner never shares first place in a finished game; below the
winner the rules rank nobody, and Spinner ranks by final score. Equal scores share a place, and
the next place is skipped ("competition ranking": 1, 2, 2, 4): two players tied on the
second-highest score are both 2nd, and the last is 4th. A game ended by time may leave a tie at
the top: both are 1st. When the result names its ``winner``, that entry must be the unique
highest score.

**Match points** (:class:`PlacingPoints`, an event setting): either *by placing*, a list per table
size (default 4/2/1/0 at a table of four, 4/2/0 at three, 2/0 at two), where entries sharing places
share the points of those places equally (tied 2nd at a table of four with 4/2/1/0: (2 + 1) / 2 =
3/2 each, kept exactly); or *in proportion to score* (``proportional=T``): each entry gets
``T * own score / sum of the table's scores`` (``T / size`` each when every score is 0). A bye is
worth ``PointsConfig.bye`` as for two-entry events.

**Record and tiebreaks** (:func:`table_tally`, read by every tiebreak of
:mod:`~tournaments.standings.tiebreaks` unchanged):

- *played*: tables (and two-entry matches); *wins*: sole first places; *draws*: shared first places;
  *losses*: the rest;
- *points for*: the entry's own scores; *points against*: at each table, the mean of the
  tablemates' scores (exact), so *spread* = own score minus the tablemates' mean, which is the
  two-player spread at a table of two;
- *opponents*: the two-entry opponents, then every tablemate, once per table, so Buchholz is
  "opponents' match points over all tablemates", median Buchholz drops the highest and lowest of
  those, opponents' win rate averages over them;
- *head-to-head* between two entries at a shared table: win, draw or loss points
  (``PointsConfig.win`` / ``draw`` / ``loss``) by which of the two scored more there.

Two-entry results (:class:`~tournaments.standings.records.Result`) may be mixed in (an event with
tables of two, byes, forfeits): they are tallied exactly as :func:`~tournaments.standings.tallying.
tally` does. Tables of tiebreak rounds are not supported (a ``ValueError``); play-off tables are
ignored, as play-off matches are.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tournaments.standings.records import (
    Entry,
    EntryId,
    MatchId,
    Number,
    PointsConfig,
    Result,
    RoundKind,
    is_exact,
    normalise,
)
from tournaments.standings.tallying import EntryTally, Tally, id_key, result_points, tally

DEFAULT_PLACES: Mapping[int, tuple[int, ...]] = {2: (2, 0), 3: (4, 2, 0), 4: (4, 2, 1, 0)}


@dataclass(frozen=True, slots=True)
class TableResult:
    """The confirmed result of one table: entries in seat order and their final scores."""

    match_id: MatchId
    round_number: int
    kind: RoundKind
    seats: tuple[EntryId, ...]
    scores: tuple[Number, ...]
    winner: EntryId | None = None

    def __post_init__(self) -> None:
        if type(self.kind) is not RoundKind:
            try:
                object.__setattr__(self, "kind", RoundKind(self.kind))
            except ValueError:
                raise ValueError(
                    f"table {self.match_id!r}: unknown round kind {self.kind!r}"
                ) from None
        where = f"table {self.match_id!r}"
        if type(self.round_number) is not int or self.round_number < 1:
            raise ValueError(f"{where}: round_number must be an int >= 1")
        if len(self.seats) < 2 or len(set(self.seats)) != len(self.seats):
            raise ValueError(f"{where}: needs two or more distinct entries")
        if len(self.scores) != len(self.seats):
            raise ValueError(f"{where}: one score per seat")
        if not all(is_exact(s) for s in self.scores):
            raise ValueError(f"{where}: scores must be ints or Fractions")
        object.__setattr__(self, "scores", tuple(normalise(s) for s in self.scores))
        if self.winner is not None:
            if self.winner not in self.seats:
                raise ValueError(f"{where}: winner {self.winner!r} is not at the table")
            top = max(self.scores)
            own = self.scores[self.seats.index(self.winner)]
            if own != top or self.scores.count(top) > 1:
                raise ValueError(f"{where}: the winner must have the unique highest score")


@dataclass(frozen=True, slots=True)
class PlacingPoints:
    """Match points at tables of many (an event setting): ``places`` by table size (points of
    1st, 2nd, ... place), or, when ``proportional`` is set, that many points per table shared in
    proportion to score."""

    places: tuple[tuple[int, tuple[Number, ...]], ...] = tuple(DEFAULT_PLACES.items())
    proportional: Number | None = None

    def __post_init__(self) -> None:
        for size, points in self.places:
            if len(points) != size or not all(is_exact(p) for p in points):
                raise ValueError(f"placing points for tables of {size}: {size} exact numbers")
        if self.proportional is not None and not is_exact(self.proportional):
            raise ValueError("proportional points must be an int or a Fraction")

    def for_size(self, size: int) -> tuple[Number, ...]:
        for s, points in self.places:
            if s == size:
                return points
        raise ValueError(f"no placing points for tables of {size}")


def placings(result: TableResult) -> dict[EntryId, int]:
    """Each entry's place (1 = best), equal scores sharing a place (1, 2, 2, 4).

    >>> placings(TableResult(1, 1, "swiss", ("a", "b", "c", "d"), (250, 120, 120, 45)))
    {'a': 1, 'b': 2, 'c': 2, 'd': 4}
    """
    return {
        e: 1 + sum(1 for other in result.scores if other > own)
        for e, own in zip(result.seats, result.scores, strict=True)
    }


def table_points(result: TableResult, setting: PlacingPoints) -> dict[EntryId, Number]:
    """Each entry's match points from one table (see the module docstring).

    >>> r = TableResult(1, 1, "swiss", ("a", "b", "c", "d"), (250, 120, 120, 45))
    >>> table_points(r, PlacingPoints())
    {'a': 4, 'b': Fraction(3, 2), 'c': Fraction(3, 2), 'd': 0}
    >>> table_points(r, PlacingPoints(proportional=10))["a"]
    Fraction(500, 107)
    """
    size = len(result.seats)
    if setting.proportional is not None:
        total = sum(result.scores)
        if total == 0:
            return {e: normalise(Fraction(setting.proportional, size)) for e in result.seats}
        return {
            e: normalise(Fraction(setting.proportional) * s / total)
            for e, s in zip(result.seats, result.scores, strict=True)
        }
    points = setting.for_size(size)
    place = placings(result)
    out: dict[EntryId, Number] = {}
    for e in result.seats:
        first = place[e]
        shared = sum(1 for p in place.values() if p == first)
        out[e] = normalise(Fraction(sum(points[first - 1 : first - 1 + shared]), shared))
    return out


@dataclass(frozen=True, slots=True)
class TableTally(Tally):
    """A :class:`Tally` that also holds tables; head-to-head reads them too."""

    tables_by_id: Mapping[MatchId, TableResult] = field(default_factory=dict)

    def meetings(self, entry_id: EntryId) -> dict[EntryId, Number]:
        """As :meth:`Tally.meetings`, plus, per shared table, win/draw/loss points by score."""
        earned: dict[EntryId, Number] = {}
        p = self.points
        for match_id in self.entries[entry_id].match_ids:
            table = self.tables_by_id.get(match_id)
            if table is None:
                r = self.results_by_id[match_id]
                other = r.entry_b if r.entry_a == entry_id else r.entry_a
                if other is not None:
                    earned[other] = normalise(earned.get(other, 0) + result_points(r, entry_id, p))
                continue
            own = table.scores[table.seats.index(entry_id)]
            for other, score in zip(table.seats, table.scores, strict=True):
                if other == entry_id:
                    continue
                got = p.win if own > score else p.draw if own == score else p.loss
                earned[other] = normalise(earned.get(other, 0) + got)
        return earned


def table_tally(
    entries: Iterable[Entry],
    results: Iterable[Result | TableResult],
    points: PointsConfig,
    placing: PlacingPoints,
) -> TableTally:
    """Tally two-entry results (as :func:`tally`) and tables together (see the module docstring).

    The outcome does not depend on input order.
    """
    entry_list = list(entries)
    pairs: list[Result] = []
    tables: list[TableResult] = []
    for r in results:
        if isinstance(r, TableResult):
            tables.append(r)
        else:
            pairs.append(r)
    base = tally(entry_list, pairs, points)
    counted = _counted_tables(base, tables)
    merged: Mapping[EntryId, EntryTally] = base.entries
    scale, scaled = base.win_rate_scale, base.scaled_win_rates
    if counted:  # without a table that counts, the two-entry tally stands as it is
        merged = _merge(base, _table_gains(counted, placing))
        scale, scaled = _win_rates(merged)
    return TableTally(
        entries=merged,
        tiebreak_results=base.tiebreak_results,
        points=points,
        win_rate_scale=scale,
        scaled_win_rates=scaled,
        results_by_id=base.results_by_id,
        tables_by_id={t.match_id: t for t in tables},
    )


def _counted_tables(base: Tally, tables: Sequence[TableResult]) -> list[TableResult]:
    """Check the tables against the two-entry tally (unique match ids, known entries, no
    tiebreak round at tables); return those whose round kind counts."""
    known = set(base.entries)
    seen_ids = set(base.results_by_id)
    counted: list[TableResult] = []
    for t in tables:
        if t.match_id in seen_ids:
            raise ValueError(f"duplicate match_id {t.match_id!r}")
        seen_ids.add(t.match_id)
        for e in t.seats:
            if e not in known:
                raise ValueError(f"table {t.match_id!r}: unknown entry {e!r}")
        if t.kind is RoundKind.TIEBREAK:
            raise ValueError(f"table {t.match_id!r}: tiebreak rounds at tables are not supported")
        if t.kind.counts:
            counted.append(t)
    return counted


@dataclass(slots=True)
class _TableGains:
    """What each entry gains from its tables; ``ids`` and ``mates`` carry the (round, match id)
    sort key of the table they come from."""

    mp: dict[EntryId, Number] = field(default_factory=dict)
    played: dict[EntryId, int] = field(default_factory=dict)
    wins: dict[EntryId, int] = field(default_factory=dict)
    draws: dict[EntryId, int] = field(default_factory=dict)
    pf: dict[EntryId, Number] = field(default_factory=dict)
    pa: dict[EntryId, Number] = field(default_factory=dict)
    mates: dict[EntryId, list[tuple[int, tuple[int, object], EntryId]]] = field(
        default_factory=dict
    )
    ids: dict[EntryId, list[tuple[int, tuple[int, object], MatchId, Number]]] = field(
        default_factory=dict
    )


def _table_gains(counted: Sequence[TableResult], placing: PlacingPoints) -> _TableGains:
    """Each entry's match points, matches, wins (sole first place), draws (shared first place),
    points for, points against (the tablemates' mean), tablemates and match ids from tables."""
    g = _TableGains()
    mp, played, wins, draws, pf, pa = g.mp, g.played, g.wins, g.draws, g.pf, g.pa
    for t in counted:
        gained = table_points(t, placing)
        place = placings(t)
        firsts = sum(1 for p in place.values() if p == 1)
        total = sum(t.scores)
        key = (t.round_number, id_key(t.match_id))
        for e, own in zip(t.seats, t.scores, strict=True):
            mp[e] = mp.get(e, 0) + gained[e]
            played[e] = played.get(e, 0) + 1
            if place[e] == 1:
                if firsts == 1:
                    wins[e] = wins.get(e, 0) + 1
                else:
                    draws[e] = draws.get(e, 0) + 1
            pf[e] = pf.get(e, 0) + own
            pa[e] = pa.get(e, 0) + Fraction(total - own, len(t.seats) - 1)
            g.ids.setdefault(e, []).append((*key, t.match_id, gained[e]))
            for other in t.seats:
                if other != e:
                    g.mates.setdefault(e, []).append((*key, other))
    return g


def _merge(base: Tally, g: _TableGains) -> dict[EntryId, EntryTally]:
    """Each entry's two-entry record with its tables added; its match ids and opponents in
    (round, match id) order."""
    merged = {}
    for e, rec in base.entries.items():
        if e not in g.played:
            merged[e] = rec
            continue
        # merge this entry's two-entry matches and its tables in (round, match id) order
        old_ids = [
            (rnd, id_key(m), m, earned)
            for m, rnd, earned in zip(rec.match_ids, rec.rounds, rec.earned, strict=True)
        ]
        all_ids = sorted(old_ids + g.ids[e], key=lambda x: (x[0], x[1]))
        table_mates = sorted(g.mates[e], key=lambda x: (x[0], x[1]))
        n_played = rec.played + g.played[e]
        n_wins = rec.wins + g.wins.get(e, 0)
        n_draws = rec.draws + g.draws.get(e, 0)
        merged[e] = rec._replace(
            match_points=normalise(rec.match_points + g.mp[e]),
            played=n_played,
            wins=n_wins,
            draws=n_draws,
            losses=n_played - n_wins - n_draws,
            points_for=normalise(rec.points_for + g.pf[e]),
            points_against=normalise(rec.points_against + g.pa[e]),
            opponents=rec.opponents + tuple(o for _, _, o in table_mates),
            match_ids=tuple(m for _, _, m, _ in all_ids),
            rounds=tuple(rnd for rnd, _, _, _ in all_ids),
            earned=tuple(earned for _, _, _, earned in all_ids),
        )
    return merged


def _win_rates(merged: Mapping[EntryId, EntryTally]) -> tuple[int, dict[EntryId, int]]:
    """Win rates over one common scale, as :func:`~tournaments.standings.tallying.tally` keeps
    them, for the merged records."""
    all_played = [r.played for r in merged.values()]
    scale = math.lcm(*{2 * p for p in all_played if p}) if any(all_played) else 1
    scaled = {
        e: (2 * r.wins + r.draws) * (scale // (2 * r.played)) if r.played else 0
        for e, r in merged.items()
    }
    return scale, scaled
