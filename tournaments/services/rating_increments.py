"""The incremental re-rate: after some results changed, re-rate only the games whose ratings can
have moved, and give the same numbers as a re-rate from scratch (``services/ratings.py``).

Why it is exact. Every game of a round is rated from its players' ratings before the round
(``tournaments.rating.engine``), so a game's outcome depends only on the game itself and on its
players' ratings before it. When some matches changed, the players whose ratings can move are,
round by round in season order:

* the players of a changed match, in its round (*seeds*): their games of that round are rated
  again (a game that is no longer rated, a forfeit say, drops its players' steps there);
* the *moved* players: those whose new rating after a round differs from the stored one. Every
  later game holding a moved player is rated again from the new ratings, and its other players'
  ratings before it are their stored ones (they have not moved).

A player whose rating comes out equal to the stored one stops moving: the stored steps after it
are already right. Games are taken with every game of the round that shares a player with them
(``rating_records.round_games_with``), so passes within a round are rated as a full re-rate
would rate them. The invariant it rests on (the stored steps are those a re-rate from scratch
would store) is what every re-rate leaves behind, this one included; ``rerate_all`` rebuilds it.

Cost: a few small queries per round visited, and only rounds while some player is moving; a
result in the last round touches one round and its game's players (a partnership game's four, a
table of many's three or four). When the moving players pass
:data:`FULL_FROM` the rest is left to the full re-rate from that round (the same numbers).
"""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.rating import PlayerRating, rate_round
from tournaments.rating.engine import Position
from tournaments.selectors import rating_records

FULL_FROM = 1_000
"""From this many moving players on, a round's own full re-rate is cheaper than the
per-player reads: the rest is handed to ``ratings._rerate`` from that round."""

Moving = dict[int, PlayerRating | None]
"""A moving player's rating after the rounds visited so far (None: no rating yet)."""

Steps = dict[tuple[int, int], rating_records.StoredStep]
Computed = dict[tuple[int, int], tuple[int, PlayerRating]]


class TooMany(Exception):
    """The moving players passed :data:`FULL_FROM`: re-rate fully from ``position`` (the
    earliest changed round; nothing has been written yet)."""

    def __init__(self, position: Position):
        super().__init__(position)
        self.position = position


def changed_steps(match_ids: Iterable[int]) -> tuple[Steps, Computed, Moving]:
    """What re-rating after ``match_ids`` changed: the stored steps looked at, the steps
    computed for them (``ratings._write_steps`` writes the difference) and the players still
    moving at the end with their latest rating (``ratings._write_players`` stores it).

    Raises :class:`TooMany` when a full re-rate from some round is the better way."""
    merged = rating_records.survivors()
    seeds = rating_records.seeds_of_matches(match_ids, merged)
    stored: Steps = {}
    computed: Computed = {}
    moving: Moving = {}
    if not seeds:
        return stored, computed, moving
    since = min(position for position, _ in seeds.values())
    for position, round_id, event_id in rating_records.rated_rounds_at(since):
        forced = seeds.pop(round_id, (position, set()))[1]
        if not forced and not moving:
            if not seeds:
                break
            continue
        if len(moving) > FULL_FROM:
            raise TooMany(since)
        _round(position, round_id, event_id, forced, merged, moving, stored, computed)
    return stored, computed, moving


def _round(
    position: Position,
    round_id: int,
    event_id: int,
    forced: set[int],
    merged: dict[int, int],
    moving: Moving,
    stored: Steps,
    computed: Computed,
) -> None:
    """One round: rate again the games holding a seed or a moving player, note the steps that
    differ, and update who is moving."""
    games = rating_records.round_games_with(round_id, event_id, forced | set(moving), merged)
    touched = {p for game in games for p in game.players()} | forced
    before: Moving = {p: moving[p] for p in touched if p in moving}
    found = rating_records.ratings_before(position, touched - set(before))
    before.update({p: found.get(p) for p in touched - set(before)})
    state = {p: rating for p, rating in before.items() if rating is not None}
    after = rate_round(state, games, round_id=round_id)
    steps = rating_records.steps_of_round(round_id, touched)
    stored.update(steps)
    for player in touched:
        new = after.get(player)
        old = steps.get((player, round_id))
        if new is not None:
            computed[(player, round_id)] = (event_id, new)
        same = (new is None and old is None) or (
            new is not None and old is not None and (new.mu, new.sigma, new.games) == old[1:]
        )
        if same:
            if new is not None:
                moving.pop(player, None)  # from here on the stored steps are right
        else:
            moving[player] = new if new is not None else before[player]
