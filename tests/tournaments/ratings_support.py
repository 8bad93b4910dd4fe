"""Shared makers for the ratings tests: rated events whose rounds seat the same partnerships
again, and results entered by a director (the real services)."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User

from tests import factories
from tests.tournaments import results_support
from tournaments.models import Entry, Event, Match, MatchResult, Player, RatingChange, Round
from tournaments.services import decisions


def make_event(slug: str, *, day: int = 5, entries: int = 4, **fields: Any) -> Event:
    """A rated All Fives event to 100 on 2026-12-``day``, with ``entries`` partnerships."""
    when = datetime.date(2026, 12, day)
    event = results_support.make_event(slug, start_date=when, end_date=when, **fields)
    for n in range(entries):
        factories.make_entry(event, f"{slug}-{n}")
    return event


def field(event: Event) -> list[Entry]:
    return list(Entry.objects.filter(event=event).order_by("pk"))


def seat_round(event: Event, number: int, pairs: list[tuple[int, int]]) -> list[Match]:
    """Round ``number`` in play, entry ``a`` (by index in :func:`field`) against ``b``."""
    entries = field(event)
    rnd = Round.objects.create(event=event, number=number, status=Round.Status.IN_PLAY)
    return [
        factories.seat_match(rnd, table, entries[a], entries[b])
        for table, (a, b) in enumerate(pairs, start=1)
    ]


def director(event: Event) -> User:
    return factories.make_director(event, f"dir-{event.slug}")


def enter(match: Match, actor: User, scores: tuple[int, int]) -> MatchResult:
    """The director's arbitral result (or a correction over a confirmed one)."""
    current = MatchResult.objects.filter(match=match, is_current=True).first()
    if current is None:
        return decisions.override_result(
            match=match, reason="from the sheet", actor=actor, final_score={"scores": list(scores)}
        )
    return decisions.correct_result(
        match=match,
        reason="wrong sheet",
        actor=actor,
        expected_version=current.version,
        final_score={"scores": list(scores)},
    )


def snapshot() -> dict[str, Any]:
    """Every stored rating step and every player's latest rating, in a fixed order: two equal
    snapshots are the same ratings, to the float."""
    steps = sorted(
        RatingChange.objects.values_list(
            "player_id", "round_id", "event_id", "mu", "sigma", "games"
        )
    )
    players = sorted(Player.objects.values_list("pk", "rating_mu", "rating_sigma", "rated_games"))
    return {"steps": steps, "players": players}


def mark_left_unsent(slug: str) -> Event:
    """A rated event of four partnerships whose round 1 results (two tables) made the re-rate
    mark, its task never sent (a lost message: the after-commit callbacks are dropped). Call
    inside ``django_capture_on_commit_callbacks(execute=False)``."""
    event = make_event(slug, entries=4)
    actor = director(event)
    for match in seat_round(event, 1, [(0, 1), (2, 3)]):
        enter(match, actor, (100, 10))
    return event
