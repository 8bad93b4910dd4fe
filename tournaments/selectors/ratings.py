"""Reading ratings: a player's rating history (``RatingChange`` steps in season order), on the
display scale (``tournaments.ratings_scale.display_rating``)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from tournaments.models import Event, Player, RatingChange
from tournaments.ratings_scale import display_rating


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """The player's rating after one round: ``event_name`` is empty where the event is not
    public (the rating still counts its games)."""

    date: datetime.date
    event_name: str
    event_slug: str
    round_number: int
    rating: int
    plus_minus: int
    games: int


def rating_history(player: Player) -> list[RatingPoint]:
    """The player's rating steps (a merged row's: the survivor's), oldest first, in the order
    the re-rate takes rounds: (event start date, event id, round number). One query."""
    player_id = player.merged_into_id or player.pk
    rows = (
        RatingChange.objects.filter(player_id=player_id)
        .order_by("event__start_date", "event_id", "round__number")
        .values_list(
            "event__start_date",
            "event__name",
            "event__slug",
            "event__public_listing",
            "event__status",
            "round__number",
            "mu",
            "sigma",
            "games",
        )
    )
    points = []
    for day, name, slug, listed, status, number, mu, sigma, games in rows:
        rating, plus_minus = display_rating(mu, sigma)
        public = listed and status != Event.Status.DRAFT
        points.append(
            RatingPoint(
                date=day,
                event_name=name if public else "",
                event_slug=slug if public else "",
                round_number=number,
                rating=rating,
                plus_minus=plus_minus,
                games=games,
            )
        )
    return points
