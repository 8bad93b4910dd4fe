"""The one set of test factories: events, entries, directors and matches at tables.

Every test module builds its data through these (directly, or through a support module of its
area that sets that area's defaults: ``tests/tournaments/results_support.py`` and the like).
Rows are written with the ORM, as a director's services would leave them, without their checks,
so a test can set up exactly the state it needs.
"""

from __future__ import annotations

import datetime
import itertools
from typing import Any

from django.contrib.auth.models import User

from tournaments.models import (
    Entry,
    EntryPlayer,
    Event,
    Match,
    Partnership,
    Player,
    Round,
    RoundSeat,
    Table,
)
from tournaments.search_keys import name_key

DAY = datetime.date(2026, 12, 5)
_numbers = itertools.count(1)


def make_event(slug: str, **fields: Any) -> Event:
    """A running one-day event called after its slug (any field may be given)."""
    values: dict[str, Any] = {
        "name": slug.title(),
        "start_date": DAY,
        "end_date": DAY,
        "status": Event.Status.RUNNING,
    }
    values.update(fields)
    return Event.objects.create(slug=slug, **values)


def make_entry(
    event: Event,
    name: str,
    *,
    players: tuple[str, ...] | None = None,
    club: str = "",
    **fields: Any,
) -> Entry:
    """An entry of new players: one in a head-to-head event, two partners otherwise (named
    ``players``, or after the entry: "<name> One" and "<name> Two", or "<name> Solo")."""
    single = event.entry_kind == Event.EntryKind.SINGLE
    names = players or ((f"{name} Solo",) if single else (f"{name} One", f"{name} Two"))
    n = next(_numbers)
    people = [
        Player.objects.create(
            name=person,
            name_key=name_key(person),
            club=club,
            email=f"p{n}{i}@example.org" if club else "",
        )
        for i, person in enumerate(names)
    ]
    if single:
        entry = Entry.objects.create(event=event, player=people[0], name=name, **fields)
    else:
        partnership = Partnership.objects.create(player_a=people[0], player_b=people[1])
        entry = Entry.objects.create(event=event, partnership=partnership, name=name, **fields)
    for person in people:
        EntryPlayer.objects.create(event=event, entry=entry, player=person)
    return entry


def make_director(event: Event, name: str, *, password: str | None = None) -> User:
    """A user who directs ``event`` (no password unless given: tests log in with force_login or
    tokens)."""
    user = User.objects.create_user(username=name, password=password)
    event.directors.add(user)
    return user


def seat_match(rnd: Round, number: int, a: Entry, b: Entry) -> Match:
    """A match of ``a`` (side A) against ``b`` at table ``number`` in ``rnd``, with its seats."""
    table, _ = Table.objects.get_or_create(event=rnd.event, number=number)
    match = Match.objects.create(round=rnd, table=table, entry_a=a, entry_b=b)
    RoundSeat.objects.create(round=rnd, entry=a, match=match, side=0)
    RoundSeat.objects.create(round=rnd, entry=b, match=match, side=1)
    return match


def seat_bye(rnd: Round, entry: Entry) -> Match:
    """A bye for ``entry`` in ``rnd`` (no table, no opponent)."""
    match = Match.objects.create(round=rnd, entry_a=entry, is_bye=True)
    RoundSeat.objects.create(round=rnd, entry=entry, match=match, side=0)
    return match
