"""``manage.py demo`` builds the demo event and changes nothing when run again."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from tournaments.management.commands import demo
from tournaments.models import AuditEntry, Entry, EntryPlayer, Event, Partnership, Player
from tournaments.permissions import can_create_events

pytestmark = pytest.mark.django_db


def counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (User, Event, Player, Partnership, Entry, EntryPlayer, AuditEntry)
    }


def test_demo_builds_a_public_event_of_24_checked_in_partnerships() -> None:
    out = StringIO()
    call_command("demo", stdout=out)
    event = Event.objects.get(slug="demo")
    assert event.name == "Spinner Winter Open"
    assert event.public_listing and event.status != Event.Status.DRAFT
    assert event.salt == demo.SALT
    entries = Entry.objects.filter(event=event)
    assert entries.count() == 24
    assert set(entries.values_list("status", flat=True)) == {Entry.Status.CHECKED_IN}
    assert EntryPlayer.objects.filter(event=event).count() == 48
    assert Player.objects.filter(memberships__event=event).exclude(club="").count() == 48
    director = User.objects.get(username="director")
    assert director.check_password("director") and event.directors.filter(pk=director.pk).exists()
    # The demo's director may create events (an organiser); a new account may not (issue 15).
    assert can_create_events(director)
    assert not can_create_events(User.objects.create_user("visitor"))
    assert User.objects.get(username="admin").is_staff
    text = out.getvalue()
    assert "director / director" in text and "/events/demo/" in text
    page = Client().get("/events/demo/").content.decode()
    assert "Spinner Winter Open" in page and demo.SALT in page
    assert "Spinner Winter Open" in Client().get("/events/").content.decode()


def test_running_the_demo_twice_changes_nothing() -> None:
    call_command("demo", stdout=StringIO())
    before = counts()
    names = sorted(Entry.objects.values_list("name", flat=True))
    out = StringIO()
    call_command("demo", stdout=out)
    assert counts() == before
    assert sorted(Entry.objects.values_list("name", flat=True)) == names
    assert "0 partnerships registered (24 in all)" in out.getvalue()
    assert "0 entries checked in" in out.getvalue()


def test_the_demo_names_are_deterministic_and_distinct() -> None:
    first, second = demo.demo_partnerships(), demo.demo_partnerships()
    assert first == second
    people = [p.key() for players, _ in first for p in players]
    assert len(people) == len(set(people)) == 48


def test_the_demo_refuses_to_run_in_production(settings: object) -> None:
    from django.core.management.base import CommandError

    settings.PRODUCTION = True  # type: ignore[attr-defined]
    with pytest.raises(CommandError, match="production"):
        call_command("demo", stdout=StringIO())
    assert not User.objects.filter(username="admin").exists()
