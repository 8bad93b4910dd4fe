"""The first difference in words (``presenters.difference``), for each kind of difference: who
and what each sheet says, players named with their compass point, sides by name."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.utils import translation

from tournaments.presenters import difference

NAMES = difference.Names(("Ana (N)", "Bea (E)", "Luis (S)", "Olga (W)"), ("Reds", "Blues"))
BASE: dict[str, Any] = {
    "hands": [
        {
            "leader": 0,
            "tally": [{"seat": 0, "score": 10}, {"seat": 1, "score": 5}],
            "end": "domino",
            "finisher": 0,
            "remaining": [0, 7, 3, 9],
            "settlement": [20, 0],
        }
    ]
}


def said(change: Any) -> str:
    other = copy.deepcopy(BASE)
    change(other["hands"][0])
    with translation.override("en"):
        found = difference.versions(BASE, other, NAMES, phone=True)
    assert found is not None
    return str(found["text"])


@pytest.mark.parametrize(
    ("change", "text"),
    [
        (
            lambda h: h["tally"][1].update(seat=3),
            "Hand 1, play 2: your sheet gives 5 to Bea (E); theirs gives 5 to Olga (W)",
        ),
        (
            lambda h: h["tally"][0].update(score=15),
            "Hand 1, play 1: your sheet gives 10 to Ana (N); theirs gives 15 to Ana (N)",
        ),
        (
            lambda h: h["tally"].__setitem__(1, {"entity": 1, "score": 5}),
            "Hand 1, play 2: your sheet gives 5 to Bea (E); theirs gives 5 to Blues",
        ),
        (
            lambda h: h["tally"].pop(),
            "Hand 1, play 2: your sheet gives 5 to Bea (E); theirs has nothing there",
        ),
        (
            lambda h: h.update(end="blocked", finisher=None),
            "Hand 1: your sheet has Ana (N) go out; theirs has the hand blocked",
        ),
        (
            lambda h: h["remaining"].__setitem__(2, 4),
            "Hand 1: your sheet leaves 3 pips with Luis (S); theirs leaves 4 pips with Luis (S)",
        ),
        (
            lambda h: h.update(settlement=[25, 0]),
            "Hand 1: your sheet settles 20 for Reds; theirs settles 25 for Reds",
        ),
        (
            lambda h: h.update(leader=2),
            "Hand 1: your sheet has Ana (N) lead; theirs has Luis (S) lead",
        ),
    ],
)
def test_each_kind_of_difference_in_a_sentence(change: Any, text: str) -> None:
    assert said(change) == text


def test_the_directors_version_names_both_sheets_and_a_missing_hand() -> None:
    two = copy.deepcopy(BASE)
    two["hands"].append(copy.deepcopy(BASE["hands"][0]))
    with translation.override("en"):
        found = difference.versions(BASE, two, NAMES, phone=False)
    assert found is not None
    assert found["text"] == "Hand 2: Reds's sheet has 1 hands; Blues's sheet has 2 hands"
    assert difference.versions(BASE, copy.deepcopy(BASE), NAMES, phone=True) is None


def test_both_versions_side_by_side_from_the_first_difference() -> None:
    other = copy.deepcopy(BASE)
    other["hands"][0]["tally"][1]["seat"] = 3
    with translation.override("en"):
        rows = difference.side_by_side(BASE, other, NAMES)
    assert [(r["label"], r["a"], r["b"], r["differs"]) for r in rows] == [
        ("Play 2", "Gives 5 to Bea (E)", "Gives 5 to Olga (W)", True),
        ("End", "Has Ana (N) go out", "Has Ana (N) go out", False),
    ]
