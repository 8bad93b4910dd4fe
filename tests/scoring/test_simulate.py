"""The simulator: complete, reproducible matches whose sheets verify valid."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import find_ruleset, verify
from scoring.simulate import simulate, simulate_jsonl

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("rules", ["five-up", "all-fives", "five-up-7"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_configuration_plays_complete_valid_matches(rules: str, players: int) -> None:
    r = find_ruleset(rules)
    for bot in ("greedy", "random"):
        for sheet in simulate(rules, players, seed=11, count=3, bot=bot):
            v = verify(sheet).as_dict()
            assert v["valid"], v["errors"][:1]
            assert v["finished"] and v["winner"] is not None
            assert sheet["partnerships"] == r.default_partnerships(players)
            assert v["scores"] == sheet["result"]["scores"]
            assert all("deal" in h and "moves" in h for h in sheet["hands"])


def test_options_are_written_and_respected() -> None:
    sheet = next(simulate("five-up-7", 4, seed=2, target=100, hand_size=5))
    assert sheet["target"] == 100 and sheet["hand_size"] == 5
    assert all(len(h["deal"]["hands"][0]) == 5 for h in sheet["hands"])
    assert verify(sheet).valid
    with pytest.raises(ValueError):
        next(simulate("five-up", 3, hand_size=10))
    with pytest.raises(ValueError):
        next(simulate("five-up", 2, bot="clever"))


def test_same_arguments_same_bytes_and_other_seeds_differ() -> None:
    a = list(simulate_jsonl(rules="all-fives", players=3, seed=5, count=4))
    b = list(simulate_jsonl(rules="all-fives", players=3, seed=5, count=4))
    c = list(simulate_jsonl(rules="all-fives", players=3, seed=6, count=4))
    assert a == b and a != c
    assert all(" " not in line for line in a)  # compact JSON


def test_the_command_prints_one_sheet_per_line_identically_each_time() -> None:
    cmd = [sys.executable, "manage.py", "simulate", "--rules", "five-up", "--players", "2"]
    cmd += ["--seed", "9", "--count", "3", "--bot", "random", "--target", "100"]
    first = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True, timeout=60).stdout
    second = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True, timeout=60).stdout
    assert first == second
    sheets = [json.loads(line) for line in first.splitlines()]
    assert len(sheets) == 3
    assert all(s["target"] == 100 and verify(s).valid for s in sheets)
    expected = list(
        simulate_jsonl(rules="five-up", players=2, seed=9, count=3, bot="random", target=100)
    )
    assert first.decode().splitlines() == expected


def test_all_fives_three_players_can_split_halves() -> None:
    halves = [
        s
        for s in simulate("all-fives", 3, seed=7, count=200, bot="random")
        if any(isinstance(x, float) for h in s["hands"] for x in h.get("settlement", []))
    ]
    assert halves, "no split award in 200 matches"
    assert all(verify(s).valid for s in halves)


def test_an_endless_match_is_reported_not_looped_forever() -> None:
    import random

    from scoring.simulate import EndlessMatch, play_match

    options = find_ruleset("five-up").options(4, hand_size=1)
    with pytest.raises(EndlessMatch):
        play_match(options, random.Random(1), "greedy", max_hands=200)
