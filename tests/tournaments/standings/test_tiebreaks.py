"""Every tiebreak on crafted records whose values were worked out by hand (in the comments)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.tournaments.standings.builders import bye, draw, entries, half, win
from tournaments.standings import (
    TIEBREAKS,
    PointsConfig,
    Result,
    RoundKind,
    Standings,
    compute_standings,
    find_tiebreak,
    tally,
)
from tournaments.standings.tiebreaks import head_to_head

POINTS = PointsConfig(win=2, draw=1, loss=0, bye=2)
ALL = [
    "match_points",
    "wins",
    "points_for",
    "points_against",
    "spread",
    "buchholz",
    "median_buchholz",
    "opponents_win_rate",
]


def round_robin_of_four() -> list[Result]:
    """1 beat 2 and 3, lost to 4; 2 beat 4 and 3; 3 drew 4.

    Match points: 1: 4, 2: 4, 3: 1, 4: 3.
    """
    return [
        win(1, 1, 2, 305, 200),
        draw(1, 3, 4, 150),
        win(2, 1, 3, 305, 300),
        win(2, 2, 4, 305, 100),
        win(3, 4, 1, 305, 250),
        win(3, 2, 3, 305, 295),
    ]


def column(standings: Standings, name: str) -> dict[object, object]:
    return {row.entry_id: standings.value(row, name) for row in standings.rows}


def test_every_entry_tiebreak_on_a_round_robin_of_four() -> None:
    s = compute_standings(entries(1, 2, 3, 4), round_robin_of_four(), points=POINTS, tiebreaks=ALL)
    assert column(s, "match_points") == {1: 4, 2: 4, 3: 1, 4: 3}
    assert column(s, "wins") == {1: 2, 2: 2, 3: 0, 4: 1}
    # 1: 305+305+250 for, 200+300+305 against; 2: 200+305+305 / 305+100+295; ...
    assert column(s, "points_for") == {1: 860, 2: 810, 3: 745, 4: 555}
    assert column(s, "points_against") == {1: 805, 2: 700, 3: 760, 4: 705}
    assert column(s, "spread") == {1: 55, 2: 110, 3: -15, 4: -150}
    # Opponents' match points: 1 met 2,3,4 (4+1+3); 2 met 1,4,3; 3 met 4,1,2; 4 met 3,2,1.
    assert column(s, "buchholz") == {1: 8, 2: 8, 3: 11, 4: 9}
    # Drop the highest and the lowest of three: 1: {4,1,3} -> 3; 3: {3,4,4} -> 4.
    assert column(s, "median_buchholz") == {1: 3, 2: 3, 3: 4, 4: 4}
    # Win rates: 1, 2: 2/3; 3: (0 + 1/2)/3 = 1/6; 4: (1 + 1/2)/3 = 1/2.
    # 1: (2/3 + 1/6 + 1/2)/3 = 4/9; 3: (1/2 + 2/3 + 2/3)/3 = 11/18; 4: (1/6 + 4/3)/3 = 1/2.
    assert column(s, "opponents_win_rate") == {
        1: Fraction(4, 9),
        2: Fraction(4, 9),
        3: Fraction(11, 18),
        4: Fraction(1, 2),
    }
    # match points, then wins (equal), points for: 1 ahead of 2.
    assert [r.entry_id for r in s.rows] == [1, 2, 4, 3]
    assert [r.rank for r in s.rows] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("second", "order", "ranks"),
    [
        ("spread", [2, 1, 4, 3], [1, 2, 3, 4]),
        ("points_against", [2, 1, 4, 3], [1, 2, 3, 4]),  # lower is better: 700 before 805
        ("points_for", [1, 2, 4, 3], [1, 2, 3, 4]),
        ("buchholz", [1, 2, 4, 3], [1, 1, 3, 4]),  # 8 = 8: 1 and 2 share the rank
        ("median_buchholz", [1, 2, 4, 3], [1, 1, 3, 4]),
        ("opponents_win_rate", [1, 2, 4, 3], [1, 1, 3, 4]),
        ("head_to_head", [1, 2, 4, 3], [1, 2, 3, 4]),  # 1 beat 2
    ],
)
def test_second_key_orders_the_tied_pair(second: str, order: list[int], ranks: list[int]) -> None:
    s = compute_standings(
        entries(4, 3, 2, 1),
        round_robin_of_four(),
        points=POINTS,
        tiebreaks=["match_points", second],
    )
    assert [r.entry_id for r in s.rows] == order
    assert [r.rank for r in s.rows] == ranks


def test_head_to_head_value_is_the_mini_table_and_none_where_it_does_not_apply() -> None:
    s = compute_standings(
        entries(1, 2, 3, 4),
        round_robin_of_four(),
        points=POINTS,
        tiebreaks=["match_points", "head_to_head"],
    )
    # 1 and 2 are tied on 4: 1 earned 2 against 2, 2 earned 0; 3 and 4 were already separated.
    assert column(s, "head_to_head") == {1: 2, 2: 0, 3: None, 4: None}


def three_way() -> list[Result]:
    """a, b, c end on 4 match points each; among them a beat b and c, b drew c.

    b also beat e and drew f; c beat f and drew e. e and f (1 each) never met.
    """
    return [
        win(1, "a", "b"),
        win(2, "a", "c"),
        draw(3, "b", "c"),
        win(4, "b", "e"),
        draw(5, "b", "f"),
        win(4, "c", "f"),
        draw(5, "c", "e"),
    ]


def test_three_way_head_to_head_orders_by_the_mini_table() -> None:
    s = compute_standings(
        entries("a", "b", "c", "e", "f"),
        three_way(),
        points=POINTS,
        tiebreaks=["match_points", "head_to_head"],
    )
    assert column(s, "match_points") == {"a": 4, "b": 4, "c": 4, "e": 1, "f": 1}
    # Mini-table among a, b, c: a 2 + 2, b 0 + 1, c 0 + 1.
    assert column(s, "head_to_head") == {"a": 4, "b": 1, "c": 1, "e": None, "f": None}
    assert [(r.rank, r.entry_id) for r in s.rows] == [
        (1, "a"),
        (2, "b"),
        (2, "c"),
        (4, "e"),  # e and f never met: head-to-head does not separate them
        (4, "f"),
    ]


def test_head_to_head_listed_again_applies_among_the_entries_it_left_tied() -> None:
    """Four tied on 5: mini-table a 5, b 3, c 3, d 1; b beat c, so listing it again splits them."""
    results = [
        win(1, "a", "b"),
        draw(2, "a", "c"),
        win(3, "a", "d"),
        win(2, "b", "c"),
        draw(1, "b", "d"),
        win(3, "c", "d"),
        win(4, "b", "e"),
        win(4, "c", "f"),
        win(5, "d", "e"),
        win(6, "d", "f"),
    ]
    once = compute_standings(
        entries("a", "b", "c", "d", "e", "f"),
        results,
        points=POINTS,
        tiebreaks=["match_points", "head_to_head"],
    )
    assert column(once, "match_points") == {"a": 5, "b": 5, "c": 5, "d": 5, "e": 0, "f": 0}
    assert column(once, "head_to_head") == {
        "a": 5,
        "b": 3,
        "c": 3,
        "d": 1,
        "e": None,
        "f": None,
    }
    assert [(r.rank, r.entry_id) for r in once.rows] == [
        (1, "a"),
        (2, "b"),
        (2, "c"),
        (4, "d"),
        (5, "e"),
        (5, "f"),
    ]
    twice = compute_standings(
        entries("a", "b", "c", "d", "e", "f"),
        results,
        points=POINTS,
        tiebreaks=["match_points", "head_to_head", "head_to_head"],
    )
    assert [(r.rank, r.entry_id) for r in twice.rows][:4] == [
        (1, "a"),
        (2, "b"),
        (3, "c"),
        (4, "d"),
    ]
    assert [r.values[2] for r in twice.rows][:4] == [None, 2, 0, None]


def test_three_way_cycle_is_not_separated_by_head_to_head() -> None:
    results = [win(1, "a", "b"), win(2, "b", "c"), win(3, "c", "a")]
    s = compute_standings(
        entries("c", "b", "a"), results, points=POINTS, tiebreaks=["match_points", "head_to_head"]
    )
    assert column(s, "head_to_head") == {"a": 2, "b": 2, "c": 2}
    assert [(r.rank, r.entry_id) for r in s.rows] == [(1, "a"), (1, "b"), (1, "c")]


def test_head_to_head_does_not_separate_a_group_that_has_not_all_met() -> None:
    """x, y, z on 2 each: x beat y, but z never met x or y; spread then decides."""
    results = [win(1, "x", "y", 305, 300), win(1, "z", "w", 305, 100), win(2, "y", "w", 305, 200)]
    t = tally(entries("w", "x", "y", "z"), results, POINTS)
    assert head_to_head(t, ["x", "y", "z"]) == {"x": None, "y": None, "z": None}
    assert head_to_head(t, ["x", "y"]) == {"x": 2, "y": 0}
    assert head_to_head(t, ["x"]) == {"x": None}
    s = compute_standings(
        entries("w", "x", "y", "z"),
        results,
        points=POINTS,
        tiebreaks=["match_points", "head_to_head", "spread"],
    )
    # spread: z +205, y -5 + 105 = +100, x +5
    assert [r.entry_id for r in s.rows] == ["z", "y", "x", "w"]


def test_bye_counts_in_buchholz_as_an_opponent_with_the_entrys_own_score() -> None:
    """Three entries, two rounds, bye worth 2: round 1: 1 beat 2, 3 bye; round 2: 3 beat 1, 2 bye.

    Match points 1: 2, 2: 2, 3: 4. Buchholz 1: 2 + 4 = 6; 2: 2 (met 1) + 2 (own, bye) = 4;
    3: 4 (own, bye) + 2 (met 1) = 6. Median Buchholz has two scores only: nothing dropped.
    """
    results = [win(1, 1, 2, 305, 100), bye(1, 3), win(2, 3, 1, 305, 200), bye(2, 2)]
    s = compute_standings(entries(1, 2, 3), results, points=POINTS, tiebreaks=ALL)
    assert column(s, "match_points") == {1: 2, 2: 2, 3: 4}
    assert column(s, "buchholz") == {1: 6, 2: 4, 3: 6}
    assert column(s, "median_buchholz") == {1: 6, 2: 4, 3: 6}
    # A bye is not a win, adds no raw points, and brings no opponent to the win rate.
    assert column(s, "wins") == {1: 1, 2: 0, 3: 1}
    assert column(s, "points_for") == {1: 505, 2: 100, 3: 305}
    assert column(s, "points_against") == {1: 405, 2: 305, 3: 200}
    # Win rates: 1: 1/2, 2: 0/1, 3: 1/1. 2 met only 1; 3 met only 1; 1 met 2 and 3.
    assert column(s, "opponents_win_rate") == {
        1: Fraction(1, 2),
        2: Fraction(1, 2),
        3: Fraction(1, 2),
    }
    assert s.row(3).byes == 1 and s.row(3).played == 1


def test_bye_points_are_the_event_setting() -> None:
    results = [win(1, 1, 2), bye(1, 3)]
    s = compute_standings(
        entries(1, 2, 3), results, points=PointsConfig(win=3, bye=1), tiebreaks=["match_points"]
    )
    assert column(s, "match_points") == {1: 3, 2: 0, 3: 1}


def test_median_buchholz_drops_one_highest_and_one_lowest() -> None:
    """Entry 0 met 1, 2, 3, 4, whose match points end at 6, 4, 2, 0 (after their other games)."""
    results = [
        win(1, 1, 0),
        win(2, 0, 2),
        win(3, 0, 3),
        win(4, 0, 4),
        win(5, 1, 9),
        win(6, 1, 9),
        win(5, 2, 9),
        win(6, 2, 8),
        win(5, 3, 8),
    ]
    t = tally(entries(0, 1, 2, 3, 4, 8, 9), results, POINTS)
    assert {e: t.entries[e].match_points for e in (0, 1, 2, 3, 4)} == {0: 6, 1: 6, 2: 4, 3: 2, 4: 0}
    median = find_tiebreak("median_buchholz").entry
    plain = find_tiebreak("buchholz").entry
    assert median is not None and plain is not None
    assert plain(t, t.entries[0]) == 6 + 4 + 2 + 0
    assert median(t, t.entries[0]) == 4 + 2  # the 6 and the 0 dropped


def test_draws_and_halves_stay_exact() -> None:
    """All-fives with three players can split an award: raw scores in halves."""
    results = [
        Result(1, 1, RoundKind.SWISS, "p", "q", half(405), half(395), winner="p"),
        draw(2, "p", "r", half(301)),
        Result(3, 2, RoundKind.SWISS, "q", "r", 195, half(399), winner="r"),
    ]
    s = compute_standings(entries("p", "q", "r"), results, points=POINTS, tiebreaks=ALL)
    assert column(s, "match_points") == {"p": 3, "q": 0, "r": 3}
    assert column(s, "points_for") == {
        "p": Fraction(405 + 301, 2),
        "q": Fraction(395, 2) + 195,
        "r": Fraction(301 + 399, 2),
    }
    assert column(s, "spread") == {"p": 5, "q": Fraction(-19, 2), "r": Fraction(9, 2)}
    # p: 1 win 1 draw of 2 -> 3/4; q: 0/2; r: 3/4. p met q (0) and r (3/4) -> 3/8.
    assert column(s, "opponents_win_rate") == {
        "p": Fraction(3, 8),
        "q": Fraction(3, 4),
        "r": Fraction(3, 8),
    }
    assert s.row("p").draws == 1 and s.row("p").wins == 1
    assert b'"392.5"' in s.to_json_bytes()  # q's points for


def test_margin_bonus_needs_the_threshold_and_is_never_given_for_a_forfeit() -> None:
    points = PointsConfig(win=2, loss=0, margin_bonus=1, margin_threshold=100)
    results = [
        win(1, "a", "b", 305, 205),  # by exactly 100: bonus
        win(1, "c", "d", 305, 206),  # by 99: none
        win(2, "a", "c", 305, 0, forfeit=True),  # forfeit: none
    ]
    s = compute_standings(
        entries("a", "b", "c", "d"), results, points=points, tiebreaks=["match_points"]
    )
    assert column(s, "match_points") == {"a": 5, "b": 0, "c": 2, "d": 0}


def test_forfeit_counts_for_points_and_wins_but_is_an_unplayed_round_for_buchholz() -> None:
    """a beat b over the board; c did not show against a. b then beat c.

    a: 4 match points (2 wins). For Buchholz a met b (2) and has one unplayed round (own 4): 6.
    c's forfeit loss is unplayed too: own 0 + met b (2) = 2.
    """
    results = [
        win(1, "a", "b", 305, 100),
        win(2, "a", "c", 0, 0, forfeit=True),
        win(3, "b", "c", 305, 250),
    ]
    s = compute_standings(entries("a", "b", "c"), results, points=POINTS, tiebreaks=ALL)
    assert column(s, "match_points") == {"a": 4, "b": 2, "c": 0}
    assert column(s, "wins") == {"a": 2, "b": 1, "c": 0}
    assert column(s, "buchholz") == {"a": 6, "b": 4, "c": 2}
    # win rates: a 1, b 1/2, c 0. a met b only; b met a and c; c met b only.
    assert column(s, "opponents_win_rate") == {
        "a": Fraction(1, 2),
        "b": Fraction(1, 2),
        "c": Fraction(1, 2),
    }
    assert s.row("a").forfeits == 1 and s.row("c").forfeits == 1


def test_double_forfeit_is_a_loss_for_both() -> None:
    r = Result(1, 1, RoundKind.SWISS, "a", "b", 0, 0, None, forfeit=True)
    s = compute_standings(entries("a", "b"), [r], points=POINTS, tiebreaks=["match_points"])
    assert column(s, "match_points") == {"a": 0, "b": 0}
    assert s.row("a").losses == 1 and s.row("b").losses == 1


def test_every_tiebreak_is_documented_and_found_by_name() -> None:
    assert set(TIEBREAKS) == {*ALL, "head_to_head"}
    for name, t in TIEBREAKS.items():
        assert find_tiebreak(name) is t
        assert t.description and t.description != name
        assert (t.entry is None) != (t.group is None)
    assert [n for n, t in TIEBREAKS.items() if not t.higher_is_better] == ["points_against"]
