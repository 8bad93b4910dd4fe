"""The most a placement and a hand can score (``scoring.bounds``), against layouts built tile by
tile, the simulator's play, and the verifier in both forms of a hand."""

from __future__ import annotations

import collections
import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring import TILES, Layout, Tile, find_ruleset, score_of_total, simulate, verify
from scoring.bounds import (
    _best,
    placement_bound,
    placement_cap,
    rare_above,
    top_opening,
    top_step,
)

RULES = ("five-up", "all-fives", "five-up-7")
ROOT = Path(__file__).resolve().parents[2]

# Layouts that reach each rule set's bound (found by a beam search over Layout.place; the test
# replays them through the engine's own layout, which refuses any illegal placement).
WITNESS: dict[str, list[tuple[str, str | None]]] = {
    "all-fives": [
        ("2-2", None), ("2-6", "2-2"), ("2-5", "2-2"), ("2-4", "2-2"), ("6-6", "2-6"),
        ("5-5", "2-5"), ("4-4", "2-4"), ("2-3", "2-2"), ("3-5", "2-3"),
    ],
    "five-up": [
        ("0-6", None), ("6-6", "0-6"), ("0-0", "0-6"), ("0-5", "0-0"), ("5-5", "0-5"),
        ("0-4", "0-0"), ("0-2", "0-0"), ("2-2", "0-2"), ("2-6", "2-2"), ("2-5", "2-2"),
        ("4-4", "0-4"), ("2-3", "2-2"), ("3-3", "2-3"), ("3-6", "3-3"), ("3-5", "3-3"),
        ("3-4", "3-3"), ("4-5", "4-4"), ("4-6", "4-4"), ("1-4", "4-4"), ("1-1", "1-4"),
        ("1-6", "1-1"), ("1-5", "1-1"), ("1-2", "1-1"), ("2-4", "1-2"), ("5-6", "2-5"),
    ],
    "five-up-7": [
        ("4-6", None), ("6-6", "4-6"), ("4-4", "4-6"), ("3-4", "4-4"), ("3-3", "3-4"),
        ("3-6", "3-3"), ("5-6", "6-6"), ("5-5", "5-6"), ("1-5", "5-5"), ("1-1", "1-5"),
        ("1-6", "1-1"), ("1-2", "1-1"), ("2-2", "1-2"), ("2-6", "2-2"), ("0-1", "1-1"),
        ("0-6", "0-1"), ("2-5", "2-2"), ("2-4", "2-2"), ("3-5", "3-3"), ("4-5", "4-4"),
        ("0-3", "3-3"), ("0-0", "0-3"), ("0-5", "0-0"), ("0-4", "0-0"), ("0-2", "0-0"),
    ],
}  # fmt: skip


def witness_sheet(rules: str) -> dict[str, Any]:
    """The witness as one hand of a legal game, with its deal: four seats of seven tiles (no
    boneyard), each seat dealt the tiles it places in turn and the ones left over. The verifier
    checks it all: every tile once, turn order, the obligation to play, scores, the end."""
    lay = Layout(rules)
    moves: list[dict[str, Any]] = []
    dealt: list[list[str]] = [[], [], [], []]
    for k, (tile, on) in enumerate(WITNESS[rules]):
        total = lay.place(Tile.parse(tile), Tile.parse(on) if on else None)
        move: dict[str, Any] = {"seat": k % 4, "play": tile, "score": score_of_total(total)}
        if on:
            move["on"] = on
        moves.append(move)
        dealt[k % 4].append(tile)
    left = [str(t) for t in TILES if t not in lay]
    for seat in dealt:
        while len(seat) < 7:
            seat.append(left.pop())
    hand: dict[str, Any] = {"leader": 0, "deal": {"hands": dealt, "boneyard": []}, "moves": moves}
    if sum(1 for m in moves if m["seat"] == moves[-1]["seat"]) == 7:
        # The seat that reaches the bound goes out with it.
        hand["end"], hand["finisher"] = "domino", moves[-1]["seat"]
    return {
        "format": "fives-scoresheet/1",
        "rules": rules,
        "players": 4,
        "partnerships": False,
        "hand_size": 7,
        "target": 10_000,
        "hands": [hand],
    }


def tally_of(sheet: dict[str, Any]) -> dict[str, Any]:
    """A move-form sheet in tally form: its scoring placements by seat, and each settled hand's
    remaining tiles from its deal (the tally form needs them)."""
    out = copy.deepcopy(sheet)
    for h in out["hands"]:
        moves = h.pop("moves")
        deal = h.pop("deal", None)
        if "end" in h and "remaining" not in h and deal is not None:
            placed = {m["play"] for m in moves if "play" in m}
            drawn = [
                [t for m in moves if m["seat"] == s for t in m.get("draw", [])] for s in range(4)
            ]
            h["remaining"] = [
                [t for t in [*tiles, *drawn[s]] if t not in placed]
                for s, tiles in enumerate(deal["hands"])
            ]
        h["tally"] = [{"seat": m["seat"], "score": m["score"]} for m in moves if m.get("score")]
    return out


