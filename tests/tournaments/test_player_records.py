"""Player records belong to nobody's event: the enrol-then-edit takeover and the staff write
are refused, every player route answers each role as ``services.players`` says, and the
contact details an event collects are that event's alone.

The takeover (issue 28): player ids are public, so a director could enter any player in an
event of their own by id and then, as "a director of an event the player played in", read the
contact details another director had entered, rename the player on every event's pages and
merge them. Now the record is its owner's (the account whose registration created it) and
superusers'; the enrolling director changes their own entry and the contact their event holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from tests import factories
from tests.tournaments.api_support import key, user_client
from tournaments.errors import NotFound
from tournaments.models import AuditEntry, Entry, EntryPlayer, Event, Player
from tournaments.services import entries, entry_contacts, players

pytestmark = pytest.mark.django_db


@dataclass
class Takeover:
    owner: User
    other: User  # directs an event of their own, and enrols the owner's player in it
    home: Event
    away: Event
    ana: Player
    twin: Player  # a second record of the owner's, for the merge routes
    away_entry: Entry
    merge_audit: AuditEntry


def _takeover() -> Takeover:
    home = factories.make_event("home", public_listing=True)
    away = factories.make_event("away")
    owner = factories.make_director(home, "owner")
    other = factories.make_director(away, "other")
    home_entry = entries.register_entry(
        actor=owner,
        event=home,
        players=[
            entries.PlayerSpec("Ana Ruiz", "Leeds", email="ana@home.example", phone="0700 1"),
            entries.PlayerSpec("Bo Lund", "Leeds"),
        ],
    )
    ana = home_entry.members.get(player__name="Ana Ruiz").player
    twin = entries.find_or_create_player(entries.PlayerSpec("Ana Ruiz", "York"), owner=owner)
    ghost = entries.find_or_create_player(entries.PlayerSpec("Ghost", "York"), owner=owner)
    merge_audit = players.merge_players(actor=owner, loser_id=ghost.pk, survivor_id=twin.pk)
    client = user_client(other)
    enrolled = client.post(
        "/api/events/away/entries/",
        {"players": [{"id": ana.pk}, {"name": "Cy Obi"}]},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key(),
    )
    assert enrolled.status_code == 201, enrolled.content
    away_entry = Entry.objects.get(pk=enrolled.json()["id"])
    return Takeover(owner, other, home, away, ana, twin, away_entry, merge_audit)


def test_a_new_players_record_is_its_registrars_and_the_contact_their_events() -> None:
    t = _takeover()
    assert t.ana.owner == t.owner and t.ana.email == "ana@home.example"
    home_member = EntryPlayer.objects.get(event=t.home, player=t.ana)
    assert (home_member.email, home_member.phone) == ("ana@home.example", "0700 1")
    away_member = EntryPlayer.objects.get(event=t.away, player=t.ana)
    assert (away_member.email, away_member.phone) == ("", "")  # the away event collected none
    assert EntryPlayer.objects.get(event=t.away, player__name="Cy Obi").player.owner == t.other


def test_the_enrolling_director_cannot_read_rename_or_merge_the_player() -> None:
    t = _takeover()
    api = user_client(t.other)
    read = api.get(f"/api/players/{t.ana.pk}/")
    assert read.status_code == 200 and "ETag" not in read
    assert "ana@home.example" not in read.content.decode()
    renamed = api.patch(
        f"/api/players/{t.ana.pk}/",
        {"name": "Someone Else"},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key(),
    )
    assert renamed.status_code == 404 and renamed.json()["code"] == "player_not_found"
    pages = Client()
    pages.force_login(t.other)
    assert pages.get(f"/director/players/{t.ana.pk}/").status_code == 404
    assert pages.post(f"/director/players/{t.ana.pk}/", {"name": "X"}).status_code == 404
    merge = f"/director/players/{t.ana.pk}/merge/{t.twin.pk}/"
    assert pages.post(merge, {"confirm": "yes"}).status_code == 404
    entry_page = pages.get(f"/director/events/away/entries/{t.away_entry.pk}/").content.decode()
    assert "ana@home.example" not in entry_page and "0700 1" not in entry_page
    assert f'href="/director/players/{t.ana.pk}/"' not in entry_page
    t.ana.refresh_from_db()
    assert (t.ana.name, t.ana.merged_into_id) == ("Ana Ruiz", None)
    assert not AuditEntry.objects.filter(action="player.edit").exists()


def test_the_enrolling_director_keeps_their_own_events_contact() -> None:
    t = _takeover()
    pages = Client()
    pages.force_login(t.other)
    url = f"/director/events/away/entries/{t.away_entry.pk}/"
    form = {"form": "contact", "player": t.ana.pk, "email": "ana@away", "phone": "0800"}
    refused = pages.post(url, form)  # a tired typo: the page says what to fix, keeps the rest
    assert refused.status_code == 200
    page = refused.content.decode()
    assert "is not an email address" in page and 'value="0800"' in page
    form["email"] = "ana@away.example"
    assert pages.post(url, form).status_code == 302
    away_member = EntryPlayer.objects.get(event=t.away, player=t.ana)
    assert (away_member.email, away_member.phone) == ("ana@away.example", "0800")
    audit = AuditEntry.objects.get(action="entry.contact")
    assert audit.event == t.away and audit.after["email"] == "ana@away.example"
    t.ana.refresh_from_db()
    assert t.ana.email == "ana@home.example"  # the record is untouched
    owner_pages = Client()
    owner_pages.force_login(t.owner)
    home_entry = EntryPlayer.objects.get(event=t.home, player=t.ana).entry_id
    owner_view = owner_pages.get(f"/director/events/home/entries/{home_entry}/").content.decode()
    assert "ana@home.example" in owner_view and "ana@away.example" not in owner_view
    record_page = owner_pages.get(f"/director/players/{t.ana.pk}/").content.decode()
    assert "ana@away.example" not in record_page
    # Another event's entry is not theirs to write into.
    other_entry = f"/director/events/home/entries/{home_entry}/"
    assert pages.post(other_entry, form).status_code == 404


def test_a_contact_for_a_player_not_in_the_entry_is_refused() -> None:
    t = _takeover()
    with pytest.raises(NotFound) as caught:
        entry_contacts.edit_member_contact(
            actor=t.other, entry=t.away_entry, player_id=t.twin.pk, email="", phone=""
        )
    assert caught.value.code == "member_not_found"


# Every player route, each role: the status it answers (the player is the owner's Ana).
Route = Callable[[Client, APIClient, Takeover], Any]

ROUTES: dict[str, Route] = {
    "api_read_with_version": lambda c, a, t: a.get(f"/api/players/{t.ana.pk}/"),
    "api_edit": lambda c, a, t: a.patch(
        f"/api/players/{t.ana.pk}/", {"club": "X"}, format="json", HTTP_IDEMPOTENCY_KEY=key()
    ),
    "page_read": lambda c, a, t: c.get(f"/director/players/{t.ana.pk}/"),
    "page_edit": lambda c, a, t: c.post(
        f"/director/players/{t.ana.pk}/", {"name": "Ana Ruiz", "club": "X"}
    ),
    "merge_confirm": lambda c, a, t: c.get(f"/director/players/{t.ana.pk}/merge/{t.twin.pk}/"),
    "merge": lambda c, a, t: c.post(
        f"/director/players/{t.ana.pk}/merge/{t.twin.pk}/", {"confirm": "yes"}
    ),
    "unmerge": lambda c, a, t: c.post(f"/director/players/merges/{t.merge_audit.pk}/unmerge/"),
}
OWNER = {
    "api_read_with_version": (200, True),
    "api_edit": 200,
    "page_read": 200,
    "page_edit": 302,
    "merge_confirm": 200,
    "merge": 302,
    "unmerge": 302,
}
NOBODY = {
    "api_read_with_version": (200, False),
    "api_edit": 404,
    "page_read": 404,
    "page_edit": 404,
    "merge_confirm": 404,
    "merge": 404,
    "unmerge": 404,
}
STAFF = {name: 403 for name in ROUTES} | {"api_read_with_version": (200, False)}
ANONYMOUS = {
    **{name: 302 for name in ROUTES},  # the pages: log in first
    "api_read_with_version": (200, False),
    "api_edit": 401,
}
EXPECTED = {
    "owner": OWNER,
    "superuser": OWNER,
    "enrolling_director": NOBODY,
    "unrelated_director": NOBODY,
    "staff": STAFF,
    "anonymous": ANONYMOUS,
}


def _user(role: str, t: Takeover) -> User | None:
    if role == "owner":
        return t.owner
    if role == "enrolling_director":
        return t.other
    if role == "unrelated_director":
        return factories.make_director(factories.make_event("elsewhere"), "elsewhere")
    if role == "staff":
        return User.objects.create_user("staff", is_staff=True)
    if role == "superuser":
        return User.objects.create_superuser("root")
    return None


@pytest.mark.parametrize("route", sorted(ROUTES))
@pytest.mark.parametrize("role", sorted(EXPECTED))
def test_every_player_route_for_every_role(role: str, route: str) -> None:
    t = _takeover()
    user = _user(role, t)
    pages, api = Client(), APIClient()
    if user is not None:
        pages.force_login(user)
        api.force_authenticate(user)
    before = Player.objects.get(pk=t.ana.pk).club
    response = ROUTES[route](pages, api, t)
    expected = EXPECTED[role][route]
    if isinstance(expected, tuple):
        status, versioned = expected
        assert (response.status_code, "ETag" in response) == (status, versioned)
        return
    assert response.status_code == expected, response.content[:300]
    if role == "staff" and route.startswith(("page", "merge")):
        assert "only the player&#x27;s owner changes the record" in response.content.decode()
    if role in ("owner", "superuser"):
        return
    assert Player.objects.get(pk=t.ana.pk).club == before
    assert Player.objects.filter(merged_into__isnull=False).count() == 1  # only the ghost
    if route == "unmerge":
        assert not AuditEntry.objects.filter(action="player.unmerge").exists()
