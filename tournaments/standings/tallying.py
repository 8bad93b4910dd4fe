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
from operator import attrgetter
from typing import Any

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


@dataclass(frozen=True, slots=True)
class EntryTally:
    """One entry's record over the counted (Swiss and round-robin) rounds.

    ``match_ids`` and ``opponents`` are in round order (then match id); every number is exact.
    """

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
    """

    entries: Mapping[EntryId, EntryTally]
    tiebreak_results: tuple[Result, ...]
    points: PointsConfig
    win_rate_scale: int = 1
    scaled_win_rates: Mapping[EntryId, int] = field(default_factory=dict)
    results_by_id: Mapping[MatchId, Result] = field(default_factory=dict)

    def meetings(self, entry_id: EntryId) -> dict[EntryId, Number]:
        """The match points ``entry_id`` earned against each opponent it has a counted result
        with (forfeits included; several meetings add up). Computed on demand."""
        earned: dict[EntryId, Number] = {}
        for match_id in self.entries[entry_id].match_ids:
            r = self.results_by_id[match_id]
            other = r.entry_b if r.entry_a == entry_id else r.entry_a
            if other is not None:
                earned[other] = normalise(
                    earned.get(other, 0) + result_points(r, entry_id, self.points)
                )
        return earned


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

    Raises :class:`ValueError` naming the offending id.
    """
    entry_list = list(entries)
    result_list = list(results)
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
    return entry_list, result_list, by_id


def tally(entries: Iterable[Entry], results: Iterable[Result], points: PointsConfig) -> Tally:
    """Validate the records and tally every entry's record (see :class:`EntryTally`).

    Entries without results get an all-zero record. The outcome does not depend on input order.
    """
    entry_list, result_list, by_id = check_records(entries, results)
    _sort_results(result_list)
    ids = [e.entry_id for e in entry_list]
    counts, tiebreak_results = _count_results(result_list, ids, points)
    scale, scaled = _win_rates(ids, counts)
    return Tally(
        entries=_entry_tallies(ids, counts, points),
        tiebreak_results=tuple(tiebreak_results),
        points=points,
        win_rate_scale=scale,
        scaled_win_rates=scaled,
        results_by_id=by_id,
    )


def _sort_results(result_list: list[Result]) -> None:
    """Sort in place into (round, match id) order, so every per-entry list comes out in order."""
    # attrgetter is C-fast; id_key is needed only when int and str match ids are mixed.
    if len({type(r.match_id) for r in result_list}) > 1:
        result_list.sort(key=lambda r: (r.round_number, id_key(r.match_id)))
    else:
        result_list.sort(key=attrgetter("round_number", "match_id"))


class _Counts:
    """Per-entry counters of one pass over the results, indexed like the entries."""

    __slots__ = (
        "bonuses",
        "byes",
        "double_forfeits",
        "draws",
        "forfeit_losses",
        "forfeit_wins",
        "forfeits",
        "match_ids",
        "opponents",
        "pa",
        "pf",
        "played",
        "wins",
    )

    def __init__(self, n: int) -> None:
        self.bonuses = [0] * n  # wins that earned the margin bonus
        self.forfeit_wins = [0] * n  # forfeits counted apart: the event may award them differently
        self.forfeit_losses = [0] * n
        self.double_forfeits = [0] * n
        self.wins = [0] * n
        self.draws = [0] * n
        self.byes = [0] * n
        self.forfeits = [0] * n
        self.pf: list[Number] = [0] * n
        self.pa: list[Number] = [0] * n
        self.match_ids: list[list[MatchId]] = [[] for _ in range(n)]
        self.opponents: list[list[EntryId]] = [[] for _ in range(n)]
        self.played: list[int] = []  # matches played, once every result is counted

    def forfeit(self, a: int, b: int, a_wins: bool | None) -> None:
        """Count a forfeit between ``a`` and ``b`` (``a_wins`` None: a double forfeit)."""
        self.forfeits[a] += 1
        self.forfeits[b] += 1
        if a_wins is None:
            self.double_forfeits[a] += 1
            self.double_forfeits[b] += 1
        elif a_wins:
            self.forfeit_wins[a] += 1
            self.forfeit_losses[b] += 1
        else:
            self.forfeit_wins[b] += 1
            self.forfeit_losses[a] += 1


