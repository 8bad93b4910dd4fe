"""Makers for the live standings tests: an event with entries, rounds of matches at tables, and
results confirmed through the results service (a director's arbitral final score, so no engine is
needed to reach a confirmed result)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from tests import factories
from tournaments.models import (
    Entry,
    Event,
    Match,
    MatchResult,
    Round,
)


def make_event(slug: str = "live", **fields: Any) -> Event:
    return factories.make_event(slug, **{"tiebreaks": ["buchholz", "spread"], **fields})


def make_entries(event: Event, count: int, prefix: str = "Team") -> list[Entry]:
    return [
        factories.make_entry(
            event, f"{prefix} {n}", players=(f"{prefix} {n} one", f"{prefix} {n} two")
        )
        for n in range(1, count + 1)
    ]


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
            matches.append(factories.seat_bye(rnd, a))
        else:
            table_number += 1
            matches.append(factories.seat_match(rnd, table_number, a, b))
    return matches


def make_director(event: Event, name: str = "director") -> User:
    return factories.make_director(event, name)  # no password: tests use force_login


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


def latest_generation(event: Event) -> int:
    """The event's latest standings generation (0 before the first): generations count up from
    1, but older snapshots are pruned, so counting the rows does not give it."""
    found = event.standings_snapshots.order_by("-generation").values_list("generation").first()
    return found[0] if found else 0


def close_rounds(event: Event) -> None:
    Round.objects.filter(event=event).update(status=Round.Status.CLOSED)
