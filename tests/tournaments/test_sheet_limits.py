"""A sheet's size limit fits the longest match the engine plays, with room to spare, and
refuses more (``sheet_too_large`` 400, or ``request_too_large`` 413 for the body); idempotency
records are purged by a beat job after their time to live (issue 15)."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from scoring.simulate import simulate
from spinner.celery import app
from tests.tournaments.api_support import assert_error, post, table_client
from tests.tournaments.results_support import make_event, make_round, match_at, sheet
from tournaments.models import Claim, IdempotencyRecord
from tournaments.services.assessment import MAX_SHEET_BYTES, check_sheet_tree
from tournaments.tasks import purge_idempotency_records


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=True))


def test_the_longest_simulated_match_fits_with_room_to_spare() -> None:
    """Five-up, three players, bots playing at random: 412 kB, the longest of 120 seeds (real
    players, like the greedy bot, stay under 41 kB)."""
    longest = next(iter(simulate(rules="five-up", players=3, bot="random", seed=9, count=1)))
    assert _size(longest) > 400_000
    check_sheet_tree(longest)  # taken
    assert 2 * _size(longest) <= MAX_SHEET_BYTES
    assert django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE > MAX_SHEET_BYTES


@pytest.mark.django_db
def test_a_sheet_over_the_limit_is_refused_with_a_clear_code() -> None:
    rnd = make_round(make_event("too-big"))
    match = match_at(rnd, 1)
    padded = sheet("tally")
    padded["notes"] = "x" * (MAX_SHEET_BYTES + 10)  # one value: under the node and body limits
    response = post(
        table_client(rnd, 1), f"/api/matches/{match.pk}/claims/", {"side": 0, "sheet": padded}
    )
    body = assert_error(response, 400, "sheet_too_large")
    assert body["details"]["max_bytes"] == MAX_SHEET_BYTES
    assert not Claim.objects.filter(match=match).exists()


@pytest.mark.django_db
def test_a_body_over_the_limit_is_413() -> None:
    rnd = make_round(make_event("body-too-big"))
    match = match_at(rnd, 1)
    padded = sheet("tally")
    padded["notes"] = "x" * (django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)
    response = post(
        table_client(rnd, 1), f"/api/matches/{match.pk}/claims/", {"side": 0, "sheet": padded}
    )
    assert_error(response, 413, "request_too_large")
    assert not Claim.objects.filter(match=match).exists()
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.django_db
def test_idempotency_records_are_purged_after_their_time_to_live() -> None:
    rnd = make_round(make_event("purge"))
    for n in (1, 2):
        answer = post(
            table_client(rnd, n),
            f"/api/matches/{match_at(rnd, n).pk}/claims/",
            {"side": 0, "sheet": sheet("tally")},
        )
        assert answer.status_code == 201, answer.content
    old, new = IdempotencyRecord.objects.order_by("pk")
    ttl = django_settings.SPINNER_IDEMPOTENCY_TTL_SECONDS
    IdempotencyRecord.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(seconds=ttl + 60)
    )
    assert purge_idempotency_records.apply().get() == 1
    assert list(IdempotencyRecord.objects.values_list("pk", flat=True)) == [new.pk]
    assert Claim.objects.count() == 2  # the claims themselves are kept


def test_beat_runs_the_purge() -> None:
    entries = [
        e
        for e in django_settings.CELERY_BEAT_SCHEDULE.values()
        if e["task"] == purge_idempotency_records.name
    ]
    assert len(entries) == 1
    assert 0 < entries[0]["schedule"] <= django_settings.SPINNER_IDEMPOTENCY_TTL_SECONDS
    assert purge_idempotency_records.name in app.tasks
