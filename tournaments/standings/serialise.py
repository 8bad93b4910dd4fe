"""Exact numbers as text, for the canonical JSON of a standings snapshot.

JSON numbers are read back as floats by many tools, so only whole numbers are written as JSON
numbers; every other exact value is written as a JSON string: a terminating decimal when there is
one (``"2.5"``, ``"-0.25"``), else a fraction (``"1/3"``). Both forms parse back exactly with
:func:`parse_number`. No float is ever produced, so the same values always give the same bytes.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import lru_cache
from typing import Any

import orjson

from tournaments.standings.records import Number, normalise


def format_number(value: Number) -> str:
    """The exact text of ``value``: ``"3"``, ``"2.5"``, ``"-0.125"`` or ``"1/3"``.

    >>> format_number(3), format_number(Fraction(5, 2)), format_number(Fraction(-1, 8))
    ('3', '2.5', '-0.125')
    >>> format_number(Fraction(2, 3)), format_number(Fraction(-7, 1))
    ('2/3', '-7')
    >>> format_number(Fraction(1, 80)), format_number(Fraction(-3, 20))
    ('0.0125', '-0.15')
    """
    if type(value) is int:
        return str(value)
    value = normalise(value)
    if isinstance(value, int):
        return str(value)
    return fraction_text(value.numerator, value.denominator)


@lru_cache(maxsize=4096)
def fraction_text(numerator: int, denominator: int) -> str:
    """:func:`format_number` of ``numerator / denominator`` (in lowest terms, ``denominator >= 1``).

    Remembered: a snapshot writes the same few hundred fractions thousands of times.
    """
    if denominator == 1:
        return str(numerator)
    twos = (denominator & -denominator).bit_length() - 1  # the power of 2 dividing it
    rest = denominator >> twos
    fives = 0
    while rest % 5 == 0:
        rest //= 5
        fives += 1
    if rest != 1:
        return f"{numerator}/{denominator}"
    places = max(twos, fives)
    scaled = abs(numerator) * (10**places // denominator)
    digits = str(scaled).rjust(places + 1, "0")
    sign = "-" if numerator < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def parse_number(text: str) -> Number:
    """The exact number written by :func:`format_number` (``"2.5"``, ``"1/3"``, ``"7"``).

    >>> parse_number("2.5"), parse_number("1/3"), parse_number("7")
    (Fraction(5, 2), Fraction(1, 3), 7)
    """
    if not isinstance(text, str):
        raise ValueError(f"expected an exact number as text, got {text!r}")
    try:
        return normalise(Fraction(text))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"not an exact number: {text!r}") from None


def encode_number(value: Number | None) -> int | str | None:
    """A JSON value for an exact number: whole numbers as ints, others as :func:`format_number`."""
    if value is None or type(value) is int:
        return value
    value = normalise(value)
    return value if isinstance(value, int) else fraction_text(value.numerator, value.denominator)


def encode_value(value: Number | None) -> int | str | None:
    """:func:`encode_number`, its common cases first: what a snapshot writes for each tiebreak
    value (ten thousand of them).

    >>> [encode_value(v) for v in (None, 3, Fraction(5, 2), Fraction(4, 2))]
    [None, 3, '2.5', 2]
    """
    if value is None or type(value) is int:
        return value
    if type(value) is Fraction:
        numerator, denominator = value.numerator, value.denominator
        return numerator if denominator == 1 else fraction_text(numerator, denominator)
    return encode_number(value)


def decode_number(value: object) -> Number | None:
    """The inverse of :func:`encode_number`."""
    if value is None:
        return None
    if type(value) is int:
        return value
    if isinstance(value, str):
        return parse_number(value)
    raise ValueError(f"not an exact number: {value!r}")


def canonical_json(document: Any) -> bytes:
    """Canonical UTF-8 JSON: sorted keys, no whitespace, no floats, non-ASCII as UTF-8; equal
    documents give equal bytes.

    The bytes are exactly ``json.dumps(document, sort_keys=True, separators=(",", ":"),
    ensure_ascii=False, allow_nan=False).encode()``, the format snapshots have always been stored
    in (their digests stay valid), made by orjson at a fifth of the cost; an integer beyond 64 bits
    (which orjson refuses) falls back to the standard library. ``document`` holds dicts with
    ``str`` keys, lists, ``str``, ``int``, ``bool`` and ``None`` only.

    >>> canonical_json({"b": [1, None, True], "a": "é"})
    b'{"a":"\xc3\xa9","b":[1,null,true]}'
    """
    try:
        return orjson.dumps(document, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError: an int beyond 64 bits
        return json.dumps(
            document, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        ).encode("utf-8")
