"""A final score only is refused where no game under the event's rules ends with it: a score
off the game's step (5 raw points; 2.5 in All Fives at a table of three, where a settlement
splits in halves), or more players past the target than the rules let end a match."""

from __future__ import annotations

from fractions import Fraction

import pytest

import scoring
from tests.tournaments import results_support, tables_support
from tournaments import game
from tournaments.errors import SpinnerError
from tournaments.models import Claim, Event
from tournaments.presenters.table import page_config
from tournaments.services import claims

pytestmark = pytest.mark.django_db


def refusal(match, final_score):  # type: ignore[no-untyped-def]
    with pytest.raises(SpinnerError) as exc:
        claims.submit_claim(match=match, side=0, final_score=final_score)
    return exc.value


def test_the_engine_says_the_step_and_how_many_may_end_past_the_target() -> None:
    all_fives, five_up = scoring.find_ruleset("all-fives"), scoring.find_ruleset("five-up")
    assert [all_fives.score_step(n) for n in (2, 3, 4)] == [5, Fraction(5, 2), 5]
    assert [five_up.score_step(n) for n in (2, 3, 4)] == [5, 5, 5]
    assert all_fives.options(2).most_past_target() == 1
    assert all_fives.options(4).most_past_target() == 1  # partnerships: two entities
    assert all_fives.options(3).most_past_target() == 3  # a split can tie two past it
    assert five_up.options(4).most_past_target() == 2  # checked only after a settled hand


def test_a_table_of_three_in_all_fives_refuses_a_score_off_its_half_step() -> None:
    event = tables_support.make_event("three", target=200, allow_final_score_only=True)
    match = tables_support.table_at(tables_support.make_round(event), 1)
    assert game.score_step(event, match) == Fraction(5, 2)
    refused = refusal(match, {"scores": [150.5, 200, 90]})
    assert refused.code == "invalid_score" and refused.details == {"field": 0}
    assert refused.message.startswith("Seat A: 150.5 ")
    assert "steps of 2.5 (type 150 or 152.5)" in refused.message
    assert refusal(match, {"scores": [150, 201, 90]}).details == {"field": 1}
    assert not Claim.objects.filter(match=match).exists()
    out = claims.submit_claim(match=match, side=0, final_score={"scores": [152.5, 200, 90]})
    assert out.claim.scores_halves == [305, 400, 180]
    # two past the target is a game a split can leave (then one goes uniquely ahead)
    out = claims.submit_claim(match=match, side=1, final_score={"scores": [202.5, 210, 90]})
    assert out.claim.scores_halves == [405, 420, 180]


def test_a_table_of_four_counts_in_fives_and_ends_with_one_past_the_target() -> None:
    event = tables_support.make_event("four", table_size=4, allow_final_score_only=True)
    match = tables_support.table_at(tables_support.make_round(event, (4,)), 1)
    assert refusal(match, {"scores": [100, 52.5, 20, 0]}).details == {"field": 1}
    both = refusal(match, {"scores": [105, 100, 20, 0]})
    assert both.code == "invalid_score" and both.details == {"field": None}
    assert both.message.startswith("Seat A, Seat B are all at or past 100")
    out = claims.submit_claim(match=match, side=0, final_score={"scores": [105, 95, 20, 0]})
    assert out.claim.scores_halves == [210, 190, 40, 0]


def test_two_sides_must_be_on_the_step_and_all_fives_ends_with_one_past_the_target() -> None:
    event = results_support.make_event("two", allow_final_score_only=True)
    match = results_support.match_at(results_support.make_round(event), 1)
    refused = refusal(match, {"scores": [100, 97.5]})
    assert refused.details == {"field": 1} and refused.message.startswith("Side B: 97.5 ")
    assert "type 95 or 100" in refused.message
    assert refusal(match, {"scores": [102, 95]}).details == {"field": 0}
    assert refusal(match, {"scores": [110, 100]}).details == {"field": None}
    assert claims.submit_claim(match=match, side=0, final_score={"scores": [110, 95]}).created


def test_five_up_counts_whole_displayed_points_and_may_end_with_both_past_the_target() -> None:
    event = results_support.make_event(
        "up", rules=Event.Rules.FIVE_UP, target=None, allow_final_score_only=True
    )
    match = results_support.match_at(results_support.make_round(event), 1)
    refused = refusal(match, {"scores": [312.5, 300]})  # 62.5 displayed
    assert "62.5" in refused.message and "type 62 or 63" in refused.message
    out = claims.submit_claim(match=match, side=0, final_score={"scores": [320, 310]})
    assert out.claim.score_a_halves == 640


def test_the_phone_is_told_the_step_in_displayed_points() -> None:
    event = tables_support.make_event("cfg", target=200, allow_final_score_only=True)
    rnd = tables_support.make_round(event, (3, 4))
    three, four = (tables_support.table_at(rnd, n) for n in (1, 2))
    config = page_config(three, "t", csrf="c")
    assert (config["score_step"], config["most_past_target"]) == (2.5, 3)
    config = page_config(four, "t", csrf="c")
    assert (config["score_step"], config["most_past_target"]) == (5.0, 1)
