"""Check-in codes: what a player types to check themselves in (issue 18).

An entry's code (``Entry.check_in_code``) is printed on its registration; the director's code
for the day (``Event.check_in_day_code``) is announced at the venue. Codes are short and
unambiguous: six characters from an alphabet without look-alikes (no 0/O/D/Q, 1/I/L, 2/Z, 5/S,
8/B, G: 6 stays), shown in two groups of three ("K7M-3XR"). What a person types is read forgivingly:
case, spaces and hyphens do not matter. Pure: no database here.
"""

from __future__ import annotations

import hmac
import secrets

ALPHABET = "ACEFHJKMNPRTUVWXY34679"
LENGTH = 6
DAY_CODE_MIN, DAY_CODE_MAX = 6, 16
"""A day code the director types: 6 to 16 letters and digits (a guessable one is their call;
the check-in page is throttled per address and per entry)."""


def new_code() -> str:
    """A fresh random code (``LENGTH`` characters of ``ALPHABET``: about 113 million codes)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(text: str) -> str:
    """A typed code as stored: upper case, letters and digits only.

    >>> normalise(" k7m-3xr ")
    'K7M3XR'
    """
    return "".join(ch for ch in str(text).upper() if ch.isascii() and ch.isalnum())


def shown(code: str) -> str:
    """A stored code as printed: two groups of three for an entry's code.

    >>> shown("K7M3XR")
    'K7M-3XR'
    >>> shown("DOMINOES")
    'DOMINOES'
    """
    if len(code) == LENGTH:
        return f"{code[:3]}-{code[3:]}"
    return code


def day_code_problem(code: str) -> str:
    """Why ``code`` (normalised) cannot be the day's code, or "" when it can."""
    if not DAY_CODE_MIN <= len(code) <= DAY_CODE_MAX:
        return f"{DAY_CODE_MIN} to {DAY_CODE_MAX} letters and digits"
    return ""


def matches(typed: str, stored: str) -> bool:
    """Does what was typed match the stored code? Never for an empty code; compared in
    constant time (no timing tells how much of a guess was right)."""
    given = normalise(typed)
    if not given or not stored:
        return False
    return hmac.compare_digest(given.encode(), stored.encode())
