"""Template helpers for ratings: ``{% load ratings %}``, ``{% rating_card player as card %}``
(``tournaments.presenters.ratings.rating_card``: the rating ± its uncertainty and the history
chart's coordinates)."""

from __future__ import annotations

from django import template

from tournaments.models import Player
from tournaments.presenters import ratings
from tournaments.presenters.ratings import RatingCard

register = template.Library()


@register.simple_tag
def rating_card(player: Player) -> RatingCard:
    return ratings.rating_card(player)
