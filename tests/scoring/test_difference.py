"""``scoring.difference.first_difference``: the first hand and play where two sheets of one match
differ, and what differs, for tally and move sheets of every rule set and table size (sheets from
the simulator, each changed in one place)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scoring import simulate
from scoring.difference import first_difference

GAMES = [
    ("five-up", 2),
    ("five-up", 3),
    ("five-up", 4),
    ("all-fives", 2),
    ("all-fives", 3),
    ("all-fives", 4),
    ("five-up-7", 2),
    ("five-up-7", 3),
    ("five-up-7", 4),
]


def moves_sheet(rules: str, players: int) -> dict[str, Any]:
    return next(simulate(rules, players=players, seed=7))


def tally_sheet(rules: str, players: int) -> dict[str, Any]:
    """The simulated match in tally form: each hand's scoring plays by seat, its end and the
    pips left (no deal, no moves)."""
    sheet = copy.deepcopy(moves_sheet(rules, players))
    for hand in sheet["hands"]:
        moves = hand.pop("moves")
        hand.pop("deal", None)
        hand["tally"] = [
            {"seat": m["seat"], "score": m["score"]} for m in moves if m.get("score", 0) > 0
        ]
    return sheet


def scoring_play(sheet: dict[str, Any]) -> tuple[int, int]:
    """The first hand and play, after the first hand, where a play scores (else the first)."""
    found = []
    for i, hand in enumerate(sheet["hands"]):
        for j, item in enumerate(hand["tally"] if "tally" in hand else hand["moves"]):
            if item.get("score", 0) > 0:
                found.append((i, j))
    later = [f for f in found if f[0] > 0]
    return (later or found)[0]


def items(sheet: dict[str, Any], i: int) -> list[dict[str, Any]]:
    hand = sheet["hands"][i]
    found: list[dict[str, Any]] = hand["tally"] if "tally" in hand else hand["moves"]
    return found


@pytest.mark.parametrize(("rules", "players"), GAMES)
@pytest.mark.parametrize("form", ["tally", "moves"])
def test_a_play_given_to_another_seat_is_a_scorer_difference(
    rules: str, players: int, form: str
) -> None:
    a = tally_sheet(rules, players) if form == "tally" else moves_sheet(rules, players)
    b = copy.deepcopy(a)
    i, j = scoring_play(a)
    seat = items(a, i)[j]["seat"]
    items(b, i)[j]["seat"] = (seat + 1) % players
    assert first_difference(a, a) is None
    d = first_difference(a, b)
    assert d is not None
    assert (d.hand, d.move) == (i, j)
    # A play by another seat in move form is another turn unless only the scorer changed.
    assert d.what == "scorer"
    assert (d.a.seat, d.b.seat) == (seat, (seat + 1) % players)
    assert d.a.score == d.b.score == items(a, i)[j]["score"]
    assert first_difference(b, a) == d.swapped()


@pytest.mark.parametrize(("rules", "players"), GAMES)
@pytest.mark.parametrize("form", ["tally", "moves"])
def test_other_points_for_the_same_scorer_is_a_points_difference(
    rules: str, players: int, form: str
) -> None:
    a = tally_sheet(rules, players) if form == "tally" else moves_sheet(rules, players)
    b = copy.deepcopy(a)
    i, j = scoring_play(a)
    items(b, i)[j]["score"] += 5
    d = first_difference(a, b)
    assert d is not None
    assert (d.hand, d.move, d.what) == (i, j, "points")
    assert d.b.score - d.a.score == 5


@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_a_tally_entry_by_side_and_a_missing_play(rules: str, players: int) -> None:
    a = tally_sheet(rules, players)
    b = copy.deepcopy(a)
    i, j = scoring_play(a)
    entry = items(b, i)[j]
    items(b, i)[j] = {"entity": 0, "score": entry["score"] + 5}
    d = first_difference(a, b)
    assert d is not None and (d.hand, d.move, d.what) == (i, j, "entry")
    assert (d.b.entity, d.b.seat) == (0, None)
    c = copy.deepcopy(a)
    del items(c, i)[len(items(c, i)) - 1]
    d = first_difference(a, c)
    assert d is not None
    assert (d.hand, d.move, d.what) == (i, len(items(a, i)) - 1, "missing")
    assert d.b.kind == "none" and d.a.kind == "score"


@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_another_tile_or_another_place_in_move_form(rules: str, players: int) -> None:
    a = moves_sheet(rules, players)
    i, j = next(
        (i, j) for i, h in enumerate(a["hands"]) for j, m in enumerate(h["moves"]) if m.get("on")
    )
    move = items(a, i)[j]
    b = copy.deepcopy(a)
    items(b, i)[j]["on"] = "0-0" if move["on"] != "0-0" else "6-6"
    d = first_difference(a, b)
    assert d is not None and (d.hand, d.move, d.what) == (i, j, "placement")
    assert d.a.tile == d.b.tile and d.a.on != d.b.on
    c = copy.deepcopy(a)
    low, high = move["play"].split("-")
    items(c, i)[j]["play"] = f"{high}-{low}"  # the same tile spelt the other way round
    assert first_difference(a, c) is None
    items(c, i)[j]["play"] = "0-0" if move["play"] != "0-0" else "6-6"
    d = first_difference(a, c)
    assert d is not None and (d.hand, d.move, d.what) == (i, j, "tile")


@pytest.mark.parametrize(("rules", "players"), GAMES)
@pytest.mark.parametrize("form", ["tally", "moves"])
def test_the_end_the_pips_left_and_the_settlement(rules: str, players: int, form: str) -> None:
    a = tally_sheet(rules, players) if form == "tally" else moves_sheet(rules, players)
    settled = [i for i, h in enumerate(a["hands"]) if h.get("end") == "domino"]
    i = settled[-1]
    b = copy.deepcopy(a)
    b["hands"][i]["finisher"] = (a["hands"][i]["finisher"] + 1) % players
    d = first_difference(a, b)
    assert d is not None and (d.hand, d.move, d.what) == (i, None, "end")
    assert d.b.seat == b["hands"][i]["finisher"]
    c = copy.deepcopy(a)
    seat = (a["hands"][i]["finisher"] + 1) % players
    c["hands"][i]["remaining"][seat] = 99
    d = first_difference(a, c)
    assert d is not None and (d.hand, d.move, d.what) == (i, None, "remaining")
    assert (d.a.seat, d.b.pips) == (seat, 99)
    e = copy.deepcopy(a)
    e["hands"][i]["settlement"][0] += 5
    d = first_difference(a, e)
    assert d is not None and (d.hand, d.move, d.what) == (i, None, "settlement")
    assert (d.a.entity, d.b.score - d.a.score) == (0, 5)


def test_leader_form_hands_and_settings() -> None:
    a = tally_sheet("five-up", 4)
    b = copy.deepcopy(a)
    led = a["hands"][0]["leader"]
    b["hands"][0]["leader"] = (led + 1) % 4
    d = first_difference(a, b)
    assert d is not None and (d.hand, d.what, d.a.seat, d.b.seat) == (
        0,
        "leader",
        led,
        (led + 1) % 4,
    )
    m = moves_sheet("five-up", 4)
    d = first_difference(a, m)
    assert d is not None and (d.hand, d.what, d.a.form, d.b.form) == (0, "form", "tally", "moves")
    c = copy.deepcopy(a)
    c["hands"].pop()
    d = first_difference(a, c)
    assert d is not None and (d.hand, d.what) == (len(c["hands"]), "hands")
    assert (d.a.count, d.b.count) == (len(a["hands"]), len(c["hands"]))
    t = copy.deepcopy(a)
    t["target"] = 999
    d = first_difference(a, t)
    assert d is not None and (d.hand, d.what, d.b.field, d.b.value) == (
        None,
        "setting",
        "target",
        999,
    )
