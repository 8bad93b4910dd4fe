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
from tournaments.models import Claim, Event, Match, MatchResult
from tournaments.standings.multiplayer import TableResult, placings
from tournaments.standings.records import RoundKind

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
    """``bye``, ``confirmed``, ``conflict``, ``pending`` or ``missing`` (see the module doc).

    ``claims``: each side's (or, at a table of many, each seat's) current claim; two submitted
    claims that differ are a conflict."""
    if match.is_bye:
        return "bye"
    if result is not None:
        return "confirmed"
    submitted = [c for c in claims if c is not None and c.status == Claim.Status.SUBMITTED]
    if len(submitted) >= 2:
        return "conflict" if len({c.digest for c in submitted}) > 1 else "pending"
    return "pending" if submitted else "missing"


def confirmations_needed(seats: int, rule: str) -> int:
    """At a table of ``seats`` players, how many of the OTHER players must hold the same claim as
    a claim's sender for it to be agreed: all of them (``Event.TableConfirmation.ALL``), or more
    than half of them (``MAJORITY``: 2 of 3 at a table of four; both at a table of three).

    >>> confirmations_needed(4, "all"), confirmations_needed(4, "majority")
    (3, 2)
    >>> confirmations_needed(3, "majority")
    2
    """
    others = seats - 1
    if rule == Event.TableConfirmation.MAJORITY:
        return others // 2 + 1
    return others


def table_agreement(claims: list[Claim | None], rule: str) -> list[Claim] | None:
    """At a table of many (``claims``: each seat's current claim), the submitted claims that agree
    on one sheet when enough seats hold it (:func:`confirmations_needed`: the sender and that
    many others), else None. Two sheets can never both be agreed: a majority is more than half.
    """
    by_digest: dict[str, list[Claim]] = {}
    for claim in claims:
        if claim is not None and claim.status == Claim.Status.SUBMITTED:
            by_digest.setdefault(claim.digest, []).append(claim)
    needed = 1 + confirmations_needed(len(claims), rule)
    for holders in by_digest.values():
        if len(holders) >= needed:
            return holders
    return None


def table_placings(scores_halves: list[int] | tuple[int, ...]) -> list[int]:
    """Each seat's place at a table of many from its score (1 = first), as the standings package
    ranks a table (:func:`tournaments.standings.multiplayer.placings`: equal scores share a
    place, 1, 2, 2, 4)."""
    seats = tuple(range(len(scores_halves)))
    table = TableResult(0, 1, RoundKind.SWISS, seats, tuple(scores_halves))
    place = placings(table)
    return [place[seat] for seat in seats]


def divergence(sheet_a: Any, sheet_b: Any) -> dict[str, int | None] | None:
    """Where two sheets first differ, ``{"hand", "move"}`` (``scoring.first_divergence``)."""
    found = scoring.first_divergence(sheet_a, sheet_b)
    if found is None:
        return None
    hand, move = found
    return {"hand": hand, "move": move}
