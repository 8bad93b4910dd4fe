"""The snapshot's bytes: orjson writes exactly what the standard library wrote, numbers as text.

Stored snapshots are compared by digest (a recompute with the same bytes adds no generation), so
the canonical JSON must stay byte for byte what ``json.dumps(sort_keys=True, separators=(",",
":"), ensure_ascii=False)`` gave before orjson wrote it.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.standings.test_properties import events
from tournaments.standings import PointsConfig, compute_standings, format_number, parse_number
from tournaments.standings.serialise import canonical_json, encode_number, encode_value
from tournaments.standings.tallying import tally
from tournaments.standings.tiebreaks import TIEBREAKS

TEXT = st.text(st.characters(exclude_categories=["Cs"]))  # any text PostgreSQL can hold
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(-(2**70), 2**70), TEXT)
DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner), st.dictionaries(TEXT, inner)),
    max_leaves=40,
)


def stdlib(document: Any) -> bytes:
    return json.dumps(
        document, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


@settings(max_examples=500, deadline=None)
@given(document=DOCUMENTS)
def test_canonical_json_is_byte_for_byte_the_standard_librarys(document: Any) -> None:
    assert canonical_json(document) == stdlib(document)


def test_control_characters_and_wide_characters_are_written_the_same() -> None:
    name = "".join(chr(c) for c in range(0x30)) + 'é\u2028\u2029\ufeff😀\x7f"\\'
    document = {"é": [name, 2**64, -(2**63) - 1], "e": {"": None}, "Z": True}
    assert canonical_json(document) == stdlib(document)


@settings(max_examples=300, deadline=None)
@given(event=events())
def test_a_standings_snapshot_is_byte_for_byte_the_standard_librarys(
    event: tuple[Any, Any, PointsConfig, list[str]],
) -> None:
    entries, results, points, tiebreaks = event
    s = compute_standings(entries, results, points=points, tiebreaks=tiebreaks)
    assert s.to_json_bytes() == stdlib(s.to_json())


FRACTIONS = st.builds(
    Fraction, st.integers(-(10**9), 10**9), st.integers(min_value=1, max_value=10**6)
)


@settings(max_examples=1000, deadline=None)
@given(value=st.one_of(FRACTIONS, st.integers(-(10**12), 10**12)))
def test_numbers_as_text_are_exact_and_minimal(value: Fraction | int) -> None:
    text = format_number(value)
    assert parse_number(text) == value
    den = Fraction(value).denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    if Fraction(value).denominator == 1:
        assert re.fullmatch(r"-?\d+", text) and text == str(int(value))
    elif den == 1:  # a terminating decimal: no trailing zero, one leading zero at most
        assert re.fullmatch(r"-?(0|[1-9]\d*)\.\d*[1-9]", text), text
    else:
        assert text == f"{Fraction(value).numerator}/{Fraction(value).denominator}"
    assert encode_value(value) == encode_number(value)
    assert encode_value(Fraction(value)) == encode_number(value)  # a whole Fraction: an int


@settings(max_examples=200, deadline=None)
@given(event=events())
def test_a_tiebreak_read_as_a_field_is_what_its_function_returns(
    event: tuple[Any, Any, PointsConfig, list[str]],
) -> None:
    entries, results, points, _ = event
    t = tally(entries, results, points)
    for tiebreak in TIEBREAKS.values():
        if tiebreak.field:
            assert tiebreak.entry is not None and tiebreak.reach == 0
            for record in t.entries.values():
                assert tiebreak.entry(t, record) == getattr(record, tiebreak.field)
