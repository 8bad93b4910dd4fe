"""The records check themselves: malformed input raises ValueError, exact numbers stay exact."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.standings import Entry, PointsConfig, Result, RoundKind
from tournaments.standings.records import entries_from_columns


def result(**changes: Any) -> Result:
    fields: dict[str, Any] = {
        "match_id": 1,
        "round_number": 1,
        "kind": RoundKind.SWISS,
        "entry_a": 1,
        "entry_b": 2,
        "score_a": 305,
        "score_b": 200,
        "winner": 1,
    }
    fields.update(changes)
    return Result(**fields)


def test_a_plain_string_kind_is_converted() -> None:
    assert result(kind="round_robin").kind is RoundKind.ROUND_ROBIN
    assert RoundKind.SWISS.counts and RoundKind.ROUND_ROBIN.counts
    assert not RoundKind.PLAYOFF.counts and not RoundKind.TIEBREAK.counts


def test_whole_fractions_become_ints() -> None:
    r = result(score_a=Fraction(610, 2), score_b=Fraction(401, 2))
    assert type(r.score_a) is int and r.score_a == 305
    assert r.score_b == Fraction(401, 2)
    assert type(PointsConfig(win=Fraction(4, 2)).win) is int


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"score_a": 305.0}, "score_a must be an int or a Fraction"),
        ({"score_b": True}, "score_b must be an int or a Fraction"),
        ({"kind": "knockout"}, "unknown round kind 'knockout'"),
        ({"round_number": 0}, "round_number"),
        ({"entry_b": 1}, "cannot play itself"),
        ({"winner": 3}, "winner 3 did not play"),
        ({"entry_b": None, "winner": 2}, "a bye's winner"),
        ({"match_id": 1.5}, "match_id"),
        ({"entry_a": None}, "entry_a"),
        ({"forfeit": "yes"}, "forfeit"),
    ],
)
def test_malformed_results_are_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        result(**changes)


def test_malformed_entries_and_points_are_refused() -> None:
    with pytest.raises(ValueError, match="entry_id"):
        Entry(2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="win must be an int or a Fraction"):
        PointsConfig(win=2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="margin_threshold must be positive"):
        PointsConfig(margin_bonus=1, margin_threshold=0)


def test_margin_bonus_for_a_win() -> None:
    points = PointsConfig(win=2, margin_bonus=Fraction(1, 2), margin_threshold=50)
    assert points.for_win(305, 255) == Fraction(5, 2)
    assert points.for_win(305, 256) == 2
    assert points.for_win(305, 0, forfeit=True) == 2
    assert PointsConfig(win=2, margin_bonus=1).for_win(305, 0) == 2  # no threshold, no bonus


# --- Many entries at once ------------------------------------------------------------------

ids = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.text(max_size=5),
    st.booleans(),
    st.floats(allow_nan=False),
    st.none(),
)


@given(st.lists(st.tuples(ids, st.text(max_size=5)), max_size=8))
def test_entries_from_columns_are_the_entries_one_by_one(pairs: list[tuple[Any, str]]) -> None:
    """The same records, or the same error (for the first malformed id)."""
    try:
        expected: Any = [Entry(entry_id, name) for entry_id, name in pairs]
    except ValueError as error:
        expected = str(error)
    column_ids = [entry_id for entry_id, _ in pairs]
    names = [name for _, name in pairs]
    try:
        made: Any = entries_from_columns(column_ids, names)
    except ValueError as error:
        made = str(error)
    assert made == expected
    if isinstance(made, list):
        assert all(type(entry) is Entry for entry in made)
        assert [type(entry.entry_id) for entry in made] == [type(i) for i in column_ids]


def test_entries_from_columns_refuse_columns_of_other_lengths() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        entries_from_columns([1, 2], ["Ann"])
