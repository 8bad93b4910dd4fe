"""The stage of a bracket match (what a play-off format is set by), on plain brackets."""

from __future__ import annotations

import pytest

from tournaments.pairing.brackets import double_elimination, single_elimination
from tournaments.pairing.stages import STAGES, stage_label, stage_of


def test_single_elimination_counts_back_from_the_final_through_byes() -> None:
    two = single_elimination([1, 2], qualifiers=2)
    assert [stage_of(two, m.match_id) for r in two.rounds for m in r.matches] == ["final"]
    three = single_elimination([1, 2, 3], qualifiers=3)  # seed 1 has a bye into the final
    assert stage_of(three, "W1-1") == "semi_final" and stage_of(three, "W2-1") == "final"
    sixteen = single_elimination(list(range(1, 17)), qualifiers=16, consolation="third_place")
    stages = {m.match_id: stage_of(sixteen, m.match_id) for r in sixteen.rounds for m in r.matches}
    assert stages["W4-1"] == "final" and stages["3P"] == "third_place"
    assert {stages[f"W3-{k}"] for k in (1, 2)} == {"semi_final"}
    assert {stages[f"W2-{k}"] for k in range(1, 5)} == {"quarter_final"}
    assert {stages[f"W1-{k}"] for k in range(1, 9)} == {"earlier"}


def test_first_round_losers_play_earlier_rounds() -> None:
    b = single_elimination(list(range(1, 9)), qualifiers=8, consolation="first_round_losers")
    consolation = [m.match_id for r in b.rounds if r.section == "consolation" for m in r.matches]
    assert consolation and {stage_of(b, m) for m in consolation} == {"earlier"}
    assert stage_label(b, consolation[-1]).startswith("Consolation")


def test_double_elimination_finals_and_the_matches_that_feed_them() -> None:
    b = double_elimination(list(range(1, 9)), qualifiers=8, reset=True)
    assert stage_of(b, "GF") == stage_of(b, "GF2") == "final"
    assert stage_label(b, "GF") == "Grand final" and stage_label(b, "GF2") == "Grand final (reset)"
    last_w = max(r.round_no for r in b.rounds if r.section == "winners")
    last_l = max(r.round_no for r in b.rounds if r.section == "losers")
    assert stage_of(b, f"W{last_w}-1") == "semi_final"
    assert stage_of(b, f"L{last_l}-1") == "semi_final"
    assert stage_of(b, f"W{last_w - 1}-1") == "quarter_final"
    assert stage_of(b, "L1-1") == "earlier"
    every = {stage_of(b, m.match_id) for r in b.rounds for m in r.matches}
    assert every <= set(STAGES)
    with pytest.raises(KeyError):
        stage_of(b, "W9-9")
