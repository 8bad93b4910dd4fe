"""A director's API key on a phone (390x844, Debian's Chromium): make a read-only key for one
event on the API keys page, see it once and copy it, use it against the live server, see it
listed with its last use and never again in full, revoke it after the confirmation, and see the
next request refused."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.e2e.test_rounds import clean_teardown, no_sideways_scroll
from tests.factories import make_event
from tournaments.models import ApiToken

__all__ = ["clean_teardown"]

pytestmark = pytest.mark.browser


def _api(base: str, path: str, key: str, method: str = "GET") -> tuple[int, dict[str, Any]]:
    """One request to the live server with the key, as an integrator's program sends it."""
    request = urllib.request.Request(
        base + path,
        method=method,
        data=b"{}" if method != "GET" else None,
        headers={"Authorization": f"Token {key}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


@pytest.mark.django_db(transaction=True)
def test_a_director_makes_uses_and_revokes_a_key_on_a_phone(
    live_server: Any, phone: Any, artifacts: Path, clean_teardown: None
) -> None:
    director = User.objects.create_user("dora", password="dominoes-2026")
    for slug in ("brixton-fives", "leeds-open"):
        make_event(slug).directors.add(director)
    make_event("not-hers")
    base = live_server.url
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    shots = 0

    def snap(name: str) -> None:
        nonlocal shots
        shots += 1
        no_sideways_scroll(phone)
        phone.screenshot(path=str(artifacts / f"{shots:02d}-{name}.png"), full_page=True)

    phone.goto(base + "/director/")
    phone.get_by_label("Username").fill("dora")
    phone.get_by_label("Password").fill("dominoes-2026")
    phone.get_by_role("button", name="Log in").click()
    phone.wait_for_url("**/director/")
    phone.get_by_role("link", name="API keys").click()
    phone.wait_for_url("**/director/api-keys/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("API keys")
    expect(phone.get_by_text("You have no API key yet.")).to_be_visible()
    expect(phone.get_by_label("Not-Hers", exact=False)).to_have_count(0)
    snap("empty")

    # A tired person first forgets the name: refused, the ticks kept.
    phone.get_by_label("Brixton-Fives", exact=False).check()
    phone.get_by_role("button", name="Make the key").click()
    expect(phone.get_by_role("alert").first).to_contain_text("Please fix the fields")
    expect(phone.get_by_label("Brixton-Fives", exact=False)).to_be_checked()
    snap("name-missing")
    phone.get_by_label("Name").fill("Club website")
    expect(phone.get_by_label("Read only")).to_be_checked()  # the default: the least power
    phone.get_by_role("button", name="Make the key").click()

    # Shown once, with a copy button.
    shown = phone.locator("#new-key")
    expect(shown).to_be_visible()
    key = shown.inner_text().strip()
    assert len(key) == 40
    phone.get_by_role("button", name="Copy the key").click()
    expect(phone.locator(".copy-status")).to_have_text("Copied")
    assert phone.evaluate("navigator.clipboard.readText()") == key
    snap("key-shown-once")

    # The program uses it: a read of its event works, of another event is "not found",
    # and a write is refused because the key only reads.
    status, body = _api(base, "/api/events/brixton-fives/export/", key)
    assert status == 200 and body["event"]["slug"] == "brixton-fives"
    status, body = _api(base, "/api/events/leeds-open/export/", key)
    assert (status, body["code"]) == (404, "not_found")
    status, body = _api(base, "/api/events/brixton-fives/rounds/1/revoke-links/", key, "POST")
    assert (status, body["code"]) == (403, "api_token_read_only")

    # Back on the page: listed, used, never shown again.
    phone.goto(base + "/director/api-keys/")
    card = phone.locator("li.api-key", has_text="Club website")
    expect(card).to_contain_text(key[:8] + "…")
    expect(card).to_contain_text("read only")
    expect(card).to_contain_text("Brixton-Fives")
    expect(card.locator("dd").nth(4)).not_to_have_text("never")  # last used
    assert key not in phone.content()
    snap("listed")

    # Revoke, after the confirmation; the program is refused from its next request on.
    card.get_by_role("button", name="Revoke…").click()
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Revoke the key “Club website”")
    snap("revoke-confirm")
    phone.get_by_role("button", name="Revoke the key").click()
    phone.wait_for_url("**/director/api-keys/")
    expect(phone.get_by_role("status").first).to_contain_text("revoked")
    card = phone.locator("li.api-key", has_text="Club website")
    expect(card.locator(".badge")).to_have_text("revoked")
    expect(card.get_by_role("button", name="Revoke…")).to_have_count(0)
    snap("revoked")
    status, body = _api(base, "/api/events/brixton-fives/export/", key)
    assert (status, body["code"]) == (401, "api_token_revoked")
    assert ApiToken.objects.get().revoked_at is not None
