"""Tallying: one pass over the results gives each entry's record, which every tiebreak reads.

Only Swiss and round-robin results make an entry's record (:attr:`RoundKind.counts`). Tiebreak-round
results are kept aside for the final settlement; play-off results are ignored.

Terms used by the tiebreaks:

- **played**: matches with an opponent, forfeits included; a bye is not a match.
- **unplayed round**: a bye, or a forfeit (won or lost). For the opponent-based tiebreaks (Buchholz,
  median Buchholz, opponents' win rate) an unplayed round has no real opponent: see
  :mod:`tournaments.standings.tiebreaks` for how each counts it.
- **opponents**: the entries met over the board (forfeits excluded), one per match.
- **meetings**: the match points an entry earned against each opponent it has a result with
  (forfeits included), summed when they met more than once; head-to-head reads these through
  :meth:`Tally.meetings` (computed on demand: most entries never need them).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

from tournaments.standings.records import (
    Entry,
    EntryId,
    MatchId,
    Number,
    PointsConfig,
    Result,
    RoundKind,
    normalise,
)


def id_key(value: EntryId | MatchId) -> tuple[int, Any]:
    """A total order over ids of either kind: ints (numerically) before strs (lexically)."""
    return (0, value) if type(value) is int else (1, value)


class _EntryTallyFields(NamedTuple):
    entry_id: EntryId
    match_points: Number
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    forfeits: int
    points_for: Number
    points_against: Number
    opponents: tuple[EntryId, ...]
    match_ids: tuple[MatchId, ...]
    rounds: tuple[int, ...] = ()
    earned: tuple[Number, ...] = ()


class EntryTally(_EntryTallyFields):
    """One entry's record over the counted (Swiss and round-robin) rounds.

    ``match_ids`` and ``opponents`` are in round order (then match id); every number is exact.
    ``rounds`` and ``earned`` go with ``match_ids``, one per counted result (byes included): its
    round, and the match points it earned (as :func:`result_points` awards them), so
    ``match_points`` is their sum. (Tables of many add theirs too; see
    :mod:`~tournaments.standings.multiplayer`.) An immutable record (a named tuple).
    """

    __slots__ = ()

    @property
    def unplayed(self) -> int:
        """Rounds without a real opponent: byes plus forfeits (won or lost)."""
        return self.byes + self.forfeits

    @property
    def win_rate(self) -> Number:
        """``(wins + draws / 2) / played``, exactly; 0 for an entry that has played no match.

        Byes are excluded; forfeits count (a forfeit win is a win, a forfeit loss a loss).
        """
        if self.played == 0:
            return 0
        return normalise(Fraction(2 * self.wins + self.draws, 2 * self.played))


@dataclass(frozen=True, slots=True)
class Tally:
    """Every entry's record, the tiebreak-round results kept aside for the settlement (byes
    included, in round then match order) and the points setting they were tallied with.

    ``scaled_win_rates[e] / win_rate_scale`` is entry ``e``'s :attr:`EntryTally.win_rate`: every
    win rate over one common denominator, so averaging them takes one exact division.
    ``match_points_of[e]`` is ``entries[e].match_points`` (filled in when not given), for the
    opponent-based tiebreaks' sums.
    """

    entries: Mapping[EntryId, EntryTally]
    tiebreak_results: tuple[Result, ...]
    points: PointsConfig
    win_rate_scale: int = 1
    scaled_win_rates: Mapping[EntryId, int] = field(default_factory=dict)
    results_by_id: Mapping[MatchId, Result] = field(default_factory=dict)
    match_points_of: Mapping[EntryId, Number] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.match_points_of and self.entries:
            mp = dict(zip(self.entries, map(_match_points, self.entries.values()), strict=True))
            object.__setattr__(self, "match_points_of", mp)

    def meetings(self, entry_id: EntryId) -> dict[EntryId, Number]:
        """The match points ``entry_id`` earned against each opponent it has a counted result
        with (forfeits included; several meetings add up). Computed on demand."""
        earned: dict[EntryId, Number] = {}
        record = self.entries[entry_id]
        results = self.results_by_id
        for match_id, points in zip(record.match_ids, record.earned, strict=True):
            r = results[match_id]
            other = r.entry_b if r.entry_a == entry_id else r.entry_a
            if other is not None:
                earned[other] = normalise(earned.get(other, 0) + points)
        return earned


_match_points = attrgetter("match_points")


def result_points(result: Result, side: EntryId, points: PointsConfig) -> Number:
    """The match points ``side`` (``entry_a`` or ``entry_b``) earns from ``result``.

    A bye earns ``points.bye``; a draw ``points.draw``; a win ``points.win`` plus any margin bonus
    (:meth:`PointsConfig.for_win`); a loss ``points.loss``. Forfeits: the winner
    ``points.forfeit_win_points``, the side that forfeited ``points.forfeit_loss_points``, and
    either side of a double forfeit ``points.double_forfeit_points``.
    """
    if result.entry_b is None:
        return points.bye
    winner = result.winner
    if winner is None:
        return points.double_forfeit_points if result.forfeit else points.draw
    if winner != side:
        return points.forfeit_loss_points if result.forfeit else points.loss
    if side == result.entry_a:
        return points.for_win(result.score_a, result.score_b, forfeit=result.forfeit)
    return points.for_win(result.score_b, result.score_a, forfeit=result.forfeit)


def check_records(
    entries: Iterable[Entry], results: Iterable[Result]
) -> tuple[list[Entry], list[Result], dict[MatchId, Result]]:
    """Materialise and validate the records: unique entry and match ids, known entries only.

    Returns the entries, the results and the results by match id.

    Raises :class:`ValueError` naming the offending id (the first one, in input order).
    """
    entry_list = list(entries)
    result_list = list(results)
    # Column by column first (the common case: all is well); one by one to name a fault.
    if set(map(type, entry_list)) <= {Entry} and set(map(type, result_list)) <= {Result}:
        known = set(map(_first, entry_list))
        by_id = dict(zip(map(_first, result_list), result_list, strict=True))
        if (
            len(known) == len(entry_list)
            and len(by_id) == len(result_list)
            and set(map(_entry_a, result_list)) <= known
            and set(map(_entry_b, result_list)) <= known | {None}
        ):
            return entry_list, result_list, by_id
    return entry_list, result_list, _check_one_by_one(entry_list, result_list)


_first = itemgetter(0)
_entry_a = attrgetter("entry_a")
_entry_b = attrgetter("entry_b")


def _check_one_by_one(entry_list: list[Entry], result_list: list[Result]) -> dict[MatchId, Result]:
    known: set[EntryId] = set()
    for entry in entry_list:
        if type(entry) is not Entry and not isinstance(entry, Entry):
            raise ValueError(f"expected an Entry, got {entry!r}")
        if entry.entry_id in known:
            raise ValueError(f"duplicate entry_id {entry.entry_id!r}")
        known.add(entry.entry_id)
    by_id: dict[MatchId, Result] = {}
    for result in result_list:
        if type(result) is not Result and not isinstance(result, Result):
            raise ValueError(f"expected a Result, got {result!r}")
        if result.match_id in by_id:
            raise ValueError(f"duplicate match_id {result.match_id!r}")
        by_id[result.match_id] = result
        for side in (result.entry_a, result.entry_b):
            if side is not None and side not in known:
                raise ValueError(f"match {result.match_id!r}: unknown entry {side!r}")
    return by_id


def tally(entries: Iterable[Entry], results: Iterable[Result], points: PointsConfig) -> Tally:
    """Validate the records and tally every entry's record (see :class:`EntryTally`).

    Entries without results get an all-zero record. The outcome does not depend on input order.
    """
    entry_list, result_list, by_id = check_records(entries, results)
    return tally_checked(entry_list, result_list, by_id, points)


def tally_checked(
    entry_list: Sequence[Entry],
    result_list: list[Result],
    by_id: dict[MatchId, Result],
    points: PointsConfig,
) -> Tally:
    """:func:`tally` of records :func:`check_records` has checked (``result_list`` is sorted in
    place)."""
    _sort_results(result_list)
    ids = [e.entry_id for e in entry_list]
    lines, tiebreak_results = _count_results(result_list, ids, points)
    records = {entry_id: _entry_tally(entry_id, lines[entry_id]) for entry_id in ids}
    scale, scaled = _win_rates(records)
    return Tally(
        entries=records,
        tiebreak_results=tuple(tiebreak_results),
        points=points,
        win_rate_scale=scale,
        scaled_win_rates=scaled,
        results_by_id=by_id,
    )


def tally_again(
    previous: Tally,
    entry_list: Sequence[Entry],
    result_list: Sequence[Result],
    by_id: dict[MatchId, Result],
    changed: Iterable[MatchId],
) -> tuple[Tally, set[EntryId]]:
    """:func:`tally` of checked records (:func:`check_records`) that differ from ``previous``'s
    only in the results of the ``changed`` match ids (added, altered or gone): each entry's
    record is made again only when one of those results is or was its own. Returns the tally,
    equal to ``tally(entry_list, result_list, previous.points)``, and the entries made again.

    ``previous`` must be a two-entry tally of the same entries, in the same order.
    """
    before = previous.results_by_id
    affected: set[EntryId] = set()
    for match_id in changed:
        for r in (before.get(match_id), by_id.get(match_id)):
            if r is not None:
                affected.add(r.entry_a)
                if r.entry_b is not None:
                    affected.add(r.entry_b)
    # every result that is (or was, if still there) an affected entry's: their lines, remade
    involved: dict[MatchId, Result] = {}
    records = previous.entries
    for entry_id in affected:
        for match_id in records[entry_id].match_ids:
            r = by_id.get(match_id)
            if r is not None:
                involved[match_id] = r
    for match_id in changed:
        r = by_id.get(match_id)
        if r is not None:
            involved[match_id] = r
    subset = list(involved.values())
    _sort_results(subset)
    sides = {r.entry_a for r in subset} | {r.entry_b for r in subset if r.entry_b is not None}
    lines, _ = _count_results(subset, list(sides | affected), previous.points)
    again = dict(records)
    for entry_id in affected:
        again[entry_id] = _entry_tally(entry_id, lines[entry_id])
    tiebreak_results = [r for r in result_list if r.kind is RoundKind.TIEBREAK]
    _sort_results(tiebreak_results)
    scale, scaled = _win_rates(again)
    t = Tally(
        entries=again,
        tiebreak_results=tuple(tiebreak_results),
        points=previous.points,
        win_rate_scale=scale,
        scaled_win_rates=scaled,
        results_by_id=by_id,
    )
    return t, affected


def _sort_results(result_list: list[Result]) -> None:
    """Sort in place into (round, match id) order, so every per-entry list comes out in order."""
    # itemgetter is C-fast; id_key is needed only when int and str match ids are mixed.
    if len(set(map(type, map(_first, result_list)))) > 1:
        result_list.sort(key=lambda r: (r.round_number, id_key(r.match_id)))
    else:
        result_list.sort(key=_round_then_match)


_round_then_match = itemgetter(1, 0)

# How a counted result went for one side, as bit fields that add up: the sum of an entry's
# outcomes holds its wins, draws, byes and forfeits (a loss adds nothing; a double forfeit is a
# forfeit lost by both). Each count has 20 bits: an entry with a million results or more is
# counted another way (see _entry_tally).
_FIELD = 20
_WIN, _DRAW, _BYE, _FORFEIT = 1, 1 << _FIELD, 1 << 2 * _FIELD, 1 << 3 * _FIELD
_LOSS, _FORFEIT_WIN, _FORFEIT_LOSS = 0, _FORFEIT | _WIN, _FORFEIT
_MASK = (1 << _FIELD) - 1

Line = tuple[MatchId, int, Number, int, Number, Number, "EntryId | None"]
"""One side of one counted result: match id, round, match points earned, outcome (``_WIN``...),
raw points for and against as they count, and the opponent met over the board (``None`` for a
bye or a forfeit)."""


def _count_results(
    result_list: Sequence[Result], ids: Sequence[EntryId], points: PointsConfig
) -> tuple[dict[EntryId, list[Line]], list[Result]]:
    """One pass over the sorted results (the hot path): each entry's lines (see :data:`Line`),
    and the tiebreak rounds' results, which count for none of these."""
    lines: dict[EntryId, list[Line]] = {entry_id: [] for entry_id in ids}
    tiebreak_results: list[Result] = []
    win, draw, loss, bye = points.win, points.draw, points.loss, points.bye
    win_bonus = normalise(win + points.margin_bonus)
    fwin, floss = points.forfeit_win_points, points.forfeit_loss_points
    dforfeit = points.double_forfeit_points
    threshold = points.margin_threshold
    forfeit_spread = points.forfeit_spread
    swiss, round_robin, tiebreak = RoundKind.SWISS, RoundKind.ROUND_ROBIN, RoundKind.TIEBREAK
    for r in result_list:
        match_id, rnd, kind, a, b, sa, sb, winner, forfeit = r
        if kind is not swiss and kind is not round_robin:
            if kind is tiebreak:
                tiebreak_results.append(r)
            continue
        if b is None:
            lines[a].append((match_id, rnd, bye, _BYE, 0, 0, None))
            continue
        if forfeit:  # not played: no opponent met; the scores count only with forfeit_spread
            if not forfeit_spread:
                sa = sb = 0
            if winner is None:  # a double forfeit: a loss for both
                lines[a].append((match_id, rnd, dforfeit, _FORFEIT_LOSS, sa, sb, None))
                lines[b].append((match_id, rnd, dforfeit, _FORFEIT_LOSS, sb, sa, None))
            elif winner == a:
                lines[a].append((match_id, rnd, fwin, _FORFEIT_WIN, sa, sb, None))
                lines[b].append((match_id, rnd, floss, _FORFEIT_LOSS, sb, sa, None))
            else:
                lines[a].append((match_id, rnd, floss, _FORFEIT_LOSS, sa, sb, None))
                lines[b].append((match_id, rnd, fwin, _FORFEIT_WIN, sb, sa, None))
        elif winner is None:
            lines[a].append((match_id, rnd, draw, _DRAW, sa, sb, b))
            lines[b].append((match_id, rnd, draw, _DRAW, sb, sa, a))
        elif winner == a:
            # the margin bonus, as PointsConfig.for_win (inlined: this loop is the hot path)
            bonus = threshold is not None and sa - sb >= threshold
            lines[a].append((match_id, rnd, win_bonus if bonus else win, _WIN, sa, sb, b))
            lines[b].append((match_id, rnd, loss, _LOSS, sb, sa, a))
        else:
            bonus = threshold is not None and sb - sa >= threshold
            lines[a].append((match_id, rnd, loss, _LOSS, sa, sb, b))
            lines[b].append((match_id, rnd, win_bonus if bonus else win, _WIN, sb, sa, a))
    return lines, tiebreak_results


