"""The "my table" page's pieces: the followed entry's seats at its table (who sits where, by
compass point), its partners, the round clock and what the page says while it waits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournaments import game
from tournaments.models import Event, Match, Round
from tournaments.presenters import cards
from tournaments.selectors import desk
from tournaments.selectors.follow import FollowedView
from tournaments.selectors.seats import table_seats

COMPASS_WORDS = {
    "North": _("North"),
    "East": _("East"),
    "South": _("South"),
    "West": _("West"),
}
"""The compass points :func:`tournaments.game.compass_point` names, as the reader says them."""


@dataclass(frozen=True)
class SeatLine:
    """One chair at the followed entry's table: where, who, for which team, and whether it is
    one of the followed entry's own chairs."""

    place: str
    player: str
    team: str
    mine: bool


def many_seat_lines(event: Event, match: Match, entry_id: int) -> list[SeatLine]:
    """A table of many's seats (three or four players, one per entry), clockwise from North.
    Two queries at most (the seats, the players)."""
    seats = table_seats([match.pk]).get(match.pk, [])
    players = cards.players_by_entry(event, {e for _, e, _ in seats})
    lines = []
    for seat, entry, name in seats:
        point = game.compass_point(seat, match.table_entries)
        people = players.get(entry, [])
        lines.append(
            SeatLine(
                place=str(COMPASS_WORDS.get(point, point)),
                player=people[0][1] if people else name,
                team="",
                mine=entry == entry_id,
            )
        )
    return lines


def seat_lines(event: Event, match: Match, entry_id: int) -> list[SeatLine]:
    """The match's seats, clockwise from North. Two queries at most (the players)."""
    if match.table_entries > 2:
        return many_seat_lines(event, match, entry_id)
    ids = {match.entry_a_id} | ({match.entry_b_id} if match.entry_b_id else set())
    players = cards.players_by_entry(event, ids)
    seats = cards.seats_for(
        match, players, head_to_head=not game.plays_in_partnerships(event.entry_kind)
    )
    per_table = game.seats_per_table(event.entry_kind)
    lines = []
    for seat in seats:
        point = game.compass_point(seat.number, per_table)
        own = (seat.side == "A") == (match.entry_a_id == entry_id)
        team = match.entry_a if seat.side == "A" else match.entry_b
        lines.append(
            SeatLine(
                place=str(COMPASS_WORDS.get(point, point)),
                player=seat.player,
                team=team.name if team is not None else "",
                mine=own,
            )
        )
    return lines


def live_context(view: FollowedView) -> dict[str, Any]:
    """The followed view's fragment context: the view, the opponent's name, the seats and
    (while the round is in play) its clock."""
    match = view.match
    context: dict[str, Any] = {
        "event": view.event,
        "view": view,
        "entry": view.entry,
        "match": match,
        "seats": [],
        "opponent": "",
        "tablemates": [],
        "clock": None,
    }
    if match is not None:
        if match.table_entries > 2 and not match.is_bye:
            context["seats"] = seat_lines(view.event, match, view.entry.pk)
            context["tablemates"] = [s.player for s in context["seats"] if not s.mine]
        elif match.entry_b is not None:
            other = match.entry_b if match.entry_a_id == view.entry.pk else match.entry_a
            context["opponent"] = other.name
        if not match.is_bye and not context["seats"]:
            context["seats"] = seat_lines(view.event, match, view.entry.pk)
    if view.round is not None and view.round.status == Round.Status.IN_PLAY:
        context["clock"] = desk.round_clock(view.round)
    return context
