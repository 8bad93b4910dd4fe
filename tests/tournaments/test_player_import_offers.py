"""The CSV import offers a known player whose name and club match once folded, and reuses that
row when the director accepts (the box left ticked); unticked, a new player is made."""

from __future__ import annotations

import pytest
from django.test import Client

from tests import factories
from tests.tournaments.players_support import make_player
from tournaments.models import EntryPlayer, Event, Player
from tournaments.services import entry_import

pytestmark = pytest.mark.django_db

CSV = "player_a,club_a,rating_a,player_b,club_b\nJOSE  ramirez,brixton fives,,New Person,\n"


def _setup() -> tuple[Event, Player]:
    known = make_player("José Ramírez", "Brixton Fives")
    event = factories.make_event("open", status=Event.Status.REGISTRATION)
    return event, known


def test_the_preview_offers_the_known_player() -> None:
    event, known = _setup()
    make_player("José Ramírez", "Leeds")  # same name, other club: not offered
    preview = entry_import.preview_import(event=event, text=CSV)
    assert preview.ok
    (row,) = preview.rows
    assert row.offers == [known, None] and row.existing == [False, False]
    assert [key for *_, key in row.people_offers] == ["2:0", "2:1"]


def test_an_accepted_offer_reuses_the_row_and_a_refused_one_makes_a_new_player() -> None:
    event, known = _setup()
    (entry,) = entry_import.import_entries(actor=None, event=event, text=CSV, reuse={"2:0"})
    assert EntryPlayer.objects.filter(entry=entry, player=known).exists()
    other = factories.make_event("other", status=Event.Status.REGISTRATION)
    (fresh,) = entry_import.import_entries(actor=None, event=other, text=CSV, reuse=set())
    new = EntryPlayer.objects.get(entry=fresh, player__name="JOSE ramirez").player
    assert new.pk != known.pk and new.name_key == "jose ramirez"


def test_the_import_page_shows_the_offer_and_honours_it() -> None:
    event, known = _setup()
    boss = factories.make_director(event, "boss")
    client = Client()
    client.force_login(boss)
    url = f"/director/events/{event.slug}/import/"
    html = client.post(url, {"text": CSV, "action": "preview"}).content.decode()
    assert 'name="reuse" value="2:0"' in html and "José Ramírez" in html
    response = client.post(url, {"text": CSV, "action": "confirm", "reuse": "2:0"})
    assert response.status_code == 302
    assert EntryPlayer.objects.filter(event=event, player=known).exists()
    assert Player.objects.filter(name_key="jose ramirez").count() == 1
