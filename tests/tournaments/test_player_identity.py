"""Player identity: edit (audited), merge and unmerge (exactly), the director's player pages,
and every writer of ``Player.name`` keeping ``name_key``."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests import factories
from tests.tournaments.players_support import entry_of, make_player, two_events
from tournaments import job_kinds
from tournaments.errors import Conflict, NotAllowed, NotFound, ValidationFailed
from tournaments.models import (
    AuditEntry,
    BackgroundJob,
    Entry,
    EntryPlayer,
    Event,
    Partnership,
    Player,
)
from tournaments.services import entries, players

pytestmark = pytest.mark.django_db


def _state() -> dict[str, Any]:
    """Every row a merge may touch, as plain values."""
    return {
        "members": sorted(EntryPlayer.objects.values_list("pk", "player_id")),
        "partnerships": sorted(Partnership.objects.values_list("pk", "player_a_id", "player_b_id")),
        "singles": sorted(Entry.objects.values_list("pk", "player_id")),
        "merged": sorted(Player.objects.values_list("pk", "merged_into_id")),
    }


def test_edit_is_audited_with_before_and_after_and_keeps_the_name_key() -> None:
    w = two_events()
    players.edit_player(
        actor=w.boss,
        player_id=w.ana.pk,
        name=" Ána  Ramírez-Lee ",
        club="Leeds",
        email="a@example.org",
        phone="07",
    )
    w.ana.refresh_from_db()
    assert (w.ana.name, w.ana.name_key, w.ana.club) == (
        "Ána Ramírez-Lee",
        "ana ramirez-lee",
        "Leeds",
    )
    audit = AuditEntry.objects.get(action="player.edit")
    assert audit.object_id == str(w.ana.pk) and audit.actor == w.boss
    assert audit.before["name"] == "Ana Ramírez" and audit.after["name"] == "Ána Ramírez-Lee"
    assert audit.before["email"] == "ana@example.org" and audit.after["email"] == "a@example.org"


@pytest.mark.parametrize(
    ("fields", "code"), [({"name": "  "}, "player_required"), ({"email": "nope"}, "invalid_email")]
)
def test_edit_refuses_bad_input(fields: dict[str, str], code: str) -> None:
    w = two_events()
    values = {"name": "Ana", "club": "", "email": "", "phone": "", **fields}
    with pytest.raises(ValidationFailed) as caught:
        players.edit_player(actor=w.boss, player_id=w.ana.pk, **values)
    assert caught.value.code == code
    assert not AuditEntry.objects.filter(action="player.edit").exists()


def test_merge_moves_everything_and_unmerge_restores_exactly() -> None:
    w = two_events()
    twin = make_player("Ana Ramirez", "Brixton")
    autumn = Event.objects.create(
        slug="autumn",
        name="Autumn",
        start_date=w.summer.start_date,
        end_date=w.summer.end_date,
        status=Event.Status.RUNNING,
        public_listing=True,
    )
    twin_entry = entry_of(autumn, "Twin & Hal", twin, make_player("Hal Roe"))
    solo = Event.objects.create(
        slug="solo",
        name="Solo",
        start_date=w.summer.start_date,
        end_date=w.summer.end_date,
        entry_kind=Event.EntryKind.SINGLE,
        status=Event.Status.RUNNING,
    )
    single = entry_of(solo, "Ana R", twin)
    before = _state()
    merge = players.merge_players(actor=w.boss, loser_id=twin.pk, survivor_id=w.ana.pk)
    assert merge.action == "player.merge"
    assert merge.after["loser"] == twin.pk and merge.after["survivor"] == w.ana.pk
    moved = EntryPlayer.objects.filter(entry__in=[twin_entry, single], player_id=w.ana.pk)
    assert sorted(merge.after["entry_players"]) == sorted(moved.values_list("pk", flat=True))
    assert len(merge.after["entry_players"]) == 2
    assert merge.after["partnerships"] == [{"id": twin_entry.partnership_id, "field": "player_a"}]
    assert merge.after["entries"] == [single.pk]
    twin.refresh_from_db()
    assert twin.merged_into_id == w.ana.pk
    assert set(EntryPlayer.objects.filter(player=w.ana).values_list("event__slug", flat=True)) == {
        "spring",
        "summer",
        "autumn",
        "solo",
    }
    assert Entry.objects.get(pk=single.pk).player_id == w.ana.pk
    # who played whom changed: the ratings are marked to re-rate from the first rated event
    first = min((e for e in Event.objects.filter(rated=True)), key=lambda e: (e.start_date, e.pk))
    marks = BackgroundJob.objects.filter(kind=job_kinds.RERATE, status=BackgroundJob.Status.PENDING)
    assert first.start_date.isoformat() in {m.params.get("since") for m in marks}
    players.unmerge_players(actor=w.boss, audit_id=merge.pk)
    assert _state() == before
    undo = AuditEntry.objects.get(action="player.unmerge")
    assert undo.object_id == str(merge.pk)
    with pytest.raises(Conflict) as caught:
        players.unmerge_players(actor=w.boss, audit_id=merge.pk)
    assert caught.value.code == "merge_already_undone"


def test_merge_is_refused_for_rows_in_the_same_event() -> None:
    w = two_events()
    before = _state()
    with pytest.raises(Conflict) as caught:
        players.merge_players(actor=w.boss, loser_id=w.bob.pk, survivor_id=w.ana.pk)
    assert caught.value.code == "merge_same_event" and caught.value.details == {
        "events": ["spring"]
    }
    with pytest.raises(ValidationFailed) as same:
        players.merge_players(actor=w.boss, loser_id=w.ana.pk, survivor_id=w.ana.pk)
    assert same.value.code == "merge_same_player"
    assert _state() == before and not AuditEntry.objects.filter(action="player.merge").exists()


def test_a_merged_row_cannot_be_edited_or_merged_again() -> None:
    w = two_events()
    twin, other = make_player("Ana R"), make_player("Someone")
    players.merge_players(actor=w.boss, loser_id=twin.pk, survivor_id=w.ana.pk)
    with pytest.raises(Conflict) as caught:
        players.merge_players(actor=w.boss, loser_id=twin.pk, survivor_id=other.pk)
    assert caught.value.code == "player_merged"
    with pytest.raises(Conflict):
        players.edit_player(actor=w.boss, player_id=twin.pk, name="X", club="", email="", phone="")


def test_registration_follows_a_merge_and_sets_the_name_key() -> None:
    w = two_events()
    twin = make_player("Ana R", "Brixton Fives")
    players.merge_players(actor=w.boss, loser_id=twin.pk, survivor_id=w.ana.pk)
    assert entries.find_or_create_player(entries.PlayerSpec("Ana R", "Brixton Fives")) == w.ana
    new = entries.find_or_create_player(entries.PlayerSpec("Zoë  ÅBERG"))
    assert new.name == "Zoë ÅBERG" and new.name_key == "zoe aberg"


def test_who_may_manage_a_player() -> None:
    """The record's owner and superusers; never staff, nor another director of her events."""
    w = two_events()
    stranger = User.objects.create_user("stranger")
    staff = User.objects.create_user("staff", is_staff=True)
    co_director = factories.make_director(w.summer, "co")  # directs an event Ana plays in
    assert players.may_manage_player(w.boss, w.ana)
    assert players.may_manage_player(User.objects.create_superuser("root"), w.ana)
    assert not players.may_manage_player(staff, w.ana)
    assert not players.may_manage_player(co_director, w.ana)
    assert not players.may_manage_player(stranger, w.ana)
    for user in (stranger, co_director):
        with pytest.raises(NotFound) as caught:
            players.managed_player(user, w.ana.pk)
        assert caught.value.code == "player_not_found"
    with pytest.raises(NotAllowed) as refused:
        players.managed_player(staff, w.ana.pk)
    assert refused.value.code == "read_only_staff"


