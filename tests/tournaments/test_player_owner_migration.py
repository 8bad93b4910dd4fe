"""Migration 0012 gives every existing player an owner (a director of the earliest event the
player entered) and copies its contact details to that event's membership alone: after it,
another event's directors read no contact they did not collect."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0011_json_columns_by_orjson")]
AFTER = [("tournaments", "0012_player_owner_event_contact")]


@pytest.mark.django_db(transaction=True)
def test_existing_players_get_their_first_events_director_as_owner() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    User = old.get_model("auth", "User")
    Event, Entry = old.get_model("tournaments", "Event"), old.get_model("tournaments", "Entry")
    Player = old.get_model("tournaments", "Player")
    EntryPlayer = old.get_model("tournaments", "EntryPlayer")
    first_director, later_director = (
        User.objects.create(username="a"),
        User.objects.create(username="b"),
    )
    events = []
    for slug, day, director in (("early", 1, first_director), ("late", 9, later_director)):
        date = datetime.date(2026, 3, day)
        event = Event.objects.create(slug=slug, name=slug, start_date=date, end_date=date)
        event.directors.add(director)
        events.append(event)
    ana = Player.objects.create(name="Ana", email="ana@example.org", phone="07")
    loner = Player.objects.create(name="Loner")
    for event in events:
        entry = Entry.objects.create(event=event, player=ana, name="Ana")
        EntryPlayer.objects.create(event=event, entry=entry, player=ana)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    Player = new.get_model("tournaments", "Player")
    EntryPlayer = new.get_model("tournaments", "EntryPlayer")
    assert Player.objects.get(pk=ana.pk).owner_id == first_director.pk
    assert Player.objects.get(pk=loner.pk).owner_id is None  # in no event: superusers only
    contact = dict(EntryPlayer.objects.filter(player_id=ana.pk).values_list("event__slug", "email"))
    assert contact == {"early": "ana@example.org", "late": ""}
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
