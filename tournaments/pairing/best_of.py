"""Best-of-N play-off matches: a match of several games, decided by a majority of games won.

A *match* between two entries is played as best of ``n`` games (``n`` odd: 1, 3 or 5 in the
event's settings). Each game is its own verified scoresheet with exactly one winner; the match is
decided as soon as one side has won a majority, ``n // 2 + 1`` games, and no further game is
played. Until then the next game is number ``len(games) + 1``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

BEST_OF = (1, 3, 5)
"""The formats an event may choose for a play-off stage."""


@dataclass(frozen=True, slots=True)
class SeriesState:
    """A best-of match so far: games won by each side, the winner once decided, and the number
    of the game to play next (``None`` once decided)."""

    best_of: int
    entry_a: int
    entry_b: int
    wins_a: int
    wins_b: int
    winner: int | None
    next_game: int | None

    @property
    def needed(self) -> int:
        """Games a side must win: a majority of ``best_of``."""
        return self.best_of // 2 + 1

    @property
    def decided(self) -> bool:
        return self.winner is not None


def decide_series(
    best_of: int, entry_a: int, entry_b: int, game_winners: Sequence[int]
) -> SeriesState:
    """The state of a best-of-``best_of`` match between ``entry_a`` and ``entry_b`` whose games,
    in order, were won by ``game_winners`` (entry ids).

    Raises :class:`ValueError` for a format not in :data:`BEST_OF`, a winner who is not in the
    match, or a game recorded after the match was decided.

    >>> decide_series(3, 7, 9, [7, 7]).winner
    7
    >>> s = decide_series(3, 7, 9, [7, 9])
    >>> s.winner, s.next_game, (s.wins_a, s.wins_b)
    (None, 3, (1, 1))
    >>> decide_series(3, 7, 9, [9, 7, 9]).winner
    9
    """
    if best_of not in BEST_OF:
        raise ValueError(f"best_of must be one of {BEST_OF}, not {best_of!r}")
    if entry_a == entry_b:
        raise ValueError("a match needs two different entries")
    needed = best_of // 2 + 1
    wins = {entry_a: 0, entry_b: 0}
    winner: int | None = None
    for number, w in enumerate(game_winners, start=1):
        if winner is not None:
            raise ValueError(f"game {number} was recorded after entry {winner} won the match")
        if w not in wins:
            raise ValueError(f"game {number}: winner {w!r} is not entry {entry_a} or {entry_b}")
        wins[w] += 1
        if wins[w] == needed:
            winner = w
    return SeriesState(
        best_of=best_of,
        entry_a=entry_a,
        entry_b=entry_b,
        wins_a=wins[entry_a],
        wins_b=wins[entry_b],
        winner=winner,
        next_game=None if winner is not None else len(game_winners) + 1,
    )


def games_to_decide(
    best_of: int, entry_a: int, entry_b: int, game_winners: Sequence[int]
) -> int | None:
    """After how many of ``game_winners`` the match was decided (``None``: not yet). Unlike
    :func:`decide_series` it tolerates games recorded after the decision, so a caller can see
    that a correction leaves later games that should never have been played.

    >>> games_to_decide(3, 7, 9, [7, 7, 9])
    2
    >>> games_to_decide(3, 7, 9, [7, 9]) is None
    True
    """
    for number in range(1, len(game_winners) + 1):
        if decide_series(best_of, entry_a, entry_b, game_winners[:number]).decided:
            return number
    return None
