"""Makers for the "my table" tests: an event whose field is checked in, one partnership with
accented names to search for, a director; rounds generated and published through the services
(as the director's pages do); a cache of the test's own."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.rounds_factory import make_director, make_entry, make_event, make_field
from tournaments.models import Entry, Event, Match, Round
from tournaments.services import round_generation, round_status


def private_cache(settings: Any) -> None:
    """A local-memory cache of this test's own (never the machine's Redis, shared with other
    runs)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"follow-{uuid.uuid4()}",
        }
    }


@dataclass
class Field:
    event: Event
    director: User
    ramirez: Entry  # players "José Ramírez" and "Ana Núñez"
    others: list[Entry]


def make_followed_event(slug: str = "open", *, teams: int = 7, **fields: Any) -> Field:
    """An event of ``teams`` + 1 checked-in partnerships (round minutes 45), one of them
    "Los Ramírez"."""
    event = make_event(slug=slug, **fields)
    director = make_director(event, f"dir-{slug}")
    others = make_field(event, teams)
    ramirez = make_entry(event, "Los Ramírez", players=("José Ramírez", "Ana Núñez"))
    return Field(event=event, director=director, ramirez=ramirez, others=others)


def draft_round(field: Field) -> Round:
    return round_generation.generate_round(event=field.event, actor=field.director)


def publish_next_round(field: Field) -> Round:
    """Generate the next round and publish it (the services the director's pages call)."""
    return round_status.publish_round(round=draft_round(field), actor=field.director)


def match_of(rnd: Round, entry: Entry) -> Match:
    """The entry's match (game 1) in ``rnd``."""
    from django.db.models import Q

    return Match.objects.select_related("table", "entry_a", "entry_b").get(
        Q(entry_a=entry) | Q(entry_b=entry), round=rnd, game_no=1
    )


def follow(client: Client, event: Event, entry: Entry) -> None:
    """Follow ``entry`` as a player's browser does (the "Follow" button)."""
    response = client.post(f"/events/{event.slug}/me/follow/", {"entry": entry.pk})
    assert response.status_code == 302
    assert response.cookies["spinner_follow"]["path"] == f"/events/{event.slug}/"
