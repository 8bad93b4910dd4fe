"""Entries changing (a withdrawal, a reinstatement, a late entry) mark the event's standings dirty
and ask for a recompute after commit, as a confirmed result does (tasks run eagerly here)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from tests.tournaments.live_support import (
    confirm,
    make_director,
    make_entries,
    make_event,
    make_round,
)
from tournaments.errors import Conflict
from tournaments.models import Entry, StandingsSnapshot, StandingsState
from tournaments.services import entries
from tournaments.services.entries import PlayerSpec

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _private_cache(settings: Any) -> None:
    """A cache of this test's own (never the machine's Redis, shared with other runs)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"registration-standings-{uuid.uuid4()}",
        }
    }


def rows(event_id: int) -> dict[str, dict[str, Any]]:
    snapshot = StandingsSnapshot.objects.filter(event_id=event_id).order_by("-generation").first()
    assert snapshot is not None
    document = json.loads(snapshot.data)
    extra = document["extra"]
    return {
        row["name"]: {**row, **extra[str(row["entry_id"])]} for row in document["standings"]["rows"]
    }


@pytest.fixture
def played(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """Four teams, round 1 played and its standings computed (nothing dirty)."""
    event = make_event()
    teams = make_entries(event, 4)
    director = make_director(event)
    matches = make_round(event, 1, [(teams[0], teams[1]), (teams[2], teams[3])])
    with django_capture_on_commit_callbacks(execute=True):
        confirm(matches[0], 100, 50, director)
        confirm(matches[1], 30, 100, director)
    state = StandingsState.objects.get(event=event)
    assert state.dirty is False
    return {
        "event": event,
        "teams": teams,
        "director": director,
        "generation": state.results_generation,
    }


def test_a_withdrawal_marks_the_standings_dirty_in_its_transaction(
    played: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event, team = played["event"], played["teams"][1]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        entries.withdraw_entry(actor=played["director"], entry=team, reason="left")
    state = StandingsState.objects.get(event=event)
    assert state.dirty is True
    assert state.dirty_since is not None
    assert state.results_generation == played["generation"] + 1
    # the recompute is requested after commit, not before (beside the public pages' version)
    requests = [c for c in callbacks if c.__qualname__.startswith("enqueue_after_commit")]
    assert len(requests) == 1
    assert rows(event.pk)["Team 2"]["withdrawn"] is False  # no recompute ran yet


def test_a_withdrawal_then_a_reinstatement_reach_the_snapshot(
    played: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event, team = played["event"], played["teams"][1]
    with django_capture_on_commit_callbacks(execute=True):
        entries.withdraw_entry(actor=played["director"], entry=team, reason="left")
    assert rows(event.pk)["Team 2"]["withdrawn"] is True
    assert StandingsState.objects.get(event=event).dirty is False

    with django_capture_on_commit_callbacks(execute=True):
        entries.reinstate_entry(actor=played["director"], entry=team, reason="came back")
    state = StandingsState.objects.get(event=event)
    assert state.dirty is False
    assert state.results_generation == played["generation"] + 2
    assert rows(event.pk)["Team 2"]["withdrawn"] is False


def test_a_late_entry_reaches_the_snapshot(
    played: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event = played["event"]
    assert "Late Team" not in rows(event.pk)
    with django_capture_on_commit_callbacks(execute=True):
        entry = entries.register_late_entry(
            actor=played["director"],
            event=event,
            players=[PlayerSpec("Late One"), PlayerSpec("Late Two")],
            team_name="Late Team",
        )
    assert entry.late is True
    state = StandingsState.objects.get(event=event)
    assert state.dirty is False
    assert state.results_generation == played["generation"] + 1
    late_row = rows(event.pk)["Late Team"]
    assert late_row["match_points"] == 0


def test_a_refused_withdrawal_leaves_the_standings_alone(
    played: Any, django_capture_on_commit_callbacks: Any
) -> None:
    event, team = played["event"], played["teams"][0]
    Entry.objects.filter(pk=team.pk).update(status=Entry.Status.WITHDRAWN)
    with (
        django_capture_on_commit_callbacks(execute=False) as callbacks,
        pytest.raises(Conflict) as refused,
    ):
        entries.withdraw_entry(actor=played["director"], entry=team)
    assert refused.value.code == "already_withdrawn"
    assert callbacks == []
    state = StandingsState.objects.get(event=event)
    assert (state.dirty, state.results_generation) == (False, played["generation"])


def test_a_check_in_does_not_touch_the_standings(played: Any) -> None:
    event = played["event"]
    entries.check_in_entry(actor=played["director"], entry=played["teams"][2])
    state = StandingsState.objects.get(event=event)
    assert (state.dirty, state.results_generation) == (False, played["generation"])
