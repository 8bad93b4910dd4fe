import json
from fractions import Fraction

import pytest

from tournaments.pairing import (
    Bracket,
    Decision,
    EntryRecord,
    bracket_progress,
    double_elimination,
    pair_swiss,
    single_elimination,
)
from tournaments.pairing.export import (
    bracket_from_dict,
    bracket_to_dict,
    number,
    progress_to_dict,
    round_to_dict,
)


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


@pytest.mark.parametrize(
    "bracket",
    [
        single_elimination(list(range(1, 12)), qualifiers=11, consolation="third_place"),
        single_elimination(list(range(1, 12)), qualifiers=9, consolation="first_round_losers"),
        double_elimination(list(range(1, 12)), qualifiers=11),
        double_elimination(list(range(1, 12)), qualifiers=5, reset=False),
    ],
)
def test_a_stored_bracket_reads_back_the_same(bracket: Bracket) -> None:
    stored = json.loads(json.dumps(bracket_to_dict(bracket)))
    assert bracket_from_dict(stored) == bracket


def test_malformed_brackets_are_refused() -> None:
    with pytest.raises(ValueError, match="malformed"):
        bracket_from_dict({"kind": "single"})
    doc = bracket_to_dict(single_elimination([1, 2], qualifiers=2))
    with pytest.raises(ValueError, match="not a bracket slot"):
        bracket_from_dict({**doc, "rounds": [{**doc["rounds"][0], "matches": [
            {"id": "W1-1", "slots": [{"seed": 1}, {"elsewhere": 2}]}]}]})  # fmt: skip
    with pytest.raises(ValueError, match="unknown bracket kind"):
        bracket_from_dict({**doc, "kind": "swiss"})


def test_progress_exports_the_placings() -> None:
    b = single_elimination([7, 8, 9], qualifiers=3)
    done = bracket_progress(b, {"W1-1": Decision(9), "W2-1": Decision(9, forfeit=True)})
    doc = json.loads(json.dumps(progress_to_dict(done)))
    assert doc["finished"] and doc["champion"] == 9 and doc["runner_up"] == 7
    assert [(p["place"], p["entry"]) for p in doc["placings"]] == [(1, 9), (2, 7), (3, 8)]
    final = doc["matches"][-1]
    assert final == {
        "id": "W2-1",
        "section": "winners",
        "round": 2,
        "status": "decided",
        "entries": [7, 9],
        "winner": 9,
        "forfeit": True,
    }