@pytest.mark.parametrize("rules", RULES)
def test_the_bound_is_reached_by_a_layout_and_the_verifier_agrees(rules: str) -> None:
    bound = placement_bound(find_ruleset(rules))
    sheet = witness_sheet(rules)
    scores = [m["score"] for m in sheet["hands"][0]["moves"]]
    assert max(scores) == bound == scores[-1]
    # The engine's layout, recounted from scratch, agrees with its running total.
    lay = Layout(rules)
    for tile, on in WITNESS[rules]:
        lay.place(Tile.parse(tile), Tile.parse(on) if on else None)
    assert lay.recount() == bound
    # The verifier replays it move by move, and the same hand as a tally is accepted too.
    assert verify(sheet).as_dict()["errors"] == []
    tally = tally_of(sheet)
    assert verify(tally).valid
    # One more step of five is refused, in either form.
    sheet["hands"][0]["moves"][-1]["score"] = bound + 5
    assert [e["code"] for e in verify(sheet).as_dict()["errors"]] == ["score"]
    tally["hands"][0]["tally"][-1]["score"] = bound + 5
    v = verify(tally).as_dict()
    assert [(e["code"], e["move"]) for e in v["errors"]] == [
        ("score", len(tally["hands"][0]["tally"]) - 1)
    ]
    assert f"at most {bound}" in v["errors"][0]["message"]


def test_the_bounds_differ_by_what_each_rule_set_counts() -> None:
    bounds = {r: placement_bound(find_ruleset(r)) for r in RULES}
    # One spinner (all-fives) allows four arms at most; counted branch sides (five-up-7) add to
    # every spinner's worth; the raw maxima are not multiples of five.
    assert bounds["all-fives"] < bounds["five-up"] < bounds["five-up-7"]
    for r in RULES:
        raw = _best(find_ruleset(r), None)
        assert bounds[r] == raw // 5 * 5 and bounds[r] > top_opening()
        assert rare_above(find_ruleset(r)) <= bounds[r]
    assert rare_above(find_ruleset("all-fives")) == bounds["all-fives"]
    assert rare_above(find_ruleset("five-up")) < bounds["five-up"]


def beam_max_total(rules: str, width: int) -> int:
    """The largest end total a beam search over legal placements finds (a search for a layout
    above the derived maximum)."""
    beam = []
    for t in TILES:
        lay = Layout(rules)
        lay.place(t, None)
        beam.append(lay)
    best = max(lay.total for lay in beam)
    for _ in range(27):
        cand: dict[tuple[int, int], tuple[int, Layout, Tile, Tile]] = {}
        for lay in beam:
            for t in TILES:
                if t in lay:
                    continue
                for on in lay.legal_placements(t):
                    assert on is not None
                    total = lay.total_after(t, on)
                    cand.setdefault((lay.on_table | t.mask, total), (total, lay, t, on))
        chosen = sorted(cand.values(), key=lambda c: -c[0])[:width]
        beam = []
        for total, lay, t, on in chosen:
            nxt = lay.copy()
            nxt.place(t, on)
            beam.append(nxt)
            best = max(best, total)
    return best


@pytest.mark.parametrize("rules", RULES)
def test_a_search_for_a_larger_total_finds_none(rules: str) -> None:
    found = beam_max_total(rules, width=60)
    assert found <= _best(find_ruleset(rules), None)
    assert found >= placement_bound(find_ruleset(rules)) - 10


def simulated(rules: str, count: int) -> list[dict[str, Any]]:
    return [
        s
        for players in (2, 3, 4)
        for bot in ("greedy", "random")
        for s in simulate(rules, players, seed=29, count=count, bot=bot)
    ]


@pytest.mark.parametrize("rules", RULES)
def test_no_simulated_play_passes_the_bounds_and_its_tally_is_accepted(rules: str) -> None:
    r = find_ruleset(rules)
    bound, rare = placement_bound(r), rare_above(r)
    seen: collections.Counter[int] = collections.Counter()
    for sheet in simulated(rules, 12):
        for h in sheet["hands"]:
            lay = Layout(r)
            for m in h["moves"]:
                if "play" not in m:
                    continue
                before = lay.total
                on = Tile.parse(m["on"]) if "on" in m else None
                after = lay.place(Tile.parse(m["play"]), on)
                # The growth the hand caps rely on: the opening, then one step at a time.
                assert after <= (top_opening() if on is None else before + top_step())
                cap = placement_cap(r, len(lay), 168)
                assert m["score"] <= cap <= bound
                if m["score"]:
                    seen[m["score"]] += 1
        # The same match entered as a tally is valid (no false refusal), warned only where a
        # score is above the rare line.
        v = verify(tally_of(sheet))
        assert v.as_dict()["errors"] == [], v.as_dict()["errors"][:1]
        assert all(int(w.message.split(": ")[1].split()[0]) > rare for w in v.warnings)
    assert max(seen) <= bound
    assert sum(n for s, n in seen.items() if s > rare) <= 0.01 * sum(seen.values())