def _count_results(
    result_list: Sequence[Result], ids: Sequence[EntryId], points: PointsConfig
) -> tuple[_Counts, list[Result]]:
    """One pass over the sorted results (the hot path): wins, draws, byes, bonuses, forfeits,
    points for and against, match ids and opponents per entry; returns the counts and the
    tiebreak rounds' results, which count for none of these."""
    index = {entry_id: i for i, entry_id in enumerate(ids)}
    c = _Counts(len(ids))
    wins, draws, byes, bonuses, pf, pa = c.wins, c.draws, c.byes, c.bonuses, c.pf, c.pa
    match_ids, opponents = c.match_ids, c.opponents
    tiebreak_results: list[Result] = []
    threshold = points.margin_threshold
    forfeit_spread = points.forfeit_spread
    swiss, round_robin = RoundKind.SWISS, RoundKind.ROUND_ROBIN
    for r in result_list:
        kind = r.kind
        if kind is not swiss and kind is not round_robin:
            if kind is RoundKind.TIEBREAK:
                tiebreak_results.append(r)
            continue
        a_id = r.entry_a
        a = index[a_id]
        match_ids[a].append(r.match_id)
        b_id = r.entry_b
        if b_id is None:
            byes[a] += 1
            continue
        b = index[b_id]
        match_ids[b].append(r.match_id)
        winner = r.winner
        forfeit = r.forfeit
        sa = r.score_a
        sb = r.score_b
        if winner is None:
            if not forfeit:  # a double forfeit is a loss for both (losses are derived below)
                draws[a] += 1
                draws[b] += 1
        elif winner == a_id:
            wins[a] += 1
            # the margin bonus, as PointsConfig.for_win (inlined: this loop is the hot path)
            if threshold is not None and not forfeit and sa - sb >= threshold:
                bonuses[a] += 1
        else:
            wins[b] += 1
            if threshold is not None and not forfeit and sb - sa >= threshold:
                bonuses[b] += 1
        if forfeit:
            c.forfeit(a, b, None if winner is None else winner == a_id)
            if not forfeit_spread:
                continue  # the forfeit score adds nothing to points for, against or spread
        else:
            opponents[a].append(b_id)
            opponents[b].append(a_id)
        pf[a] += sa
        pa[a] += sb
        pf[b] += sb
        pa[b] += sa
    c.played = [len(match_ids[i]) - byes[i] for i in range(len(ids))]
    return c, tiebreak_results


def _entry_tallies(
    ids: Sequence[EntryId], c: _Counts, points: PointsConfig
) -> dict[EntryId, EntryTally]:
    """Each entry's record from the counts: losses and match points follow from them (a double
    forfeit is two losses; forfeits are awarded as the points setting says)."""
    win, draw, loss, bye = points.win, points.draw, points.loss, points.bye
    bonus = points.margin_bonus
    fwin, floss, dforfeit = (
        points.forfeit_win_points,
        points.forfeit_loss_points,
        points.double_forfeit_points,
    )
    played, wins, draws, byes = c.played, c.wins, c.draws, c.byes
    losses = [played[i] - wins[i] - draws[i] for i in range(len(ids))]
    tallies: dict[EntryId, EntryTally] = {}
    for i, entry_id in enumerate(ids):
        mp = wins[i] * win + draws[i] * draw + losses[i] * loss + byes[i] * bye
        if c.bonuses[i]:
            mp += c.bonuses[i] * bonus
        if c.forfeits[i]:  # forfeits were counted above as wins and losses: award them as set
            mp += c.forfeit_wins[i] * (fwin - win) + c.forfeit_losses[i] * (floss - loss)
            mp += c.double_forfeits[i] * (dforfeit - loss)
        tallies[entry_id] = EntryTally(
            entry_id=entry_id,
            match_points=normalise(mp),
            played=played[i],
            wins=wins[i],
            draws=draws[i],
            losses=losses[i],
            byes=byes[i],
            forfeits=c.forfeits[i],
            points_for=normalise(c.pf[i]),
            points_against=normalise(c.pa[i]),
            opponents=tuple(c.opponents[i]),
            match_ids=tuple(c.match_ids[i]),
        )
    return tallies


def _win_rates(ids: Sequence[EntryId], c: _Counts) -> tuple[int, dict[EntryId, int]]:
    """Win rates as exact integers over one common scale (a win 2, a draw 1, per match played):
    the scale and each entry's scaled rate (0 without a match played)."""
    played, wins, draws = c.played, c.wins, c.draws
    scale = math.lcm(*{2 * p for p in played if p}) if any(played) else 1
    scaled = {
        entry_id: (2 * wins[i] + draws[i]) * (scale // (2 * played[i])) if played[i] else 0
        for i, entry_id in enumerate(ids)
    }
    return scale, scaled
