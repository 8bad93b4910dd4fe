"""Re-rating players from rated games with openskill's Plackett-Luce model, order-independently.

Vocabulary:
    game       one rated game: two or more teams (a partnership is a team of two players, a
               head-to-head player a team of one) and each team's rank (0 best; equal ranks
               are a draw). Forfeits and byes are never games: the caller leaves them out.
    round      the games of one round of one event, rated together
    position   where a round sits in the season: ``(event start date, event id, round number)``
    state      each player's ``PlayerRating`` (mu, sigma, rated games so far)

The rule (order independence): every game of a round is rated from the ratings the players had
*before the round*, and all of the round's changes are applied together, so the order in which
results were confirmed within a round changes nothing. A player who plays more than one game in
a round (a best-of play-off series: each game is a rated game) plays them in *passes*: games are
taken in their ``key`` order (game number, then match id: both fixed by the pairing, not by
when the result came in), and a game goes in the pass after the last pass holding any of its
players. Every game of a pass is rated from the state before the pass. With one game per
player, a round is one pass.

A game whose teams share a player (two rows of one person merged, who met each other) is
skipped: a player cannot win against themself.

>>> game = RatedGame.two_sides((1, 1), (1, 2), (3, 4), winner=0)
>>> after = rate_round({}, [game])
>>> sorted(after) == [1, 2, 3, 4] and after[1].mu > 25 > after[3].mu
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from openskill.models import PlackettLuce

MU = 25.0
"""A new player's mean (openskill's default)."""
SIGMA = MU / 3
"""A new player's uncertainty (openskill's default: mu / 3)."""
BETA = SIGMA / 2
"""The spread of one game's performance around a player's skill (openskill's default)."""
TAU = MU / 300
"""Added to sigma before every game, so ratings keep moving (openskill's default)."""

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, limit_sigma=False, balance=False)
"""The one model Spinner rates with; ``docs/ratings.md`` says why."""

Position = tuple[date, int, int]
"""A round's place in the season: (event start date, event id, round number)."""


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rating: openskill's mean and uncertainty, and the rated games it rests on."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One rated game. ``key`` orders a round's games when a player has several (game number,
    match id); ``teams`` hold player ids; ``ranks`` one per team, lower is better, equal is a
    draw (a table of more than two teams ranks them all: 0, 1, 2, ...)."""

    key: tuple[int, int]
    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]

    @classmethod
    def two_sides(
        cls, key: tuple[int, int], side_a: Sequence[int], side_b: Sequence[int], winner: int | None
    ) -> RatedGame:
        """A game of two sides: ``winner`` 0 (side A), 1 (side B) or None (a draw)."""
        ranks = (0, 0) if winner is None else ((0, 1) if winner == 0 else (1, 0))
        return cls(key=key, teams=(tuple(side_a), tuple(side_b)), ranks=ranks)

    def players(self) -> list[int]:
        return [player for team in self.teams for player in team]

    def ratable(self) -> bool:
        """Two teams or more, none empty, and no player twice (see the module doc)."""
        players = self.players()
        return (
            len(self.teams) >= 2
            and all(self.teams)
            and len(self.ranks) == len(self.teams)
            and len(set(players)) == len(players)
        )


@dataclass(frozen=True, slots=True)
class RatedRound:
    """The rated games of one round (``round_id``: the caller's id for it) at ``position``."""

    position: Position
    round_id: int
    games: tuple[RatedGame, ...]


def rate_game(state: Mapping[int, PlayerRating], game: RatedGame) -> dict[int, PlayerRating]:
    """One game rated by :data:`MODEL` from ``state`` (a player not in it is new): each of the
    game's players' new rating."""
    teams = [
        [MODEL.rating(mu=rating.mu, sigma=rating.sigma) for rating in _ratings(state, team)]
        for team in game.teams
    ]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in game.ranks])
    out: dict[int, PlayerRating] = {}
    for team_ids, team in zip(game.teams, rated, strict=True):
        for player, after in zip(team_ids, team, strict=True):
            before = state.get(player)
            games = 1 + (before.games if before is not None else 0)
            out[player] = PlayerRating(mu=after.mu, sigma=after.sigma, games=games)
    return out