def test_the_director_pages_edit_merge_with_a_confirmation_and_unmerge() -> None:
    w = two_events()
    twin = make_player("Ana Ramirez", "Brixton Fives", owner=w.boss)
    entry_of(
        Event.objects.create(
            slug="winter",
            name="Winter",
            start_date=w.summer.start_date,
            end_date=w.summer.end_date,
            status=Event.Status.RUNNING,
        ),
        "Twin & Io",
        twin,
        make_player("Io Vu"),
    ).event.directors.add(w.boss)
    client = Client()
    client.force_login(w.boss)
    entries_page = client.get("/director/events/summer/entries/").content.decode()
    assert f'href="/director/players/{w.ana.pk}/"' in entries_page
    page = client.get(f"/director/players/{w.ana.pk}/").content.decode()
    assert 'value="ana@example.org"' in page  # the director sees the contact details
    response = client.post(
        f"/director/players/{w.ana.pk}/",
        {"name": "Ana Ramírez", "club": "Brixton Fives", "email": "bad", "phone": ""},
    )
    assert response.status_code == 200 and "not an email address" in response.content.decode()
    response = client.post(
        f"/director/players/{w.ana.pk}/",
        {"name": "Ana Ramírez", "club": "Brixton Fives", "email": "", "phone": "071"},
    )
    assert response.status_code == 302 and Player.objects.get(pk=w.ana.pk).phone == "071"
    found = client.get(f"/director/players/{twin.pk}/", {"merge_q": "ramírez"}).content.decode()
    merge_url = f"/director/players/{twin.pk}/merge/{w.ana.pk}/"
    assert f'href="{merge_url}"' in found
    confirm = client.get(merge_url)
    assert confirm.status_code == 200 and "Merge Ana Ramirez" in confirm.content.decode()
    assert client.post(merge_url).status_code == 200  # no confirmation: nothing happens
    assert Player.objects.get(pk=twin.pk).merged_into_id is None
    assert client.post(merge_url, {"confirm": "yes"}).status_code == 302
    assert Player.objects.get(pk=twin.pk).merged_into_id == w.ana.pk
    merge = AuditEntry.objects.get(action="player.merge")
    survivor_page = client.get(f"/director/players/{w.ana.pk}/").content.decode()
    assert f'action="/director/players/merges/{merge.pk}/unmerge/"' in survivor_page
    assert client.post(f"/director/players/merges/{merge.pk}/unmerge/").status_code == 302
    assert Player.objects.get(pk=twin.pk).merged_into_id is None


def test_the_director_player_page_is_404_for_a_stranger() -> None:
    w = two_events()
    client = Client()
    client.force_login(User.objects.create_user("stranger"))
    assert client.get(f"/director/players/{w.ana.pk}/").status_code == 404
    assert Client().get(f"/director/players/{w.ana.pk}/").status_code == 302  # log in first
