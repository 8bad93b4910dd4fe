"""Rule sets found by name, their options and their settlements (rules.md)."""

from fractions import Fraction

import pytest

from scoring.rules import OptionError, UnknownRuleSet, find_ruleset, round5


def test_round5_follows_the_remainder_rule() -> None:
    assert [round5(n) for n in range(10)] == [0, 0, 0, 5, 5, 5, 5, 5, 10, 10]
    assert round5(12) == 10
    assert round5(13) == 15


def test_defaults_per_rule_set_and_player_count() -> None:
    fu, af, f7 = find_ruleset("five-up"), find_ruleset("all-fives"), find_ruleset("five-up-7")
    assert find_ruleset().name == "five-up"
    assert [fu.deal_size(n) for n in (2, 3, 4)] == [5, 5, 5]
    assert [af.deal_size(n) for n in (2, 3, 4)] == [9, 7, 5]
    assert [f7.deal_size(n) for n in (2, 3, 4)] == [7, 7, 7]
    assert [af.default_target(n) for n in (2, 3, 4)] == [250, 200, 200]
    assert fu.default_target(4) == f7.default_target(2) == 305
    assert fu.default_partnerships(4) and af.default_partnerships(4)
    assert not f7.default_partnerships(4)
    assert not fu.default_partnerships(3)


def test_unknown_names_and_options_fail_loudly() -> None:
    with pytest.raises(UnknownRuleSet):
        find_ruleset("sniff")
    fu = find_ruleset("five-up")
    with pytest.raises(OptionError):
        fu.options(5)
    with pytest.raises(OptionError):
        fu.options(3, partnerships=True)
    with pytest.raises(OptionError):
        fu.options(4, hand_size=8)
    with pytest.raises(OptionError):
        fu.options(2, target=0)
    assert issubclass(UnknownRuleSet, ValueError) and issubclass(OptionError, ValueError)
    o = find_ruleset("five-up-7").options(4, partnerships=True, target=100, hand_size=6)
    assert (o.entities, o.entity_of, o.target, o.boneyard_size) == (2, (0, 1, 0, 1), 100, 4)


def test_five_up_debits_each_seat_rounded_on_its_own() -> None:
    settle = find_ruleset("five-up").settle
    # Partners each keep 3 pips: each rounds to 5, the partnership loses 10 (seed 000).
    assert settle([3, 0, 3, 2], [0, 1, 0, 1], 2, None) == [-10, 0]
    assert settle([0, 12, 13], [0, 1, 2], 3, 0) == [0, -10, -15]


def test_all_fives_awards_the_winner_all_opponents_pips_rounded_once() -> None:
    settle = find_ruleset("all-fives").settle
    assert settle([0, 6, 6], [0, 1, 2], 3, 0) == [10, 0, 0]  # 12 rounds to 10
    assert settle([4, 7, 3, 9], [0, 1, 0, 1], 2, None) == [15, 0]  # blocked, team 0 low
    assert settle([5, 5, 3, 3], [0, 1, 0, 1], 2, None) == [0, 0]  # tied low at four
    assert settle([4, 4, 5], [0, 1, 2], 3, None) == [Fraction(5, 2), Fraction(5, 2), 0]
    assert settle([4, 4, 13], [0, 1, 2], 3, None) == [Fraction(15, 2), Fraction(15, 2), 0]
    assert settle([4, 4, 4], [0, 1, 2], 3, None) == [0, 0, 0]
    assert settle([2, 2, 10], [0, 1, 2], 3, None) == [5, 5, 0]


def test_five_up_7_sums_each_opponent_rounded_alone() -> None:
    settle = find_ruleset("five-up-7").settle
    assert settle([0, 3, 3], [0, 1, 2], 3, 0) == [10, 0, 0]
    assert settle([4, 4, 9], [0, 1, 2], 3, None) == [0, 0, 0]  # tied low: nothing
    assert settle([1, 4, 9], [0, 1, 2], 3, None) == [15, 0, 0]
