"""Small builders for the round tests: events, entries with players, directors (plain ORM)."""

from __future__ import annotations

import itertools

from django.contrib.auth.models import User

from tests import factories
from tournaments.models import Entry, Event, Match, Round

_names = itertools.count(1)


def make_event(slug: str = "open", **fields: object) -> Event:
    return factories.make_event(
        slug, **{"name": f"Open {slug}", "salt": "salt-for-tests", **fields}
    )


def make_entry(
    event: Event,
    name: str | None = None,
    *,
    players: tuple[str, str] | None = None,
    status: str = Entry.Status.CHECKED_IN,
    **fields: object,
) -> Entry:
    """A checked-in partnership entry of two new players of "Club" (named after the entry
    unless given)."""
    return factories.make_entry(
        event,
        name or f"Team {next(_names)}",
        players=players,
        club="Club",
        status=status,
        **fields,
    )


def make_field(event: Event, count: int) -> list[Entry]:
    return [make_entry(event, f"Team {i:02d}") for i in range(1, count + 1)]


def make_director(event: Event, username: str = "dana") -> User:
    return factories.make_director(event, username, password="pw-for-tests-123")


def settle_round(rnd: Round, actor: User) -> None:
    """Give every played match of ``rnd`` a confirmed result (the director's arbitral final
    score), so the round may close. The winner alternates by table so that results vary."""
    from tournaments.services.decisions import override_result
    from tournaments.services.standings import recompute_standings

    for match in Match.objects.filter(round=rnd, is_bye=False).select_related("round__event"):
        number = match.table.number if match.table is not None else match.pk
        scores = [305, 180 + 5 * number] if number % 2 else [150 + 5 * number, 305]
        override_result(
            match=match, reason="settled by the test", actor=actor, final_score={"scores": scores}
        )
    # The standings catch up (the worker's job, after commit): the next Swiss round needs them.
    recompute_standings(event_id=rnd.event_id)
