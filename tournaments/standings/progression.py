"""Each entry's standings round by round: what every counted result earned it, and how.

The pages draw an entry's progression (match points after each round) and list its matches; a
forfeit must show as one there. :func:`progression` gives, per entry, one :class:`RoundLine` per
counted result (Swiss and round-robin rounds, in round then match order) with its outcome, the
match points it earned (awarded by :func:`~tournaments.standings.tallying.result_points`, the one
place the points rule lives), the running total, and the raw points for and against as they count
in the standings (a forfeit's score counts only when ``PointsConfig.forfeit_spread`` is true).

Outcomes: ``win``, ``draw``, ``loss``, ``bye``, ``forfeit_win`` (the opponent forfeited),
``forfeit_loss`` (this entry forfeited) and ``double_forfeit``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from tournaments.standings.records import (
    Entry,
    EntryId,
    MatchId,
    Number,
    PointsConfig,
    Result,
    normalise,
)
from tournaments.standings.serialise import encode_number
from tournaments.standings.tallying import check_records, id_key, result_points

Outcome = Literal["win", "draw", "loss", "bye", "forfeit_win", "forfeit_loss", "double_forfeit"]


@dataclass(frozen=True, slots=True)
class RoundLine:
    """One counted result of one entry (see the module docstring)."""

    round_number: int
    match_id: MatchId
    opponent: EntryId | None
    outcome: Outcome
    match_points: Number
    total: Number
    points_for: Number
    points_against: Number

    @property
    def forfeit(self) -> bool:
        """Whether the match was forfeited (by either side, or both)."""
        return self.outcome in ("forfeit_win", "forfeit_loss", "double_forfeit")

    def to_json(self) -> dict[str, Any]:
        """Plain JSON, exact numbers as in the standings snapshot (whole numbers as ints)."""
        return {
            "round": self.round_number,
            "match_id": self.match_id,
            "opponent": self.opponent,
            "outcome": self.outcome,
            "forfeit": self.forfeit,
            "match_points": encode_number(self.match_points),
            "total": encode_number(self.total),
            "points_for": encode_number(self.points_for),
            "points_against": encode_number(self.points_against),
        }


def outcome(result: Result, side: EntryId) -> Outcome:
    """How ``result`` went for ``side`` (``entry_a`` or ``entry_b``)."""
    if result.entry_b is None:
        return "bye"
    if result.forfeit:
        if result.winner is None:
            return "double_forfeit"
        return "forfeit_win" if result.winner == side else "forfeit_loss"
    if result.winner is None:
        return "draw"
    return "win" if result.winner == side else "loss"


def progression(
    entries: Iterable[Entry], results: Iterable[Result], points: PointsConfig
) -> Mapping[EntryId, tuple[RoundLine, ...]]:
    """Every entry's counted results, round by round (entries without any get ``()``).

    Raises :class:`ValueError` on malformed records, as :func:`compute_standings` does.

    >>> from tournaments.standings.records import Entry, Result
    >>> lines = progression(
    ...     [Entry(1), Entry(2)],
    ...     [Result(10, 1, "swiss", 1, 2, 305, 120, 1),
    ...      Result(11, 2, "swiss", 1, 2, 150, 0, 1, forfeit=True)],
    ...     PointsConfig(win=2, forfeit_spread=False),
    ... )
    >>> [(x.outcome, x.match_points, x.total, x.points_for) for x in lines[2]]
    [('loss', 0, 0, 120), ('forfeit_loss', 0, 0, 0)]
    """
    entry_list, result_list, _ = check_records(entries, results)
    counted = sorted(
        (r for r in result_list if r.kind.counts),
        key=lambda r: (r.round_number, id_key(r.match_id)),
    )
    lines: dict[EntryId, list[RoundLine]] = {e.entry_id: [] for e in entry_list}
    totals: dict[EntryId, Number] = {}
    for r in counted:
        sides = [(r.entry_a, r.entry_b, r.score_a, r.score_b)]
        if r.entry_b is not None:
            sides.append((r.entry_b, r.entry_a, r.score_b, r.score_a))
        for side, other, own, against in sides:
            how = outcome(r, side)
            counts = how != "bye" and (points.forfeit_spread or not r.forfeit)
            earned = result_points(r, side, points)
            total = normalise(totals.get(side, 0) + earned)
            totals[side] = total
            lines[side].append(
                RoundLine(
                    round_number=r.round_number,
                    match_id=r.match_id,
                    opponent=other,
                    outcome=how,
                    match_points=earned,
                    total=total,
                    points_for=own if counts else 0,
                    points_against=against if counts else 0,
                )
            )
    return {entry_id: tuple(x) for entry_id, x in lines.items()}
