"""A player's rating for a page: the current rating ± its uncertainty and a small line chart of
its history, drawn on the server as inline SVG coordinates (no script)."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Player
from tournaments.ratings_scale import display_rating
from tournaments.selectors.ratings import RatingPoint, rating_history

WIDTH = 320
HEIGHT = 96
PAD = 6


@dataclass(frozen=True)
class ChartDot:
    """One step of the chart: its SVG coordinates as text (``"12.5"``, never localised)."""

    x: str
    y: str
    point: RatingPoint


@dataclass(frozen=True)
class RatingCard:
    """What ``tournaments/players/_rating.html`` shows; ``rating`` None: not rated yet."""

    rating: int | None
    plus_minus: int | None
    games: int
    polyline: str
    dots: list[ChartDot]
    low: int
    high: int
    width: int = WIDTH
    height: int = HEIGHT


def rating_card(player: Player) -> RatingCard:
    """The player's current rating and its history chart (a merged row shows the survivor's)."""
    source = player.merged_into if player.merged_into_id else player
    assert source is not None
    rating = plus_minus = None
    if source.rating_mu is not None and source.rating_sigma is not None:
        rating, plus_minus = display_rating(source.rating_mu, source.rating_sigma)
    points = rating_history(player)
    dots = chart_dots(points)
    return RatingCard(
        rating=rating,
        plus_minus=plus_minus,
        games=source.rated_games,
        polyline=" ".join(f"{d.x},{d.y}" for d in dots),
        dots=dots,
        low=min((p.rating for p in points), default=0),
        high=max((p.rating for p in points), default=0),
    )


def chart_dots(points: list[RatingPoint]) -> list[ChartDot]:
    """Each step's place in the chart: evenly spaced in order, the rating scaled between the
    lowest and highest (a flat line mid-height when they are equal)."""
    if not points:
        return []
    low = min(p.rating for p in points)
    high = max(p.rating for p in points)
    span = high - low
    step = (WIDTH - 2 * PAD) / max(1, len(points) - 1)
    dots = []
    for index, point in enumerate(points):
        share = 0.5 if span == 0 else (point.rating - low) / span
        y = HEIGHT - PAD - share * (HEIGHT - 2 * PAD)
        dots.append(ChartDot(x=f"{PAD + index * step:.1f}", y=f"{y:.1f}", point=point))
    return dots
