"""Exact numbers as text, for the canonical JSON of a standings snapshot.

JSON numbers are read back as floats by many tools, so only whole numbers are written as JSON
numbers; every other exact value is written as a JSON string: a terminating decimal when there is
one (``"2.5"``, ``"-0.25"``), else a fraction (``"1/3"``). Both forms parse back exactly with
:func:`parse_number`. No float is ever produced, so the same values always give the same bytes.
"""

from __future__ import annotations

from fractions import Fraction

from tournaments.standings.records import Number, normalise


def format_number(value: Number) -> str:
    """The exact text of ``value``: ``"3"``, ``"2.5"``, ``"-0.125"`` or ``"1/3"``.

    >>> format_number(3), format_number(Fraction(5, 2)), format_number(Fraction(-1, 8))
    ('3', '2.5', '-0.125')
    >>> format_number(Fraction(2, 3))
    '2/3'
    """
    value = normalise(value)
    if isinstance(value, int):
        return str(value)
    den = value.denominator
    twos = fives = 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    if den != 1:
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    scaled = abs(value.numerator) * (10**places // value.denominator)
    digits = str(scaled).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
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
    return value if isinstance(value, int) else format_number(value)


def decode_number(value: object) -> Number | None:
    """The inverse of :func:`encode_number`."""
    if value is None:
        return None
    if type(value) is int:
        return value
    if isinstance(value, str):
        return parse_number(value)
    raise ValueError(f"not an exact number: {value!r}")
