"""The pure re-rate: a known example against openskill's own model and the documented
formulas, order independence within a round, passes for best-of series."""

from __future__ import annotations

import math
import random
from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tournaments.rating import PlayerRating, RatedGame, RatedRound, rate_round, rate_rounds
from tournaments.rating.engine import BETA, MU, SIGMA, TAU


def test_one_partnership_game_matches_the_documented_formulas() -> None:
    # Two teams of two new players; side A wins. Plackett-Luce with k = 2 (Weng & Lin 2011,
    # algorithm 4), computed by hand here:
    sigma2 = SIGMA**2 + TAU**2  # tau is added before the game
    team_sigma2 = 2 * sigma2
    c = math.sqrt(2 * (team_sigma2 + BETA**2))
    p_win = 0.5  # equal teams: exp(mu_a/c) / (exp(mu_a/c) + exp(mu_b/c))
    omega = team_sigma2 / c * (1 - p_win)
    # the winner's only comparison is with both teams (p = 1/2): delta = p (1 - p) sigma^2 / c^2
    delta = team_sigma2 / c**2 * p_win * (1 - p_win)
    gamma = math.sqrt(team_sigma2) / c
    mu_winner = MU + sigma2 / team_sigma2 * omega
    sigma_after = math.sqrt(sigma2) * math.sqrt(1 - sigma2 / team_sigma2 * delta * gamma)

    after = rate_round({}, [RatedGame.two_sides((1, 10), (1, 2), (3, 4), winner=0)])

    assert after[1] == after[2] and after[3] == after[4]
    assert math.isclose(after[1].mu, mu_winner, rel_tol=1e-12)
    assert math.isclose(after[3].mu, 2 * MU - mu_winner, rel_tol=1e-12)
    assert math.isclose(after[1].sigma, sigma_after, rel_tol=1e-12)
    assert after[1].games == 1


def test_a_round_rates_every_game_from_the_ratings_before_it() -> None:
    model = PlackettLuce()
    before = {1: PlayerRating(30.0, 5.0, 4), 2: PlayerRating(22.0, 6.0, 3)}
    games = [
        RatedGame.two_sides((1, 1), (1, 2), (3, 4), winner=1),
        RatedGame.two_sides((1, 2), (5, 6), (7, 8), winner=None),
    ]
    after = rate_round(before, games)

    # openskill's own model on the same teams, each game from the state before the round
    r = model.rate(
        [[model.rating(30.0, 5.0), model.rating(22.0, 6.0)], [model.rating(), model.rating()]],
        ranks=[1.0, 0.0],
    )
    assert (after[1].mu, after[1].sigma, after[1].games) == (r[0][0].mu, r[0][0].sigma, 5)
    assert (after[4].mu, after[4].sigma, after[4].games) == (r[1][1].mu, r[1][1].sigma, 1)
    draw = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[0.0, 0.0]
    )
    assert (after[5].mu, after[5].sigma) == (draw[0][0].mu, draw[0][0].sigma)


def test_a_best_of_series_rates_its_games_one_after_another() -> None:
    game1 = RatedGame.two_sides((1, 50), (1, 2), (3, 4), winner=0)
    game2 = RatedGame.two_sides((2, 51), (1, 2), (3, 4), winner=0)
    after = rate_round({}, [game2, game1])
    first = rate_round({}, [game1])
    assert after == rate_round(first, [game2]) | {}
    assert after[1].games == 2


def test_a_game_against_oneself_is_skipped() -> None:
    assert rate_round({}, [RatedGame.two_sides((1, 1), (1, 2), (2, 3), winner=0)]) == {}


@st.composite
def seasons(draw: st.DrawFn) -> list[RatedRound]:
    players = list(range(1, 17))
    rounds = []
    for number in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(players))
        games = []
        for table in range(4):
            four = order[4 * table : 4 * table + 4]
            winner = draw(st.sampled_from([0, 1, None]))
            games.append(RatedGame.two_sides((1, 100 * number + table), four[:2], four[2:], winner))
        rounds.append(RatedRound((date(2026, 1, 1), 1, number), number, tuple(games)))
    return rounds


@settings(max_examples=40, deadline=None)
@given(seasons(), st.randoms(use_true_random=False))
def test_confirmation_order_within_a_round_changes_nothing(
    rounds: list[RatedRound], rng: random.Random
) -> None:
    shuffled = []
    for rnd in rounds:
        games = list(rnd.games)
        rng.shuffle(games)
        shuffled.append(RatedRound(rnd.position, rnd.round_id, tuple(games)))
    rng.shuffle(shuffled)
    assert [after for _, after in rate_rounds(rounds)] == [
        after for _, after in rate_rounds(shuffled)
    ]


@settings(max_examples=30, deadline=None)
@given(seasons(), st.integers(0, 3))
def test_rating_from_a_round_on_equals_rating_from_scratch(
    rounds: list[RatedRound], cut: int
) -> None:
    cut = min(cut, len(rounds))
    whole = [after for _, after in rate_rounds(rounds)]
    state: dict[int, PlayerRating] = {}
    for after in whole[:cut]:
        state.update(after)
    assert [after for _, after in rate_rounds(rounds[cut:], state)] == whole[cut:]
