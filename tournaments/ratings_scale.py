"""The one conversion of an openskill rating (mu, sigma) to the integer scale people read.

Pure: no Django. ``services/ratings.py`` stores the model's values on ``Player``; every page,
template and API field that shows a rating converts them here and nowhere else.
"""

from __future__ import annotations

#: The scale: a new player (openskill's default mu 25) shows 1500; one unit of mu is 40 points.
SCALE_BASE = 1500
SCALE_MU = 25.0
SCALE_PER_MU = 40


def display_rating(mu: float, sigma: float) -> tuple[int, int]:
    """The rating as an ordinary integer and its uncertainty: ``(1500 + 40 * (mu - 25),
    40 * 2 * sigma)``, each rounded to a whole number; the ``±`` is two standard deviations
    (about 95% of where the player's strength lies).

    >>> display_rating(25.0, 25 / 3)
    (1500, 667)
    >>> display_rating(27.5, 2.0)
    (1600, 160)
    """
    rating = SCALE_BASE + SCALE_PER_MU * (mu - SCALE_MU)
    plus_minus = SCALE_PER_MU * 2 * sigma
    return round(rating), round(plus_minus)
