"""Makers for the player tests: players by name (``name_key`` kept, as the services keep it),
entries of given players, and a small world of two events in which Ana Ramírez plays with two
different partners (a finished event with its placings, then a running one with a forfeit),
every result written through the real result services."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import User

from tests import factories
from tournaments.models import Entry, EntryPlayer, Event, Match, Partnership, Player, Round
from tournaments.search_keys import name_key
from tournaments.services import decisions, forfeits
from tournaments.services.standings import recompute_standings

WIN, LOSE = 305, 200  # Five Up, raw: 61 and 40 displayed


def make_player(name: str, club: str = "", **fields: object) -> Player:
    return Player.objects.create(name=name, name_key=name_key(name), club=club, **fields)


def entry_of(event: Event, name: str, *people: Player) -> Entry:
    """An entry of ``people`` (two partners, or one head to head) in ``event``."""
    if len(people) == 2:
        partnership = Partnership.objects.create(player_a=people[0], player_b=people[1])
        entry = Entry.objects.create(event=event, partnership=partnership, name=name)
    else:
        entry = Entry.objects.create(event=event, player=people[0], name=name)
    EntryPlayer.objects.bulk_create(EntryPlayer(event=event, entry=entry, player=p) for p in people)
    return entry


def play(event: Event, number: int, a: Entry, b: Entry, boss: User) -> Match:
    """Round ``number`` of ``event``: ``a`` v ``b`` at table 1, ``a`` winning 61-40."""
    rnd = Round.objects.create(event=event, number=number, status=Round.Status.IN_PLAY)
    match = factories.seat_match(rnd, 1, a, b)
    decisions.override_result(
        match=match, reason="played", actor=boss, final_score={"scores": [WIN, LOSE]}
    )
    return match


@dataclass
class World:
    ana: Player
    bob: Player
    ed: Player
    boss: User
    spring: Event
    summer: Event
    spring_entry: Entry
    summer_entry: Entry


def two_events() -> World:
    """Ana Ramírez plays Spring (with Bob; finished, first) and Summer (with Ed; running, her
    team won round 1 by a no-show forfeit)."""
    ana = make_player("Ana Ramírez", "Brixton Fives", email="ana@example.org", phone="0700 1")
    bob, ed = make_player("Bob Ray", "Brixton Fives"), make_player("Ed Obi")
    day = datetime.date(2026, 6, 1)
    spring = factories.make_event(
        "spring", name="Spring Open", public_listing=True, start_date=day, end_date=day
    )
    boss = factories.make_director(spring, "boss")
    Player.objects.filter(pk__in=[ana.pk, bob.pk, ed.pk]).update(owner=boss)  # boss entered them
    spring_entry = entry_of(spring, "Ana & Bob", ana, bob)
    other = entry_of(spring, "Cy & Di", make_player("Cy Osei"), make_player("Di Park"))
    play(spring, 1, spring_entry, other, boss)
    Event.objects.filter(pk=spring.pk).update(
        status=Event.Status.FINISHED,
        placings=[
            {"place": 1, "entry_id": spring_entry.pk, "name": "Ana & Bob", "shared": False},
            {"place": 2, "entry_id": other.pk, "name": "Cy & Di", "shared": False},
        ],
    )
    summer = factories.make_event("summer", name="Summer Cup", public_listing=True)
    summer.directors.add(boss)
    summer_entry = entry_of(summer, "Ana & Ed", ana, ed)
    rival = entry_of(summer, "Fay & Gus", make_player("Fay Lee"), make_player("Gus Ng"))
    rnd = Round.objects.create(event=summer, number=1, status=Round.Status.IN_PLAY)
    match = factories.seat_match(rnd, 1, summer_entry, rival)
    forfeits.record_forfeit(match=match, side=1, reason="did not come", actor=boss)
    recompute_standings(event_id=summer.pk)
    spring.refresh_from_db()
    summer.refresh_from_db()
    for player in (ana, bob, ed):
        player.refresh_from_db()
    return World(ana, bob, ed, boss, spring, summer, spring_entry, summer_entry)
