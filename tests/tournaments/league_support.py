"""Makers for the league tests: players who come back event after event, in partnerships
re-formed as they like, and finished events with their frozen placings (as
``services.finish.finish_event`` leaves them; the demo league's test plays them for real)."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User

from tests import factories
from tournaments.models import Entry, EntryPlayer, Event, League, Partnership, Player
from tournaments.services.organisers import make_organiser

POINTS = [25, 18, 15, 12, 10, 8, 6, 4]


def people(*names: str) -> dict[str, Player]:
    """Players by first name."""
    return {name: Player.objects.create(name=name, name_key=name.lower()) for name in names}


def pair_entry(event: Event, a: Player, b: Player) -> Entry:
    """A partnership entry of two existing players."""
    partnership = Partnership.objects.create(player_a=a, player_b=b)
    entry = Entry.objects.create(event=event, partnership=partnership, name=f"{a.name} & {b.name}")
    for person in (a, b):
        EntryPlayer.objects.create(event=event, entry=entry, player=person)
    return entry


def finished_event(
    slug: str,
    pairs: list[tuple[Player, Player]],
    *,
    places: list[int] | None = None,
    league: League | None = None,
    day: int = 1,
    **fields: Any,
) -> Event:
    """A finished event of ``pairs`` placed in order (``places``: each pair's place, for shared
    places; default 1, 2, 3...), in ``league``."""
    values: dict[str, Any] = {
        "status": Event.Status.FINISHED,
        "start_date": datetime.date(2026, 1, day),
        "end_date": datetime.date(2026, 1, day),
        "league": league,
        **fields,
    }
    event = factories.make_event(slug, **values)
    wheres = places or list(range(1, len(pairs) + 1))
    placings = []
    for (a, b), place in zip(pairs, wheres, strict=True):
        entry = pair_entry(event, a, b)
        shared = wheres.count(place) > 1
        placings.append(
            {
                "place": place,
                "entry_id": entry.pk,
                "name": entry.name,
                "eliminated_in": None,
                "shared": shared,
            }
        )
    event.placings = placings
    event.save(update_fields=["placings"])
    return event


def make_league(slug: str = "club", **fields: Any) -> League:
    values: dict[str, Any] = {"name": slug.title(), "season": "2026", "points": POINTS}
    values.update(fields)
    return League.objects.create(slug=slug, **values)


def organiser(name: str = "boss") -> User:
    user = User.objects.create_user(username=name)
    make_organiser(user=user)
    return user
