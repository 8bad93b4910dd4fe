"""Certified games: a memo that lets ``rerate_from`` skip re-rating a game whose inputs and
stored outputs are those of a game it rated before (``tournaments.rating.engine.Memo``).

A re-rate from a round must rate every game of that round again (each reads the ratings before
the round), though a result in it changes only its own game. The memo keeps, per round in the
cache, a digest per game of (its teams, ranks, its players' ratings before it, their ratings
after it) for every game the engine actually rated. A later re-rate that finds the same inputs
AND the same ratings already stored for that round (``RatingChange``) takes those stored ratings
as the game's outcome. The digest certifies a computation (``after = rate_game(before)``), not
a storage, so a cache that is stale, lost or written before a rollback can only cost a
re-computation, never give a wrong number. The cache fails open (a Redis outage: recompute).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping

from django.core.cache import cache

from tournaments.rating import PlayerRating, RatedGame
from tournaments.selectors.rating_records import StoredStep

TIMEOUT = 14 * 24 * 3600
"""Kept two weeks: the rounds still taking results and corrections."""


def _key(round_id: int) -> str:
    return f"ratings:certified:{round_id}"


def _digest(
    game: RatedGame, before: Mapping[int, PlayerRating], after: Mapping[int, PlayerRating]
) -> int:
    """Python's hash of the game's ints and floats: not salted per process (only strings are),
    64 bits, and a tenth of the cost of a cryptographic digest of their text."""
    new = PlayerRating()
    inputs = tuple((p, *_floats(before.get(p, new))) for p in game.players())
    outputs = tuple((p, *_floats(after[p])) for p in game.players())
    return hash((game.teams, game.ranks, inputs, outputs))


def _floats(rating: PlayerRating) -> tuple[float, float, int]:
    return (rating.mu, rating.sigma, rating.games)


class CertifiedGames:
    """The memo over the stored steps of the rounds being re-rated (see the module doc)."""

    def __init__(self, stored: Mapping[tuple[int, int], StoredStep], round_ids: Iterable[int]):
        self._stored = stored
        ids = list(round_ids)
        try:
            found = cache.get_many([_key(r) for r in ids])
        except Exception:  # the cache fails open: re-rate everything
            found = {}
        self._certified: dict[int, dict[int, int]] = {
            r: dict(found.get(_key(r)) or {}) for r in ids
        }
        self._learned: set[int] = set()

    def known(
        self, round_id: int, game: RatedGame, before: Mapping[int, PlayerRating]
    ) -> dict[int, PlayerRating] | None:
        digest = self._certified.get(round_id, {}).get(game.key[1])
        if digest is None:
            return None
        after: dict[int, PlayerRating] = {}
        for player in game.players():
            step = self._stored.get((player, round_id))
            if step is None:
                return None
            after[player] = PlayerRating(mu=step[1], sigma=step[2], games=step[3])
        return after if _digest(game, before, after) == digest else None

    def learn(
        self,
        round_id: int,
        game: RatedGame,
        before: Mapping[int, PlayerRating],
        after: dict[int, PlayerRating],
    ) -> None:
        self._certified.setdefault(round_id, {})[game.key[1]] = _digest(game, before, after)
        self._learned.add(round_id)

    def save(self) -> None:
        """Keep what was learned (the rounds where a game was rated anew)."""
        if not self._learned:
            return
        with contextlib.suppress(Exception):  # fail open: the next re-rate computes again
            cache.set_many({_key(r): self._certified[r] for r in self._learned}, timeout=TIMEOUT)
