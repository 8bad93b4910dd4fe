"""The events, entries, audit and player-edit endpoints' cells of the role x endpoint matrix
(``test_api_permissions``), kept here so that each area adds its endpoints in its own module.

The event ("home") is running and unlisted, with round 1 in play: anyone may read it (it is out
of draft) and the public list; its entries, audit log and every change are its directors' (staff
read them and change nothing: 403 ``read_only_staff``); a director of another event gets 404, a
table link 403. Creating an event takes an organiser (the setup makes the home director one).
A player is edited by its owner (the home director, whose registration created it) and
superusers: never staff (403 ``read_only_staff``) nor another director (404).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group
from rest_framework.test import APIClient

from tests.tournaments.api_support import key as new_key
from tests.tournaments.api_support import post
from tournaments.models import Match, Player, Round
from tournaments.permissions import ORGANISERS_GROUP

READ_ONLY = "read_only_staff"


def _nothing(match: Match) -> None:
    return None


def _organisers(match: Match) -> None:
    group = Group.objects.get(name=ORGANISERS_GROUP)
    for director in match.round.event.directors.all():
        director.groups.add(group)


def _owned(match: Match) -> None:
    """The match's players were entered by the home director: their records are theirs."""
    director = match.round.event.directors.order_by("pk").first()
    Player.objects.filter(memberships__entry=match.entry_a).update(owner=director)


def _patch(client: APIClient, url: str, data: Any) -> Any:
    return client.patch(url, data, format="json", HTTP_IDEMPOTENCY_KEY=new_key())


def _event(r: Round) -> str:
    return f"/api/events/{r.event.slug}/"


def _entry(m: Match, r: Round) -> str:
    return f"{_event(r)}entries/{m.entry_a_id}/"


def _player(m: Match) -> int:
    member = m.entry_a.members.first()
    assert member is not None
    return member.player_id


# Directors' endpoints: anyone else 404 (another event's director), 403 (a table).
_DIRECTORS = {
    "table_a": 403,
    "table_b": 403,
    "table_other_round": 403,
    "table_other_event": 403,
    "other_director": 404,
}
_EVERYONE = {
    "anonymous": 200,
    "table_a": 200,
    "table_b": 200,
    "table_other_round": 200,
    "table_other_event": 200,
    "other_director": 200,
    "director": 200,
}

Call = Any
ENDPOINTS: dict[str, tuple[Any, Call, dict[str, int]]] = {
    "events_list": (_nothing, lambda c, m, r: c.get("/api/events/"), dict(_EVERYONE)),
    "event_create": (
        _organisers,
        lambda c, m, r: post(
            c, "/api/events/", {"name": "New", "start_date": "2026-12-06", "end_date": "2026-12-06"}
        ),
        {**_DIRECTORS, "other_director": 403, "director": 201},
    ),
    "event_detail": (_nothing, lambda c, m, r: c.get(_event(r)), dict(_EVERYONE)),
    "event_update": (
        _nothing,
        lambda c, m, r: _patch(c, _event(r), {"venue": "Hall"}),
        {**_DIRECTORS, "director": 200},
    ),
    "event_publish": (
        _nothing,
        lambda c, m, r: post(c, _event(r) + "publish/", {"status": "running"}),
        {**_DIRECTORS, "director": 200},
    ),
    "entry_list": (
        _nothing,
        lambda c, m, r: c.get(_event(r) + "entries/"),
        {**_DIRECTORS, "director": 200},
    ),
    "entry_register": (
        _nothing,
        lambda c, m, r: post(
            c,
            _event(r) + "entries/",
            {"players": [{"name": "Late One"}, {"name": "Late Two"}], "late": True},
        ),
        {**_DIRECTORS, "director": 201},
    ),
    "entry_import": (
        _nothing,
        lambda c, m, r: c.post(
            _event(r) + "entries/import/?dry_run=1", "Ann,,Bea,,,\n", content_type="text/csv"
        ),
        {**_DIRECTORS, "director": 200},
    ),
    "entry_detail": (
        _nothing,
        lambda c, m, r: c.get(_entry(m, r)),
        {**_DIRECTORS, "director": 200},
    ),
    "entry_update": (
        _nothing,
        lambda c, m, r: _patch(c, _entry(m, r), {"seed": 9}),
        {**_DIRECTORS, "director": 200},
    ),
    "entry_action": (
        _nothing,
        lambda c, m, r: post(c, _entry(m, r) + "check-in/", {}),
        {**_DIRECTORS, "director": 200},
    ),
    "event_audit": (
        _nothing,
        lambda c, m, r: c.get(_event(r) + "audit/"),
        {**_DIRECTORS, "director": 200},
    ),
    "player_update": (
        _owned,
        lambda c, m, r: _patch(c, f"/api/players/{_player(m)}/", {"club": "Elsewhere"}),
        {**_DIRECTORS, "director": 200},
    ),
}
PUBLIC_READS = {"events_list", "event_detail"}
# Staff read every event's endpoints and change none of them; creating an event takes an
# organiser (staff are none: a plain 403); a player record is its owner's, never staff's.
STAFF = {
    "events_list": 200,
    "event_create": 403,
    "event_detail": 200,
    "event_update": 403,
    "event_publish": 403,
    "entry_list": 200,
    "entry_register": 403,
    "entry_import": 403,
    "entry_detail": 200,
    "entry_update": 403,
    "entry_action": 403,
    "event_audit": 200,
    "player_update": 403,
}
CODES = {
    **{
        (name, "staff"): READ_ONLY
        for name in (
            "event_update",
            "event_publish",
            "entry_register",
            "entry_import",
            "entry_update",
            "entry_action",
            "player_update",
        )
    },
    ("player_update", "other_director"): "player_not_found",
}
