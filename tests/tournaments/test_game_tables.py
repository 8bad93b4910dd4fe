"""An event's table sizes and the engine's options for a table of many, from ``tournaments.game``;
the one reader (and the form's parser) of ``Event.placing_points``."""

from __future__ import annotations

from fractions import Fraction

import pytest

import scoring
from tournaments import game
from tournaments.models import Event, Match
from tournaments.standings.multiplayer import DEFAULT_PLACES, PlacingPoints

SINGLE = Event.EntryKind.SINGLE


@pytest.mark.parametrize(
    ("size", "mixed", "sizes"),
    [(2, True, (2,)), (3, True, (3, 2)), (3, False, (3,)), (4, True, (4, 3)), (4, False, (4,))],
)
def test_table_sizes_follow_the_setting(size: int, mixed: bool, sizes: tuple[int, ...]) -> None:
    event = Event(rules="all-fives", entry_kind=SINGLE, table_size=size, mixed_table_sizes=mixed)
    assert game.table_sizes(event) == sizes
    assert game.seats_tables_of_many(event) == (size > 2)


def test_partnership_events_seat_two_entries() -> None:
    event = Event(rules="five-up", entry_kind=Event.EntryKind.PARTNERSHIP, table_size=2)
    assert game.table_sizes(event) == (2,)
    assert game.match_options(event).players == 4


def test_a_neighbour_size_the_engine_refuses_is_left_out() -> None:
    # 9 tiles each: three players of All Fives can, four cannot (28 tiles)
    event = Event(rules="all-fives", entry_kind=SINGLE, table_size=3, hand_size=9)
    assert game.table_sizes(event) == (3, 2)
    four = Event(rules="all-fives", entry_kind=SINGLE, table_size=4, hand_size=7)
    assert game.table_sizes(four) == (4, 3)


@pytest.mark.parametrize("rules", list(scoring.RULESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_table_of_many_plays_the_engines_game(rules: str, players: int) -> None:
    event = Event(rules=rules, entry_kind=SINGLE, table_size=4)
    match = Match(table_entries=players)
    engine = scoring.find_ruleset(rules)
    assert game.match_options(event, match) == engine.options(players, partnerships=False)
    assert game.expected_game(event, match) == {
        "rules": rules,
        "players": players,
        "partnerships": False,
        "target": engine.default_target(players),
        "hand_size": engine.deal_size(players),
    }


def test_table_size_problems_say_what_to_fix() -> None:
    partnership = game.option_problems(
        rules="five-up", entry_kind="partnership", target=None, hand_size=None, table_size=3
    )
    assert "individual players" in partnership["table_size"]
    hand = game.option_problems(
        rules="all-fives", entry_kind=SINGLE, target=None, hand_size=9, table_size=4
    )
    assert "4 players" in hand["hand_size"]


def test_placing_points_default_and_stored() -> None:
    event = Event(placing_points={})
    assert game.placing_points(event) == PlacingPoints()
    event.placing_points = game.parse_placing_points("5, 3, 1.5, 0; 3/2,1,0")
    read = game.placing_points(event)
    assert read.for_size(4) == (5, 3, Fraction(3, 2), 0)
    assert read.for_size(3) == (Fraction(3, 2), 1, 0)
    assert read.for_size(2) == DEFAULT_PLACES[2]
    event.placing_points = game.parse_placing_points("proportional 10")
    assert game.placing_points(event).proportional == 10
    assert game.placing_points_text(event.placing_points) == "proportional 10"
    event.placing_points = {"4": ["x"]}  # hand-edited nonsense: the defaults, never a failure
    assert game.placing_points(event) == PlacingPoints()


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("1,2", "from 1st place down"),
        ("4,2,1,0; 5,3,1,0", "given twice"),
        ("4,2,1,0,0", "5 numbers"),
        ("four, two", "not a list of points"),
        ("proportional", "proportional 10"),
        ("proportional -3", "proportional 10"),
        ("4,-1,0", "not a list of points"),
        ("4;2;1;0", "with commas"),
        ("4 2 1 0", "with commas"),
    ],
)
def test_placing_points_refusals_say_what_to_fix(typed: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        game.parse_placing_points(typed)


def test_placing_points_text_round_trips() -> None:
    for typed in ("4,2,1,0; 4,2,0", "3,3/2,1,0", ""):
        assert game.placing_points_text(game.parse_placing_points(typed)) == typed
