"""A score as a person reads it: displayed points (:func:`tournaments.game.format_displayed`).

Results and claims keep their scores as exact half-points of the raw score (``score_a_halves``);
this is the one place a page turns them into text.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tournaments import game


def raw_from_halves(halves: int | None) -> Fraction | None:
    """Half-points back to the exact raw score (``None`` stays ``None``)."""
    return None if halves is None else Fraction(halves, 2)


def score_pair(result: Any, event_or_rules: Any, separator: str = " – ") -> str:
    """``"61 – 40"``: a result's or a claim's two scores (side 0 first) in displayed points, or
    ``""`` when it has none; at a table of many, every seat's (``"62.5 – 100 – 12.5"``)."""
    if result is None:
        return ""
    many = getattr(result, "scores_halves", None)
    if many:  # a table of many: every seat's score, seat order
        return separator.join(
            game.format_displayed(raw_from_halves(h), event_or_rules) for h in many
        )
    a = getattr(result, "score_a_halves", None)
    b = getattr(result, "score_b_halves", None)
    if a is None or b is None:
        return ""
    return separator.join(game.format_displayed(raw_from_halves(h), event_or_rules) for h in (a, b))


def named_scores(result: Any, names: list[str], event_or_rules: Any, separator: str = ", ") -> str:
    """``"Ann Lee 30, Tess Green 35, Lucy Grant 200"``: a table of many's result or claim, each
    seat's score after its player's name (seat order); :func:`score_pair` for two sides."""
    many = getattr(result, "scores_halves", None) if result is not None else None
    if not many:
        return score_pair(result, event_or_rules)
    return separator.join(
        f"{names[seat] if seat < len(names) else ''} "
        f"{game.format_displayed(raw_from_halves(h), event_or_rules)}".strip()
        for seat, h in enumerate(many)
    )
