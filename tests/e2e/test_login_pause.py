"""The venue's shared Wi-Fi (issue 28), on phones (390x844, Debian's Chromium), every browser
on the one address of the live server: a stranger guessing the director's password pauses log
ins from that address and is told when to try again; the director's own phone, which has logged
in before, still logs in, through a tired mistype and the short wait it earns, without
retyping the username."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.conftest import poll

PASSWORD = "dominoes-2026-right"


def fits_the_phone(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth") <= 390)


def _log_in(page: Any, username: str | None, password: str) -> None:
    """Fill the log in form (the pause page's too) by its fields, whatever the language."""
    if username is not None:
        page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password)
    page.locator("form.stack button[type=submit]").click()
    page.wait_for_load_state()


@pytest.mark.django_db(transaction=True)
def test_a_stranger_on_the_venue_wifi_is_paused_and_the_director_still_logs_in(
    live_server: Any, browser: Any, artifacts: Path, settings: Any
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    User.objects.create_user("dora", password=PASSWORD)
    phones = [
        browser.new_context(viewport={"width": 390, "height": 844}, **extra)
        for extra in ({}, {}, {"locale": "es-ES"})
    ]
    director, stranger, spanish = (context.new_page() for context in phones)
    try:
        # The director logged in on this phone before the event, then logged out.
        director.goto(live_server.url + "/accounts/login/")
        _log_in(director, "dora", PASSWORD)
        director.wait_for_url("**/director/")
        director.get_by_role("button", name="Log out").click()

        # A stranger on the same Wi-Fi guesses: the fifth wrong password pauses the address.
        stranger.goto(live_server.url + "/accounts/login/")
        for guess in ("dora", "Dora2026", "dominoes", "letmein!"):
            _log_in(stranger, "dora", guess)
            expect(stranger.get_by_role("alert")).to_contain_text("didn't match")
        _log_in(stranger, "dora", "password1")
        alert = stranger.get_by_role("alert")
        expect(alert).to_contain_text("from this network")
        expect(alert).to_contain_text(
            re.compile(r"You can try again in 1[45] minutes\s+\(at \d\d:\d\d:\d\d UTC\)")
        )
        assert fits_the_phone(stranger)
        stranger.screenshot(path=str(artifacts / "01-stranger-paused.png"), full_page=True)
        _log_in(stranger, None, PASSWORD)  # even the right password, from a stranger's phone
        expect(stranger.get_by_role("alert")).to_contain_text("from this network")

        spanish.goto(live_server.url + "/accounts/login/")
        _log_in(spanish, "dora", "otra")  # refused before it is checked, not counted
        expect(spanish.get_by_role("alert")).to_contain_text("desde esta red")
        spanish.screenshot(path=str(artifacts / "02-paused-in-spanish.png"), full_page=True)

        # The director, tired, mistypes once: the sixth failure for dora earns a short wait,
        # said plainly, the username kept in the form.
        director.goto(live_server.url + "/accounts/login/")
        _log_in(director, "dora", "dominoes-2026-rigth")
        alert = director.get_by_role("alert")
        expect(alert).to_contain_text("each new try must wait")
        expect(alert).to_contain_text(re.compile(r"You can try again in [12] seconds?"))
        expect(director.get_by_label("Username")).to_have_value("dora")
        assert fits_the_phone(director)
        director.screenshot(path=str(artifacts / "03-director-short-wait.png"), full_page=True)

        def logged_in() -> bool:
            if "/director/" in director.url:
                return True
            _log_in(director, None, PASSWORD)  # refused while the wait lasts, not counted
            return "/director/" in director.url

        poll(logged_in, timeout=15, interval=0.5)
        expect(director.get_by_role("heading", level=1)).to_be_visible()
        director.screenshot(path=str(artifacts / "04-director-in.png"), full_page=True)
    finally:
        for context in phones:
            context.close()
