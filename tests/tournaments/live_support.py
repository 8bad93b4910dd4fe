"""Makers for the live standings tests: an event with entries, rounds of matches at tables, and
results confirmed through the results service (a director's arbitral final score, so no engine is
needed to reach a confirmed result)."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User

from tournaments.models import (
    Entry,
    EntryPlayer,
    Event,
    Match,
    MatchResult,
    Partnership,
    Player,
    Round,
    RoundSeat,
    Table,
)


def make_event(slug: str = "live", **fields: Any) -> Event:
    day = datetime.date(2026, 12, 5)
    defaults: dict[str, Any] = {
        "name": slug.title(),
        "status": Event.Status.RUNNING,
        "tiebreaks": ["buchholz", "spread"],
    }
    defaults.update(fields)
    return Event.objects.create(slug=slug, start_date=day, end_date=day, **defaults)


def make_entries(event: Event, count: int, prefix: str = "Team") -> list[Entry]:
    entries = []
    for n in range(1, count + 1):
        pa = Player.objects.create(name=f"{prefix} {n} one")
        pb = Player.objects.create(name=f"{prefix} {n} two")
        partnership = Partnership.objects.create(player_a=pa, player_b=pb)
        entry = Entry.objects.create(event=event, partnership=partnership, name=f"{prefix} {n}")
        EntryPlayer.objects.create(event=event, entry=entry, player=pa)
        EntryPlayer.objects.create(event=event, entry=entry, player=pb)
        entries.append(entry)
    return entries


def make_round(
    event: Event,
    number: int,
    pairs: list[tuple[Entry, Entry | None]],
    *,
    kind: str = Round.Kind.SWISS,
    status: str = Round.Status.IN_PLAY,
) -> list[Match]:
    """A round with the given pairs at tables 1..n (``None`` as the second entry: a bye)."""
    rnd = Round.objects.create(event=event, number=number, kind=kind, status=status)
    matches = []
    table_number = 0
    for a, b in pairs:
        if b is None:
            match = Match.objects.create(round=rnd, entry_a=a, is_bye=True)
            RoundSeat.objects.create(round=rnd, entry=a, match=match, side=0)
        else:
            table_number += 1
            table, _ = Table.objects.get_or_create(event=event, number=table_number)
            match = Match.objects.create(round=rnd, table=table, entry_a=a, entry_b=b)
            RoundSeat.objects.create(round=rnd, entry=a, match=match, side=0)
            RoundSeat.objects.create(round=rnd, entry=b, match=match, side=1)
        matches.append(match)
    return matches


def make_director(event: Event, name: str = "director") -> User:
    user = User.objects.create_user(username=name)  # no password: tests use force_login
    event.directors.add(user)
    return user


def confirm(match: Match, a: int, b: int, director: User) -> MatchResult:
    """Confirm a final score through the results service (it marks the standings dirty)."""
    from tournaments.services import decisions

    current = MatchResult.objects.filter(match=match, is_current=True).first()
    if current is None:
        return decisions.override_result(
            match=match,
            reason="entered by the test",
            actor=director,
            final_score={"scores": [a, b]},
        )
    return decisions.correct_result(
        match=match,
        reason="corrected by the test",
        actor=director,
        expected_version=current.version,
        final_score={"scores": [a, b]},
    )


def submit_both(match: Match, a: int, b: int) -> None:
    """Both tables submit the same final score: the results service confirms the match."""
    from tournaments.services import claims

    score = {"scores": [a, b]}
    claims.submit_claim(match=match, side=0, final_score=score)
    outcome = claims.submit_claim(match=match, side=1, final_score=score)
    assert outcome.result is not None, "the two claims should confirm the match"


def close_rounds(event: Event) -> None:
    Round.objects.filter(event=event).update(status=Round.Status.CLOSED)