def _entry_tally(entry_id: EntryId, lines: list[Line]) -> EntryTally:
    """An entry's record from its lines: counts, sums, and its per-result columns."""
    if not lines:
        return EntryTally(entry_id, 0, 0, 0, 0, 0, 0, 0, 0, 0, (), (), (), ())
    match_ids, rounds, earned, outcomes, points_for, points_against, met = zip(*lines, strict=False)
    if len(lines) <= _MASK:
        counts = sum(outcomes)
        wins, draws = counts & _MASK, (counts >> _FIELD) & _MASK
        byes, forfeits = (counts >> 2 * _FIELD) & _MASK, counts >> 3 * _FIELD
    else:
        wins = sum(1 for o in outcomes if o & _WIN)
        draws, byes = outcomes.count(_DRAW), outcomes.count(_BYE)
        forfeits = sum(1 for o in outcomes if o & _FORFEIT)
    played = len(lines) - byes
    mp, pf, pa = sum(earned), sum(points_for), sum(points_against)
    return _new_record(
        EntryTally,
        (
            entry_id,
            mp if type(mp) is int else normalise(mp),
            played,
            wins,
            draws,
            played - wins - draws,  # a double forfeit is a loss for both
            byes,
            forfeits,
            pf if type(pf) is int else normalise(pf),
            pa if type(pa) is int else normalise(pa),
            met if byes + forfeits == 0 else tuple([o for o in met if o is not None]),
            match_ids,
            rounds,
            earned,
        ),
    )


_new_record = tuple.__new__


def _win_rates(records: Mapping[EntryId, EntryTally]) -> tuple[int, dict[EntryId, int]]:
    """Win rates as exact integers over one common scale (a win 2, a draw 1, per match played):
    the scale and each entry's scaled rate (0 without a match played)."""
    scale = math.lcm(*{2 * r.played for r in records.values() if r.played} or {1})
    scaled = {
        entry_id: (2 * r.wins + r.draws) * (scale // (2 * r.played)) if r.played else 0
        for entry_id, r in records.items()
    }
    return scale, scaled
