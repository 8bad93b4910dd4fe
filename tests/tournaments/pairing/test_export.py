import json
from fractions import Fraction

from tournaments.pairing import (
    EntryRecord,
    double_elimination,
    pair_swiss,
)
from tournaments.pairing.export import bracket_to_dict, number, round_to_dict


def test_a_round_exports_to_json_and_keeps_fractions_exact() -> None:
    entries = [
        EntryRecord(1, frozenset({1}), 2, Fraction(7, 2)),
        EntryRecord(2, frozenset({2}), 2, 3),
        EntryRecord(3, frozenset({3}), 0, 0),
    ]
    rp = pair_swiss(entries, [], round_no=2, salt="x")
    doc = json.loads(json.dumps(round_to_dict(rp)))
    assert doc["pairings"][0]["entries"] == [1, 2]
    assert doc["pairings"][0]["why"]["score_group"] == 2
    assert doc["byes"][0]["entry"] == 3
    assert {d["purpose"] for d in doc["draws"]} == {"first-leader"}
    assert number(Fraction(7, 2)) == "7/2" and Fraction("7/2") == Fraction(7, 2)
    assert number(Fraction(4, 2)) == 2


def test_a_bracket_exports_to_json() -> None:
    doc = json.loads(
        json.dumps(bracket_to_dict(double_elimination(list(range(1, 7)), qualifiers=6)))
    )
    assert doc["byes"] == [1, 2]
    assert doc["rounds"][0]["matches"][0]["slots"] == [{"seed": 4}, {"seed": 5}]
    assert doc["rounds"][1]["matches"][0]["slots"] == [{"seed": 1}, {"winner_of": "W1-1"}]
    assert doc["rounds"][-1]["matches"][0]["slots"] == [{"winner_of": "GF"}, {"loser_of": "GF"}]
