"""What a player's pages show: the rating on the display scale (``tournaments.ratings_scale``)
and each event of the player's record as a line a person reads."""

from __future__ import annotations

from typing import Any

from tournaments import game
from tournaments.models import Player
from tournaments.ratings_scale import display_rating
from tournaments.selectors.players import PlayerEvent, PlayerRecord


def rating_of(player: Player) -> dict[str, Any] | None:
    """The player's current rating as shown (``rating``, ``plus_minus``, ``games``), or None
    before the first rated game."""
    if player.rating_mu is None or player.rating_sigma is None:
        return None
    rating, plus_minus = display_rating(player.rating_mu, player.rating_sigma)
    return {"rating": rating, "plus_minus": plus_minus, "games": player.rated_games}


def match_lines(item: PlayerEvent) -> list[dict[str, Any]]:
    """The event's matches of the player's entry with scores in displayed points (blank where
    the event keeps its results private)."""
    lines = []
    for match in item.history:
        line = dict(match)
        if item.show_results and match["confirmed"]:
            line["own_points"] = game.format_displayed(match["own"], item.event)
            line["other_points"] = game.format_displayed(match["other"], item.event)
        else:
            line.update(own_points="", other_points="", outcome="" if not match["bye"] else "bye")
            line["forfeit"] = ""
        lines.append(line)
    return lines


def player_page(record: PlayerRecord) -> dict[str, Any]:
    """The public player page's context: name, club, rating, and every visible event."""
    return {
        "player": record.player,
        "rating": rating_of(record.player),
        "events": [{"item": item, "matches": match_lines(item)} for item in record.events],
    }
