"""Ratings from rated games, pure: no Django (a test enforces it), plain records in and out.

- :mod:`tournaments.rating.engine`: the openskill model Spinner uses (``MODEL``), the records
  (``RatedGame``, ``RatedRound``, ``PlayerRating``) and the order-independent re-rate
  (``rate_round``, ``rate_rounds``).

``tournaments/services/ratings.py`` reads the database into these records and writes the
result; ``docs/ratings.md`` states the model, its parameters and why.
"""

from tournaments.rating.engine import (
    MODEL,
    PlayerRating,
    RatedGame,
    RatedRound,
    rate_round,
    rate_rounds,
)

__all__ = ["MODEL", "PlayerRating", "RatedGame", "RatedRound", "rate_round", "rate_rounds"]
