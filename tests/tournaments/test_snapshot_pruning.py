"""Standings snapshots pruned (issue 28): each new snapshot prunes its event's to the latest, the
last of each round and those a pending ``standings.updated`` delivery names; results confirmed
through the services, recomputes run eagerly (the embedded default)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.core.management import call_command

from tests.tournaments.live_support import confirm, make_director, make_entries, make_event
from tests.tournaments.live_support import make_round as seat_round
from tournaments.models import StandingsSnapshot, WebhookDelivery, WebhookEndpoint
from tournaments.selectors import standings_records
from tournaments.services import snapshot_pruning
from tournaments.services import standings as standings_service

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _private_cache(settings: Any) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"pruning-{uuid.uuid4()}",
        }
    }


def stored(event_id: int) -> list[tuple[int, int | None]]:
    """The event's snapshots, ``(generation, round_number)``, oldest first."""
    return list(
        StandingsSnapshot.objects.filter(event_id=event_id)
        .order_by("generation")
        .values_list("generation", "round_number")
    )


def play(match: Any, a: int, b: int, director: Any, capture: Any) -> int:
    """Confirm a score (its recompute runs on commit, eagerly); the latest generation."""
    with capture(execute=True):
        confirm(match, a, b, director)
    return max(generation for generation, _ in stored(match.round.event_id))


@pytest.fixture
def two_rounds(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """Six teams; round 1 played (3 results, one corrected), round 2's first two results in."""
    event = make_event(slug="pruned")
    teams = make_entries(event, 6)
    director = make_director(event)
    capture = django_capture_on_commit_callbacks
    first = seat_round(event, 1, [(teams[0], teams[1]), (teams[2], teams[3]), (teams[4], teams[5])])
    for match, (a, b) in zip(first, [(100, 50), (30, 100), (100, 95)], strict=True):
        play(match, a, b, director, capture)
    end_of_round_1 = play(first[2], 95, 100, director, capture)  # a correction, still round 1
    second = seat_round(
        event, 2, [(teams[0], teams[3]), (teams[1], teams[4]), (teams[2], teams[5])]
    )
    play(second[0], 100, 10, director, capture)
    latest = play(second[1], 100, 20, director, capture)
    return {
        "event": event,
        "director": director,
        "capture": capture,
        "first": first,
        "second": second,
        "end_of_round_1": end_of_round_1,
        "latest": latest,
    }


def test_keeps_the_latest_and_the_last_of_each_round(two_rounds: dict[str, Any]) -> None:
    event = two_rounds["event"]
    assert two_rounds["latest"] == 6  # six results, six generations written
    assert stored(event.pk) == [(two_rounds["end_of_round_1"], 1), (two_rounds["latest"], 2)]
    kept = StandingsSnapshot.objects.get(event=event, generation=two_rounds["end_of_round_1"])
    assert json.loads(kept.data)["rounds"] == [1]  # the standings as round 1 ended


def test_the_latest_snapshot_is_the_one_a_full_recompute_makes(two_rounds: dict[str, Any]) -> None:
    event = two_rounds["event"]
    latest = StandingsSnapshot.objects.get(event=event, generation=two_rounds["latest"])
    assert latest.data.encode() == standings_records.compute_snapshot_bytes(event_id=event.pk)[0]
    assert standings_service.recompute_standings(event_id=event.pk).status == "current"


def test_a_correction_of_an_earlier_round_keeps_the_rounds_last(
    two_rounds: dict[str, Any],
) -> None:
    event, director, capture = two_rounds["event"], two_rounds["director"], two_rounds["capture"]
    corrected = play(two_rounds["first"][0], 50, 100, director, capture)
    # counts round 2's results too: the newest of round 2 now, the older round 2 one pruned
    assert stored(event.pk) == [(two_rounds["end_of_round_1"], 1), (corrected, 2)]


def pending_delivery(event: Any, generation: int) -> WebhookDelivery:
    endpoint = WebhookEndpoint.objects.create(
        event=event, url="https://hooks.example.org/spinner", secret="s" * 64
    )
    return WebhookDelivery.objects.create(
        endpoint=endpoint,
        kind="standings.updated",
        dedup_key=f"standings.updated:generation:{generation}",
        payload={"event": event.slug, "generation": generation},
    )


def test_a_generation_a_pending_delivery_names_stays_until_delivered(
    two_rounds: dict[str, Any],
) -> None:
    event, director, capture = two_rounds["event"], two_rounds["director"], two_rounds["capture"]
    named = two_rounds["latest"]
    delivery = pending_delivery(event, named)
    newer = play(two_rounds["second"][2], 100, 30, director, capture)
    assert stored(event.pk) == [(two_rounds["end_of_round_1"], 1), (named, 2), (newer, 2)]
    WebhookDelivery.objects.filter(pk=delivery.pk).update(status=WebhookDelivery.Status.DELIVERED)
    assert snapshot_pruning.prune_event_snapshots(event_id=event.pk) == 1
    assert stored(event.pk) == [(two_rounds["end_of_round_1"], 1), (newer, 2)]


def test_snapshots_from_before_the_round_column_are_read_and_pruned(
    two_rounds: dict[str, Any],
) -> None:
    event = two_rounds["event"]
    # As a database from before issue 28 holds them: every snapshot, no round number.
    first = StandingsSnapshot.objects.get(event=event, generation=two_rounds["end_of_round_1"])
    for generation in range(1, two_rounds["end_of_round_1"]):
        StandingsSnapshot.objects.create(
            event=event,
            generation=generation,
            computed_from=first.computed_from,
            digest=f"{generation:064d}",
            data=first.data,
        )
    StandingsSnapshot.objects.filter(event=event).update(round_number=None)
    call_command("prune_standings_snapshots")
    assert stored(event.pk) == [(two_rounds["end_of_round_1"], 1), (two_rounds["latest"], 2)]


@pytest.mark.parametrize(
    ("rows", "named", "kept"),
    [
        ([], set(), set()),
        ([(1, 0)], set(), {1}),
        ([(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)], set(), {2, 4, 5}),
        ([(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)], {1, 9}, {1, 2, 4, 5}),  # 9: no such snapshot
        ([(3, 1), (4, 2), (5, 1)], set(), {4, 5}),  # a round-1 snapshot after a round-2 one
    ],
)
def test_generations_to_keep(rows: list[tuple[int, int]], named: set[int], kept: set[int]) -> None:
    assert snapshot_pruning.generations_to_keep(rows, named) == kept