def _ratings(state: Mapping[int, PlayerRating], team: tuple[int, ...]) -> list[PlayerRating]:
    new = PlayerRating()
    return [state.get(player, new) for player in team]


def passes(games: Iterable[RatedGame]) -> list[list[RatedGame]]:
    """A round's ratable games in passes (see the module doc): one pass when each player plays
    once; a later game of the same player goes in a later pass."""
    out: list[list[RatedGame]] = []
    last: dict[int, int] = {}
    for game in sorted(games, key=lambda g: g.key):
        if not game.ratable():
            continue
        index = 1 + max((last.get(player, -1) for player in game.players()), default=-1)
        if index == len(out):
            out.append([])
        out[index].append(game)
        for player in game.players():
            last[player] = index
    return out


class Memo(Protocol):
    """Games already rated: ``known`` gives a game's ratings after it when this very game was
    rated before from these very ratings (None otherwise); ``learn`` is told every game rated.
    A memo may forget anything; it must never give ratings that ``rate_game`` would not."""

    def known(
        self, round_id: int, game: RatedGame, before: Mapping[int, PlayerRating]
    ) -> dict[int, PlayerRating] | None: ...

    def learn(
        self,
        round_id: int,
        game: RatedGame,
        before: Mapping[int, PlayerRating],
        after: dict[int, PlayerRating],
    ) -> None: ...


def rate_round(
    state: Mapping[int, PlayerRating],
    games: Iterable[RatedGame],
    *,
    memo: Memo | None = None,
    round_id: int = 0,
) -> dict[int, PlayerRating]:
    """The round's games rated together from ``state`` (the ratings before the round): each
    player who played, their rating after the round. ``state`` is not changed. A ``memo``
    saves re-rating a game rated before from the same ratings (the same floats either way)."""
    after: dict[int, PlayerRating] = {}
    current: Mapping[int, PlayerRating] = state
    for one_pass in passes(games):
        changes: dict[int, PlayerRating] = {}
        for game in one_pass:
            # every game of the pass reads the state before the pass, never a neighbour's change
            known = None if memo is None else memo.known(round_id, game, current)
            if known is None:
                known = rate_game(current, game)
                if memo is not None:
                    memo.learn(round_id, game, current, known)
            changes.update(known)
        after.update(changes)
        current = _Overlay(state, after)
    return after


class _Overlay(Mapping[int, PlayerRating]):
    """``changes`` over ``base``, without copying ``base`` (a season holds many players)."""

    def __init__(self, base: Mapping[int, PlayerRating], changes: dict[int, PlayerRating]):
        self._base = base
        self._changes = dict(changes)

    def __getitem__(self, key: int) -> PlayerRating:
        if key in self._changes:
            return self._changes[key]
        return self._base[key]

    def __iter__(self) -> Iterator[int]:
        yield from self._changes
        yield from (key for key in self._base if key not in self._changes)

    def __len__(self) -> int:
        return len(set(self._base) | set(self._changes))


def rate_rounds(
    rounds: Iterable[RatedRound],
    start: Mapping[int, PlayerRating] | None = None,
    *,
    memo: Memo | None = None,
) -> Iterator[tuple[RatedRound, dict[int, PlayerRating]]]:
    """Re-rate ``rounds`` in position order from ``start`` (default: everyone new): yields each
    round with the ratings after it of the players who played in it. ``start`` is not changed.

    Deterministic: the same rounds and start give the same floats, whatever order the rounds
    and their games are given in.
    """
    state: dict[int, PlayerRating] = dict(start or {})
    for rnd in sorted(rounds, key=lambda r: (r.position, r.round_id)):
        after = rate_round(state, rnd.games, memo=memo, round_id=rnd.round_id)
        state.update(after)
        yield rnd, after