def five_up(hands: list[dict[str, Any]], players: int = 2) -> dict[str, Any]:
    return {"format": "fives-scoresheet/1", "rules": "five-up", "players": players, "hands": hands}


def codes(v: Any) -> list[tuple[str, int | None, int | None]]:
    return [(e.code, e.hand, e.move) for e in v.errors]


def test_a_tally_the_tiles_in_play_cannot_make_is_refused() -> None:
    # Two players, five tiles each: seat 0 went out and seat 1 still holds 160 pips (at least
    # 14 tiles), so at most 14 tiles and 8 pips reached the table, the first of six scoring
    # plays on the 9th at the latest: no placement scored 70.
    hand = {
        "leader": 0,
        "tally": [{"seat": 0, "score": 70}] + [{"seat": 1, "score": 5}] * 5,
        "end": "domino",
        "finisher": 0,
        "remaining": [[], 160],
    }
    v = verify(five_up([hand]))
    assert codes(v) == [("score", 0, 0)]
    assert "at most 9 tiles and 8 pips on the table" in v.errors[0].message
    # A hand end that leaves room for it: valid, the 70 warned as rare.
    hand["remaining"] = [[], ["0-1"]]
    v = verify(five_up([hand]))
    assert v.valid and [(w.hand, w.move) for w in v.warnings] == [(0, 0)]
    assert "check it" in v.warnings[0].message
    assert "warnings" not in v.as_dict()  # the spec's verdict shape, exactly


def test_more_scoring_plays_than_tiles_a_seat_can_place_are_refused() -> None:
    # Four players, five tiles each, 8 in the boneyard: a seat places at most 13 tiles.
    hand = {"leader": 0, "tally": [{"seat": 1, "score": 5}] * 14}
    v = verify(five_up([hand], players=4))
    assert codes(v)[0] == ("score", 0, 13)
    assert "one scoring placement more" in v.errors[0].message


def test_seventy_points_by_one_player_in_one_hand() -> None:
    # Five Up displays raw/5: "70 points" is 350 raw, refused as one entry (above the bound).
    v = verify(five_up([{"leader": 0, "tally": [{"seat": 0, "score": 350}]}]))
    assert codes(v) == [("score", 0, 0)]
    # As five plays of 70 raw by seat 0 in a hand where seat 1 still holds 4 tiles (24 on the
    # table at most): a play on the n-th tile scores at most 12 + 6 (n - 1), so each needs the
    # 11th tile or a later one, and five of them fit: possible, each one warned as rare.
    hand = {
        "leader": 0,
        "tally": [{"seat": 0, "score": 70}] * 5,
        "end": "domino",
        "finisher": 0,
        "remaining": [[], ["0-1", "0-2", "0-3", "1-1"]],
    }
    v = verify(five_up([hand]))
    assert v.valid and len(v.warnings) == 5
    # Fifteen of them would put the first on the 10th tile at the latest (24 - 14): refused.
    hand["tally"] = [{"seat": 0, "score": 70}] * 15
    v = verify(five_up([hand]))
    assert codes(v) == [("score", 0, 0)]
    assert "at most 10 tiles" in v.errors[0].message and "at most 65" in v.errors[0].message


def test_verify_scoresheet_refuses_a_placement_above_the_bound_for_every_rule_set() -> None:
    for rules in RULES:
        bound = placement_bound(find_ruleset(rules))
        sheet = {
            "format": "fives-scoresheet/1",
            "rules": rules,
            "players": 2,
            "hands": [{"leader": 0, "tally": [{"seat": 0, "score": bound + 5}]}],
        }
        out = subprocess.run(
            [sys.executable, "manage.py", "verify_scoresheet", "-"],
            cwd=ROOT,
            input=json.dumps(sheet).encode(),
            capture_output=True,
            timeout=60,
        )
        assert out.returncode == 1, out.stderr
        v = json.loads(out.stdout)
        assert v["valid"] is False and [e["code"] for e in v["errors"]] == ["score"]
        assert f"at most {bound}" in v["errors"][0]["message"]
        assert set(v) == {"valid", "errors", "scores", "winner", "finished"}
