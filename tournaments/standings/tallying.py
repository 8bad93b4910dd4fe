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
  (forfeits included), summed when they met more than once; head-to-head reads these.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
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
    meetings: Mapping[EntryId, Number]
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
    included, in round then match order) and the points setting they were tallied with."""

    entries: Mapping[EntryId, EntryTally]
    tiebreak_results: tuple[Result, ...]
    points: PointsConfig


def result_points(result: Result, side: EntryId, points: PointsConfig) -> Number:
    """The match points ``side`` (``entry_a`` or ``entry_b``) earns from ``result``.

    A bye earns ``points.bye``; a draw ``points.draw``; a win ``points.win`` plus any margin bonus
    (:meth:`PointsConfig.for_win`); a loss, and either side of a double forfeit, ``points.loss``.
    """
    if result.entry_b is None:
        return points.bye
    winner = result.winner
    if winner is None:
        return points.loss if result.forfeit else points.draw
    if winner != side:
        return points.loss
    if side == result.entry_a:
        return points.for_win(result.score_a, result.score_b, forfeit=result.forfeit)
    return points.for_win(result.score_b, result.score_a, forfeit=result.forfeit)


def check_records(
    entries: Iterable[Entry], results: Iterable[Result]
) -> tuple[list[Entry], list[Result]]:
    """Materialise and validate the records: unique entry and match ids, known entries only.

    Raises :class:`ValueError` naming the offending id.
    """
    entry_list = list(entries)
    result_list = list(results)
    known: set[EntryId] = set()
    for entry in entry_list:
        if not isinstance(entry, Entry):
            raise ValueError(f"expected an Entry, got {entry!r}")
        if entry.entry_id in known:
            raise ValueError(f"duplicate entry_id {entry.entry_id!r}")
        known.add(entry.entry_id)
    seen: set[MatchId] = set()
    for result in result_list:
        if not isinstance(result, Result):
            raise ValueError(f"expected a Result, got {result!r}")
        if result.match_id in seen:
            raise ValueError(f"duplicate match_id {result.match_id!r}")
        seen.add(result.match_id)
        for side in (result.entry_a, result.entry_b):
            if side is not None and side not in known:
                raise ValueError(f"match {result.match_id!r}: unknown entry {side!r}")
    return entry_list, result_list


def tally(entries: Iterable[Entry], results: Iterable[Result], points: PointsConfig) -> Tally:
    """Validate the records and tally every entry's record (see :class:`EntryTally`).

    Entries without results get an all-zero record. The outcome does not depend on input order.
    """
    entry_list, result_list = check_records(entries, results)
    ids = [e.entry_id for e in entry_list]
    index = {entry_id: i for i, entry_id in enumerate(ids)}
    n = len(ids)
    mp: list[Number] = [0] * n
    played = [0] * n
    wins = [0] * n
    draws = [0] * n
    losses = [0] * n
    byes = [0] * n
    forfeits = [0] * n
    pf: list[Number] = [0] * n
    pa: list[Number] = [0] * n
    # (round, match key, match id, opponent met over the board or None) per entry, sorted at the end
    history: list[list[tuple[int, tuple[int, Any], MatchId, EntryId | None]]] = [
        [] for _ in range(n)
    ]
    meetings: list[dict[EntryId, Number]] = [{} for _ in range(n)]
    tiebreak_results: list[Result] = []

    for r in result_list:
        kind = r.kind
        if kind is not RoundKind.SWISS and kind is not RoundKind.ROUND_ROBIN:
            if kind is RoundKind.TIEBREAK:
                tiebreak_results.append(r)
            continue
        a = index[r.entry_a]
        key = id_key(r.match_id)
        b_id = r.entry_b
        if b_id is None:
            mp[a] += points.bye
            byes[a] += 1
            history[a].append((r.round_number, key, r.match_id, None))
            continue
        b = index[b_id]
        winner = r.winner
        sa = r.score_a
        sb = r.score_b
        if winner is None:
            if r.forfeit:  # double forfeit: both lose
                pts_a = pts_b = points.loss
                losses[a] += 1
                losses[b] += 1
            else:
                pts_a = pts_b = points.draw
                draws[a] += 1
                draws[b] += 1
        elif winner == r.entry_a:
            pts_a = points.for_win(sa, sb, forfeit=r.forfeit)
            pts_b = points.loss
            wins[a] += 1
            losses[b] += 1
        else:
            pts_a = points.loss
            pts_b = points.for_win(sb, sa, forfeit=r.forfeit)
            wins[b] += 1
            losses[a] += 1
        mp[a] += pts_a
        mp[b] += pts_b
        played[a] += 1
        played[b] += 1
        pf[a] += sa
        pa[a] += sb
        pf[b] += sb
        pa[b] += sa
        ma = meetings[a]
        ma[b_id] = ma.get(b_id, 0) + pts_a
        mb = meetings[b]
        mb[r.entry_a] = mb.get(r.entry_a, 0) + pts_b
        if r.forfeit:
            forfeits[a] += 1
            forfeits[b] += 1
            history[a].append((r.round_number, key, r.match_id, None))
            history[b].append((r.round_number, key, r.match_id, None))
        else:
            history[a].append((r.round_number, key, r.match_id, b_id))
            history[b].append((r.round_number, key, r.match_id, r.entry_a))

    tallies: dict[EntryId, EntryTally] = {}
    for i, entry_id in enumerate(ids):
        h = history[i]
        h.sort(key=_history_key)
        tallies[entry_id] = EntryTally(
            entry_id=entry_id,
            match_points=normalise(mp[i]),
            played=played[i],
            wins=wins[i],
            draws=draws[i],
            losses=losses[i],
            byes=byes[i],
            forfeits=forfeits[i],
            points_for=normalise(pf[i]),
            points_against=normalise(pa[i]),
            opponents=tuple(item[3] for item in h if item[3] is not None),
            meetings={k: normalise(v) for k, v in meetings[i].items()},
            match_ids=tuple(item[2] for item in h),
        )
    tiebreak_results.sort(key=lambda r: (r.round_number, id_key(r.match_id)))
    return Tally(entries=tallies, tiebreak_results=tuple(tiebreak_results), points=points)


def _history_key(item: tuple[int, tuple[int, Any], MatchId, EntryId | None]) -> tuple[Any, ...]:
    return (item[0], item[1])
