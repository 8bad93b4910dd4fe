"""The enrol-then-edit path as a second director walks it on a phone (390x844, Chromium): they
enter a player another director created (matched by name and club), find the record is not
theirs to change, and keep their own event's contact for her, a typo refused without losing
what they typed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests import factories
from tests.e2e.test_desk import shot
from tests.e2e.test_rounds import clean_teardown, no_sideways_scroll
from tournaments.models import EntryPlayer, Player
from tournaments.services import entries

__all__ = ["clean_teardown"]

pytestmark = pytest.mark.browser

PASSWORD = "pw-for-tests-123"


@pytest.mark.django_db(transaction=True)
def test_a_second_director_enters_a_known_player_and_keeps_their_own_contact(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None
) -> None:
    from playwright.sync_api import expect

    home = factories.make_event("home", public_listing=True)
    owner = factories.make_director(home, "owner")
    entries.register_entry(
        actor=owner,
        event=home,
        players=[
            entries.PlayerSpec("Ana Ruiz", "Leeds", email="ana@home.example", phone="0700 1"),
            entries.PlayerSpec("Bo Lund", "Leeds"),
        ],
    )
    ana = Player.objects.get(name="Ana Ruiz")
    away = factories.make_event("away", name="Away Night")
    factories.make_director(away, "other", password=PASSWORD)

    phone.goto(f"{live_server.url}/director/events/away/entries/add/")
    phone.get_by_label("Username").fill("other")
    phone.get_by_label("Password").fill(PASSWORD)
    phone.get_by_role("button", name="Log in").click()
    phone.get_by_label("Player A: name").fill("Ana Ruiz")
    phone.get_by_label("Player A: club").fill("Leeds")
    phone.get_by_label("Player B: name").fill("Cy Obi")
    phone.get_by_role("button", name=re.compile("^Register")).first.click()
    expect(phone.get_by_role("link", name="Ana Ruiz & Cy Obi")).to_be_visible()
    assert EntryPlayer.objects.get(event=away, player__name="Ana Ruiz").player_id == ana.pk
    phone.get_by_role("link", name="Ana Ruiz & Cy Obi").click()

    players = phone.locator("#players")
    expect(players).to_contain_text("Ana Ruiz")
    expect(players).not_to_contain_text("ana@home.example")  # the home event's, not theirs
    name_link = players.get_by_role("link", name="Ana Ruiz")
    assert name_link.get_attribute("href") == f"/players/{ana.pk}/"  # the public page only
    form = players.locator("form").first
    form.get_by_label("Email").fill("ana@away")  # a tired typo
    form.get_by_label("Phone").fill("0800 22")
    form.get_by_role("button", name="Save Ana Ruiz's contact").click()
    expect(phone.get_by_role("alert")).to_contain_text("is not an email address")
    form = phone.locator("#players form").first
    expect(form.get_by_label("Phone")).to_have_value("0800 22")  # nothing typed is lost
    form.get_by_label("Email").fill("ana@away.example")
    form.get_by_role("button", name="Save Ana Ruiz's contact").click()
    expect(phone.get_by_text("Saved.")).to_be_visible()
    expect(phone.locator("#players form").first.get_by_label("Email")).to_have_value(
        "ana@away.example"
    )
    no_sideways_scroll(phone)
    shot(phone, artifacts, "entry-contact-390.png", full=True)

    answer = phone.goto(f"{live_server.url}/director/players/{ana.pk}/")
    assert answer is not None and answer.status == 404
    ana.refresh_from_db()
    assert (ana.name, ana.email, ana.owner_id) == ("Ana Ruiz", "ana@home.example", owner.pk)
