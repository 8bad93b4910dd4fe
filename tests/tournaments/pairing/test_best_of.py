import pytest

from tournaments.pairing import BEST_OF, decide_series
from tournaments.pairing.best_of import games_to_decide


def test_a_best_of_three_decided_two_nil() -> None:
    first = decide_series(3, 11, 12, [11])
    assert (first.winner, first.next_game, first.wins_a, first.wins_b) == (None, 2, 1, 0)
    done = decide_series(3, 11, 12, [11, 11])
    assert done.decided and done.winner == 11 and done.next_game is None
    assert (done.wins_a, done.wins_b, done.needed) == (2, 0, 2)


def test_a_best_of_three_decided_two_one() -> None:
    level = decide_series(3, 11, 12, [12, 11])
    assert not level.decided and level.next_game == 3
    done = decide_series(3, 11, 12, [12, 11, 12])
    assert done.winner == 12 and (done.wins_a, done.wins_b) == (1, 2)


@pytest.mark.parametrize("n", BEST_OF)
def test_every_format_needs_a_majority(n: int) -> None:
    games: list[int] = []
    for number in range(1, n + 1):  # alternate wins, the last game decides
        state = decide_series(n, 1, 2, games)
        assert state.winner is None and state.next_game == number
        games.append(1 if number % 2 else 2)
    state = decide_series(n, 1, 2, games)
    assert state.winner == 1 and state.wins_a == n // 2 + 1 and state.next_game is None


def test_malformed_series_fail_loudly() -> None:
    with pytest.raises(ValueError, match="best_of"):
        decide_series(2, 1, 2, [])
    with pytest.raises(ValueError, match="not entry"):
        decide_series(3, 1, 2, [3])
    with pytest.raises(ValueError, match="after entry 1 won"):
        decide_series(3, 1, 2, [1, 1, 2])
    with pytest.raises(ValueError, match="two different"):
        decide_series(1, 1, 1, [])


def test_games_to_decide_sees_games_played_past_the_decision() -> None:
    assert games_to_decide(3, 1, 2, [1, 1, 2]) == 2  # game 3 should never have been played
    assert games_to_decide(5, 1, 2, [1, 2, 1, 2]) is None
    assert games_to_decide(1, 1, 2, [2]) == 1
    assert games_to_decide(3, 1, 2, []) is None
