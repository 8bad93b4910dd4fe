"""Golden cases for the verifier beyond the conformance sample: every miscount listed, halves,
time, locations and messages, the public helpers."""

import copy
import json
from pathlib import Path
from typing import Any

from scoring import first_divergence, verify, verify_json

DATA = Path(__file__).parent / "data" / "conformance_sample.jsonl"
BASE = {
    c["id"]: c["sheet"]
    for c in map(json.loads, DATA.read_text().splitlines())
    if c["id"] in ("five-up-4p-0", "all-fives-3p-0")
}


def sheet(name: str) -> dict[str, Any]:
    return copy.deepcopy(BASE[name])


def tally_sheet(**extra: Any) -> dict[str, Any]:
    s: dict[str, Any] = {"format": "fives-scoresheet/1", "rules": "five-up", "players": 2}
    s.update(extra)
    return s


def codes(v: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    return [(e["code"], e["hand"], e["move"]) for e in v["errors"]]


def test_every_miscount_is_listed_and_the_replay_goes_on_with_true_figures() -> None:
    s = sheet("five-up-4p-0")
    true = verify(s).as_dict()
    assert true["valid"] and true["finished"]
    s["hands"][0]["moves"][1]["score"] = 15  # the true score is 10
    s["hands"][2]["moves"][0]["score"] += 5
    s["hands"][3]["settlement"][0] -= 5
    v = verify(s).as_dict()
    assert codes(v) == [("score", 0, 1), ("score", 2, 0), ("settlement", 3, None)]
    assert v["scores"] == true["scores"] and v["winner"] == true["winner"]
    assert "4-4" in v["errors"][0]["message"] and "10" in v["errors"][0]["message"]


def test_a_wrong_result_is_compared_last() -> None:
    s = sheet("five-up-4p-0")
    s["result"]["scores"][1] += 5
    s["hands"][0]["moves"][1]["score"] = 0
    v = verify(s).as_dict()
    assert codes(v) == [("score", 0, 1), ("result", None, None)]


def test_any_other_fault_stops_the_replay() -> None:
    s = sheet("five-up-4p-0")
    s["hands"][0]["moves"][1]["on"] = "6-6"  # not on the table
    s["hands"][1]["moves"][0]["score"] = 35
    v = verify(s).as_dict()
    assert codes(v) == [("placement", 0, 1)]
    assert "6-6 is not on the table" in v["errors"][0]["message"]
    assert v["scores"] == [0, 0] and not v["finished"] and v["winner"] is None


def test_a_move_after_the_domino_is_an_end_fault_at_that_move() -> None:
    s = sheet("five-up-4p-0")
    moves = s["hands"][0]["moves"]
    moves.append({"seat": 3, "pass": True})
    v = verify(s).as_dict()
    assert codes(v)[0] == ("end", 0, len(moves) - 1)


def test_format_faults_name_the_field_and_come_first() -> None:
    s = sheet("five-up-4p-0")
    s["hands"][0]["moves"][1]["score"] = 35  # a miscount, but the shape is checked first
    s["hands"][5]["moves"][3]["play"] = "7-1"
    v = verify(s).as_dict()
    assert codes(v) == [("format", 5, 3)]
    assert '"play"' in v["errors"][0]["message"] and "7-1" in v["errors"][0]["message"]
    assert v["scores"] == [] and v["winner"] is None and v["finished"] is False
    for bad in (
        [],
        "x",
        None,
        {"format": "fives-scoresheet/2", "rules": "five-up", "players": 2, "hands": []},
        tally_sheet(players=True, hands=[]),
        tally_sheet(players=2.0, hands=[]),
        tally_sheet(rules="sniff", hands=[]),
        tally_sheet(partnerships=True, hands=[]),
        tally_sheet(hand_size=15, hands=[]),
        tally_sheet(target=-5, hands=[]),
        tally_sheet(hands=[{"leader": 0, "tally": [], "moves": []}]),
        tally_sheet(hands=[{"leader": 0}]),
        tally_sheet(hands=[{"leader": 2, "tally": []}]),
        tally_sheet(hands=[{"leader": 0, "tally": [{"seat": 0, "score": -5}]}]),
        tally_sheet(hands=[{"leader": 0, "tally": [], "settlement": [0.25, 0]}]),
    ):
        got = verify(bad).as_dict()
        assert codes(got)[0][0] == "format", bad


def test_a_draw_count_with_the_deal_is_a_format_fault() -> None:
    s = sheet("five-up-4p-0")
    draw = next(j for j, m in enumerate(s["hands"][0]["moves"]) if "draw" in m)
    s["hands"][0]["moves"][draw]["draw"] = 2
    assert codes(verify(s).as_dict()) == [("format", 0, draw)]


def test_verify_json_takes_text_and_bytes_and_never_raises() -> None:
    text = json.dumps(sheet("five-up-4p-0"))
    assert verify_json(text).valid
    assert verify_json(text.encode()).valid
    for bad in ("", "{", "[1,", b"\xff\xfe", "1e999999", "[" * 100000):
        assert codes(verify_json(bad).as_dict())[0][0] == "format"


def test_all_fives_three_players_tied_low_split_gives_halves() -> None:
    s = {
        "format": "fives-scoresheet/1",
        "rules": "all-fives",
        "players": 3,
        "target": 100,
        "hands": [
            {
                "leader": 0,
                "tally": [{"seat": 0, "score": 10}],
                "end": "blocked",
                "remaining": [["0-4"], ["1-3"], ["2-5", "3-3"]],  # 4, 4 and 13 -> 15 split
                "settlement": [7.5, 7.5, 0],
            }
        ],
        "result": {"scores": [17.5, 7.5, 0], "winner": None},
    }
    v = verify(s).as_dict()
    assert v == {
        "valid": True,
        "errors": [],
        "scores": [17.5, 7.5, 0],
        "winner": None,
        "finished": False,
    }
    s["hands"][0]["settlement"] = [7, 8, 0]
    assert codes(verify(s).as_dict()) == [("settlement", 0, None)]


def test_time_can_end_a_match_drawn_and_a_hand_after_it_is_a_result_fault() -> None:
    hand = {
        "leader": 0,
        "tally": [{"seat": 0, "score": 10}, {"entity": 1, "score": 10}],
        "end": "domino",
        "finisher": 0,
        "remaining": [[], 0],
    }
    s = tally_sheet(
        time={"called_in_hand": 0, "policy": "finish-hand"},
        hands=[hand],
        result={"scores": [10, 10], "winner": None},
    )
    assert verify(s).as_dict() == {
        "valid": True,
        "errors": [],
        "scores": [10, 10],
        "winner": None,
        "finished": True,
    }
    s["hands"].append(dict(hand))
    assert codes(verify(s).as_dict())[0] == ("result", 1, None)
    s["time"]["policy"] = "one-more-hand"
    s["result"] = {"scores": [20, 20], "winner": None}
    assert verify(s).valid


def test_tally_form_checks() -> None:
    hand: dict[str, Any] = {
        "leader": 0,
        "tally": [{"seat": 0, "score": 12}, {"seat": 1, "score": 0}, {"seat": 1, "score": 5}],
        "end": "domino",
        "finisher": 1,
        "remaining": [["6-6"], []],
    }
    v = verify(tally_sheet(hands=[hand])).as_dict()
    assert codes(v) == [("score", 0, 0), ("score", 0, 1)]
    assert v["scores"] == [-10, 5]
    hand["remaining"] = [["6-6"], ["0-1"]]
    assert codes(verify(tally_sheet(hands=[hand])).as_dict())[-1] == ("end", 0, None)
    hand["end"], hand["remaining"] = "blocked", [["6-6"], []]
    del hand["finisher"]
    assert codes(verify(tally_sheet(hands=[hand])).as_dict())[-1] == ("end", 0, None)


def test_a_hand_without_end_is_allowed_only_last() -> None:
    hand = {"leader": 0, "tally": [{"seat": 0, "score": 5}]}
    assert verify(tally_sheet(hands=[hand])).as_dict()["finished"] is False
    assert codes(verify(tally_sheet(hands=[hand, hand])).as_dict()) == [("end", 0, None)]


def test_the_leader_after_a_domino() -> None:
    hand = {"leader": 0, "tally": [], "end": "domino", "finisher": 1, "remaining": [0, []]}
    nxt = {"leader": 0, "tally": []}
    assert codes(verify(tally_sheet(hands=[hand, nxt])).as_dict()) == [("turn", 1, None)]


def test_first_divergence() -> None:
    a = sheet("five-up-4p-0")
    b = copy.deepcopy(a)
    assert first_divergence(a, b) is None
    b["hands"][3]["moves"][7]["score"] += 5
    b["hands"][4]["moves"][0]["score"] += 5
    assert first_divergence(a, b) == (3, 7)
    c = copy.deepcopy(a)
    c["hands"][2]["settlement"][0] -= 5
    assert first_divergence(a, c) == (2, None)
    d = copy.deepcopy(a)
    d["hands"].pop()
    assert first_divergence(a, d) == (len(d["hands"]), None)
    e = copy.deepcopy(a)
    e["result"]["winner"] = 1
    assert first_divergence(a, e) == (None, None)


def test_odd_values_where_a_tile_belongs_are_format_faults_at_their_move() -> None:
    for field, value in (
        ("play", ["4-6"]),
        ("play", {"a": 1}),
        ("play", 46),
        ("on", ["2-4"]),
        ("on", None),
        ("score", "10"),
        ("score", 10.0),
        ("seat", True),
    ):
        s = sheet("five-up-4p-0")
        s["hands"][0]["moves"][1][field] = value
        v = verify(s).as_dict()
        assert codes(v) == [("format", 0, 1)], (field, value)
        assert field in v["errors"][0]["message"]
    s = sheet("five-up-4p-0")
    draw = next(j for j, m in enumerate(s["hands"][0]["moves"]) if "draw" in m)
    for value in ([["1-4"]], [], ["1-4", 7], "1-4"):
        s["hands"][0]["moves"][draw]["draw"] = value
        assert codes(verify(s).as_dict()) == [("format", 0, draw)], value
