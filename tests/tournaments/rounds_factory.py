"""Small builders for the round tests: events, entries with players, directors (plain ORM)."""

from __future__ import annotations

import datetime
import itertools

from django.contrib.auth.models import User

from tournaments.models import Entry, EntryPlayer, Event, Match, Partnership, Player, Round

_names = itertools.count(1)


def make_event(slug: str = "open", **fields: object) -> Event:
    day = datetime.date(2026, 12, 5)
    values: dict[str, object] = {
        "name": f"Open {slug}",
        "slug": slug,
        "start_date": day,
        "end_date": day,
        "status": Event.Status.RUNNING,
        "salt": "salt-for-tests",
    }
    values.update(fields)
    return Event.objects.create(**values)


def make_entry(
    event: Event,
    name: str | None = None,
    *,
    players: tuple[str, str] | None = None,
    status: str = Entry.Status.CHECKED_IN,
    **fields: object,
) -> Entry:
    """A partnership entry of two new players (named after the entry unless given)."""
    n = next(_names)
    name = name or f"Team {n}"
    first, second = players or (f"{name} One", f"{name} Two")
    pa = Player.objects.create(name=first, club="Club", email=f"p{n}a@example.org")
    pb = Player.objects.create(name=second, club="Club", email=f"p{n}b@example.org")
    partnership = Partnership.objects.create(player_a=pa, player_b=pb)
    entry = Entry.objects.create(
        event=event, partnership=partnership, name=name, status=status, **fields
    )
    EntryPlayer.objects.create(event=event, entry=entry, player=pa)
    EntryPlayer.objects.create(event=event, entry=entry, player=pb)
    return entry


def make_field(event: Event, count: int) -> list[Entry]:
    return [make_entry(event, f"Team {i:02d}") for i in range(1, count + 1)]


def make_director(event: Event, username: str = "dana") -> User:
    user = User.objects.create_user(username=username, password="pw-for-tests-123")
    event.directors.add(user)
    return user


def settle_round(rnd: Round, actor: User) -> None:
    """Give every played match of ``rnd`` a confirmed result (the director's arbitral final
    score), so the round may close. The winner alternates by table so that results vary."""
    from tournaments.services.decisions import override_result
    from tournaments.services.standings import recompute_standings

    for match in Match.objects.filter(round=rnd, is_bye=False).select_related("round__event"):
        number = match.table.number if match.table is not None else match.pk
        scores = [305, 180 + number] if number % 2 else [150 + number, 305]
        override_result(
            match=match, reason="settled by the test", actor=actor, final_score={"scores": scores}
        )
    # The standings catch up (the worker's job, after commit): the next Swiss round needs them.
    recompute_standings(event_id=rnd.event_id)
