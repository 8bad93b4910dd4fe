"""Pure helpers below services and selectors: half-point units, a match's claim state, where two
sheets diverge.

Scores are stored as exact integers of half-points (halves occur in ``all-fives`` with three
players): :func:`to_halves` and :func:`from_halves` are the only conversions.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext

import scoring
from tournaments.errors import ValidationFailed
from tournaments.models import Claim, Match, MatchResult

MAX_HALVES = 200_000  # |score| <= 100000 raw points: far beyond any game, inside the columns


def to_halves(score: Any) -> int:
    """A raw score (int, or a float or Decimal half) as an exact integer of half-points."""
    if isinstance(score, bool) or not isinstance(score, int | float | Decimal):
        raise ValidationFailed(
            gettext("A score is a number."), code="invalid_score", details={"score": score}
        )
    doubled = Decimal(str(score)) * 2
    if not doubled.is_finite() or abs(doubled) > MAX_HALVES:
        raise ValidationFailed(
            gettext("A score is a number of points between -100000 and 100000."),
            code="invalid_score",
            details={"score": str(score)},
        )
    if doubled != doubled.to_integral_value():
        raise ValidationFailed(
            gettext("A score is a whole number of points, or a half."),
            code="invalid_score",
            details={"score": score},
        )
    return int(doubled)


def from_halves(halves: int | None) -> int | float | None:
    """Half-points back to a raw score: an int, or a float ending in .5."""
    if halves is None:
        return None
    return halves // 2 if halves % 2 == 0 else halves / 2


def state_of(match: Match, claims: list[Claim | None], result: MatchResult | None) -> str:
    """``bye``, ``confirmed``, ``conflict``, ``pending`` or ``missing`` (see the module doc)."""
    if match.is_bye:
        return "bye"
    if result is not None:
        return "confirmed"
    submitted = [c for c in claims if c is not None and c.status == Claim.Status.SUBMITTED]
    if len(submitted) == 2:
        return "conflict" if submitted[0].digest != submitted[1].digest else "pending"
    return "pending" if submitted else "missing"


def divergence(sheet_a: Any, sheet_b: Any) -> dict[str, int | None] | None:
    """Where two sheets first differ, ``{"hand", "move"}`` (``scoring.first_divergence``)."""
    found = scoring.first_divergence(sheet_a, sheet_b)
    if found is None:
        return None
    hand, move = found
    return {"hand": hand, "move": move}
