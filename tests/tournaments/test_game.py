"""The Django side's game facts come from the engine: every rule set and table size."""

from __future__ import annotations

from fractions import Fraction

import pytest

import scoring
from tournaments import game
from tournaments.models import Event

KINDS = [(Event.EntryKind.PARTNERSHIP, 4, True), (Event.EntryKind.SINGLE, 2, False)]


@pytest.mark.parametrize("rules", list(scoring.RULESETS))
@pytest.mark.parametrize(("kind", "seats", "partnerships"), KINDS)
def test_event_options_are_the_engines(
    rules: str, kind: str, seats: int, partnerships: bool
) -> None:
    event = Event(rules=rules, entry_kind=kind)
    engine = scoring.find_ruleset(rules)
    options = game.match_options(event)
    assert options == engine.options(seats, partnerships=partnerships)
    assert game.seats_per_table(kind) == seats
    assert game.expected_game(event) == {
        "rules": rules,
        "players": seats,
        "partnerships": partnerships,
        "target": engine.default_target(seats),
        "hand_size": engine.deal_size(seats),
    }
    assert game.displayed_divisor(event) == engine.displayed_divisor


def test_event_overrides_reach_the_engine() -> None:
    event = Event(rules="five-up", entry_kind=Event.EntryKind.PARTNERSHIP, target=605, hand_size=6)
    options = game.match_options(event)
    assert (options.target, options.hand_size) == (605, 6)


def test_option_problems_are_the_engines_words() -> None:
    problems = game.option_problems(
        rules="five-up", entry_kind=Event.EntryKind.PARTNERSHIP, target=0, hand_size=8
    )
    assert set(problems) == {"target", "hand_size"}
    assert "hand size must be 1 to 7" in problems["hand_size"]
    assert (
        game.option_problems(
            rules="five-up", entry_kind=Event.EntryKind.SINGLE, target=None, hand_size=14
        )
        == {}
    )
    assert "rules" in game.option_problems(
        rules="fives", entry_kind=Event.EntryKind.SINGLE, target=None, hand_size=None
    )


def test_units_round_trip() -> None:
    assert game.raw_from_displayed("61", "five-up") == 305
    assert game.displayed_from_raw(302, "five-up-7") == Fraction(302, 5)
    assert game.format_displayed(302, "five-up") == "60.4"
    assert game.format_displayed(250, "all-fives") == "250"
    assert game.raw_from_displayed("40", "all-fives") == 40
    assert game.format_displayed([305, 200], "five-up") == "61, 40"
    assert game.format_displayed("n/a", "five-up") == "n/a"
    assert game.unit_label("five-up") == "points (5 pips = 1)"
    assert game.unit_label("all-fives") == "points"


@pytest.mark.parametrize("rules", list(scoring.RULESETS))
@pytest.mark.parametrize(("kind", "seats", "partnerships"), KINDS)
def test_most_pips_left_come_from_the_tile_set(
    rules: str, kind: str, seats: int, partnerships: bool
) -> None:
    """The table page's plausibility bounds: a hand holds at most its deal and the boneyard; all
    hands at most every tile but the one that opened; never more than the set's 168 pips."""
    event = Event(rules=rules, entry_kind=kind)
    options = game.match_options(event)
    bounds = game.max_pips_left(event)
    set_pips = sum(t.pips for t in scoring.tiles.TILES)
    heaviest = max(t.pips for t in scoring.tiles.TILES)
    assert set_pips == 168
    assert options.hand_size * heaviest // 2 < bounds["hand"] <= bounds["all"] <= set_pips
    assert bounds["hand"] <= (options.hand_size + options.boneyard_size) * heaviest


def test_running_scores_are_the_engines_after_each_hand() -> None:
    sheet = next(scoring.simulate(rules="five-up", players=4, seed=7))
    running = game.running_scores(sheet)
    assert len(running) == len(sheet["hands"])
    assert running[-1] == scoring.verify(sheet).as_dict()["scores"]
    for i in (0, len(sheet["hands"]) // 2):
        prefix = {**sheet, "hands": sheet["hands"][: i + 1]}
        prefix.pop("result", None)
        assert running[i] == scoring.verify(prefix).as_dict()["scores"]
    broken = {**sheet, "hands": [{"leader": 9}, *sheet["hands"]]}
    assert game.running_scores(broken)[0] is None
    assert game.running_scores("not a sheet") == []


def test_a_play_off_stage_format_falls_back_to_best_of_one_at_the_event_target() -> None:
    event = Event(
        rules="five-up",
        playoff_formats={
            "final": {"best_of": 5, "target": 605},
            "semi_final": {"best_of": 4, "target": "x"},  # no longer valid: the default
        },
    )
    assert game.playoff_format(event, "final") == (5, 605)
    assert game.playoff_format(event, "semi_final") == (1, None)
    assert game.playoff_format(event, "earlier") == (1, None)
    assert game.playoff_format_problems(
        rules="five-up", entry_kind="partnership", formats={"finals": {"best_of": 3}}
    ) == {
        "playoff_formats": "Unknown play-off stage 'finals': use final, semi_final, "
        "quarter_final, third_place, earlier."
    }
