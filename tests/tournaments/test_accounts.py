"""Logins, password reset and who may create events (issue 15).

- After ``AXES_FAILURE_LIMIT`` wrong passwords from one address, that address is paused: even
  the right password is refused from it (director log in and the admin's alike), while the
  account logs in from any other address. A username's failures from many addresses make each
  next try for it wait longer (doubling, capped); the refusal says when to try again.
- Password reset is mounted only where mail is configured; otherwise 404 and no "forgot" link.
- Only organisers (a group a superuser adds accounts to) and superusers create events.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core import mail
from django.db.models import F
from django.test import Client

from tests.conftest import poll
from tests.tournaments.api_support import private_cache
from tournaments.services.organisers import make_organiser

pytestmark = pytest.mark.django_db

PASSWORD = "dominoes-2026-right"


@pytest.fixture(autouse=True)
def _fresh_counters(settings: Any) -> Iterator[None]:
    """Throttle counters of this test's own (axes keeps its failures in the database), and a
    fast password hasher (the lockout is what is tested, not the hash)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with private_cache(settings):
        yield


def _fail(client: Client, url: str, username: str, times: int) -> None:
    for _ in range(times):
        response = client.post(url, {"username": username, "password": "wrong"})
        assert response.status_code in (200, 429), response.status_code


def _login(address: str, username: str, password: str) -> Any:
    client = Client(REMOTE_ADDR=address)
    return client.post("/accounts/login/", {"username": username, "password": password})


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_the_right_password_after_fifty_wrong_ones_is_refused(url: str, settings: Any) -> None:
    User.objects.create_user("dora", password=PASSWORD, is_staff=True)
    client = Client()
    _fail(client, url, "dora", 50)
    response = client.post(url, {"username": "dora", "password": PASSWORD})
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= settings.AXES_COOLOFF_TIME.total_seconds()
    assert "_auth_user_id" not in client.session
    assert client.get("/director/").status_code == 302  # still not logged in


def test_an_attacker_address_does_not_lock_the_director_out_from_another(settings: Any) -> None:
    """Issue 28: the lockout was per username and address, so on a venue's shared Wi-Fi
    anyone locked the director out with 5 tries. Now the guessing address is paused, for
    every username, and the director logs in from anywhere else at once."""
    User.objects.create_user("dora", password=PASSWORD)
    limit = settings.AXES_FAILURE_LIMIT
    statuses = [_login("10.0.0.66", "dora", "wrong").status_code for _ in range(limit + 5)]
    assert statuses == [200] * (limit - 1) + [429] * 6  # the limit-th failure pauses it
    paused = _login("10.0.0.66", "dora", PASSWORD)  # the right password too, from there
    assert paused.status_code == 429
    assert "from this network" in paused.content.decode()
    assert _login("10.0.0.66", "pip", "anything").status_code == 429  # any username
    director = Client(REMOTE_ADDR="10.0.0.2")
    ok = director.post("/accounts/login/", {"username": "dora", "password": PASSWORD})
    assert ok.status_code == 302 and ok["Location"].endswith("/director/")
    assert director.get("/director/").status_code == 200
    # the refused tries were not counted: dora's failures are the limit's, not 10
    assert sum(a.failures_since_start for a in AccessAttempt.objects.all()) == limit


def test_on_the_venues_shared_address_the_directors_own_browser_still_logs_in(
    settings: Any,
) -> None:
    """A browser that has logged in as dora carries a signed cookie saying so: the pause of
    its address (a stranger guessing on the same Wi-Fi) does not hold for it, only for dora,
    and a cookie not signed by the server counts for nothing."""
    User.objects.create_user("dora", password=PASSWORD)
    User.objects.create_user("pip", password=PASSWORD)
    venue = "10.9.0.1"
    laptop = Client(REMOTE_ADDR=venue, HTTP_USER_AGENT="Mozilla/5.0 (Macintosh) Safari/605")
    assert (
        laptop.post("/accounts/login/", {"username": "dora", "password": PASSWORD}).status_code
        == 302
    )
    assert laptop.post("/accounts/logout/").status_code == 302
    for _ in range(settings.AXES_FAILURE_LIMIT + 2):
        _login(venue, "dora", "wrong")
    assert _login(venue, "dora", PASSWORD).status_code == 429  # a stranger's browser
    back = laptop.post("/accounts/login/", {"username": "dora", "password": PASSWORD})
    assert back.status_code == 302 and laptop.get("/director/").status_code == 200
    laptop.post("/accounts/logout/")
    other = laptop.post("/accounts/login/", {"username": "pip", "password": PASSWORD})
    assert other.status_code == 429  # the cookie speaks for dora only
    forged = Client(REMOTE_ADDR=venue)
    forged.cookies["spinner_login_device"] = "dora"
    assert (
        forged.post("/accounts/login/", {"username": "dora", "password": PASSWORD}).status_code
        == 429
    )


def _wait_passes(username: str, seconds: int) -> None:
    """Time passes for the username's failures: each is ``seconds`` older (no sleep)."""
    AccessAttempt.objects.filter(username=username).update(
        attempt_time=F("attempt_time") - datetime.timedelta(seconds=seconds)
    )


def test_one_username_failing_from_many_addresses_waits_longer_after_each_failure(
    settings: Any,
) -> None:
    """Past SPINNER_LOGIN_USERNAME_FAILURES, each failure for the username (from any address,
    none at its own limit) makes its next try wait twice as long, up to the cap; a try during
    the wait is refused unchecked and not counted, even with the right password."""
    User.objects.create_user("dora", password=PASSWORD)
    free = settings.SPINNER_LOGIN_USERNAME_FAILURES
    settings.SPINNER_LOGIN_MAX_DELAY_SECONDS = 60
    addresses = (f"10.1.0.{n}" for n in range(1, 200))  # one failure each: no address paused
    for _ in range(free):
        assert _login(next(addresses), "dora", "wrong").status_code == 200
    waits = []
    for _ in range(7):
        refused = _login(next(addresses), "dora", "wrong")  # checked, wrong: a longer wait
        assert refused.status_code == 429
        wait = int(refused["Retry-After"])
        waits.append(wait)
        early = _login(next(addresses), "dora", PASSWORD)  # too soon: refused, not counted
        assert early.status_code == 429 and int(early["Retry-After"]) == wait
        assert f"You can try again in {wait} seconds" in early.content.decode()
        _wait_passes("dora", wait)
    assert waits == [2, 4, 8, 16, 32, 60, 60]  # doubling from 2 s, at most the cap
    assert _login(next(addresses), "dora", PASSWORD).status_code == 302  # the wait is over


def test_the_wait_ends_on_its_own_and_the_page_says_when(settings: Any) -> None:
    """The same with real time passing: a 1 s wait, then the right password logs in."""
    User.objects.create_user("dora", password=PASSWORD)
    settings.SPINNER_LOGIN_USERNAME_FAILURES = 2
    settings.SPINNER_LOGIN_DELAY_SECONDS = 1
    _login("10.2.0.1", "dora", "wrong")
    _login("10.2.0.2", "dora", "wrong")
    refused = _login("10.2.0.3", "dora", "wrong")
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    page = refused.content.decode()
    assert "You can try again in 1 second" in page and "UTC)" in page
    assert 'value="dora"' in page  # the form again, the username kept
    spanish = Client(REMOTE_ADDR="10.2.0.5", HTTP_ACCEPT_LANGUAGE="es")
    en_espanol = spanish.post("/accounts/login/", {"username": "dora", "password": "wrong"})
    assert "Puedes volver a intentarlo dentro de 1 segundo" in en_espanol.content.decode()
    poll(lambda: _login("10.2.0.4", "dora", PASSWORD).status_code == 302, timeout=10)


def test_a_few_wrong_passwords_then_the_right_one_logs_in(settings: Any) -> None:
    User.objects.create_user("dora", password=PASSWORD)
    client = Client()
    _fail(client, "/accounts/login/", "dora", settings.AXES_FAILURE_LIMIT - 1)
    response = client.post("/accounts/login/", {"username": "dora", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/director/").status_code == 200
    assert not AccessAttempt.objects.filter(username="dora").exists()  # forgiven


# --- password reset --------------------------------------------------------------------------

RESET_URLS = [
    "/accounts/password_reset/",
    "/accounts/password_reset/done/",
    "/accounts/reset/done/",
]


def test_without_mail_password_reset_is_absent(settings: Any) -> None:
    settings.SPINNER_PASSWORD_RESET = False
    client = Client()
    for url in RESET_URLS:
        assert client.get(url).status_code == 404, url
    assert client.post("/accounts/password_reset/", {"email": "a@b.c"}).status_code == 404
    login = client.get("/accounts/login/")
    assert login.status_code == 200
    assert b"password_reset" not in login.content
    assert b"Forgot" not in login.content


def test_with_mail_password_reset_sends_and_is_throttled(settings: Any) -> None:
    settings.SPINNER_PASSWORD_RESET = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    User.objects.create_user("dora", email="dora@example.org", password=PASSWORD)
    client = Client()
    assert b"/accounts/password_reset/" in client.get("/accounts/login/").content
    sent = client.post("/accounts/password_reset/", {"email": "dora@example.org"})
    assert sent.status_code == 302
    assert len(mail.outbox) == 1
    limit = int(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["password_reset"].split("/")[0])
    statuses = [
        client.post("/accounts/password_reset/", {"email": "dora@example.org"}).status_code
        for _ in range(limit + 2)
    ]
    assert statuses[-1] == 429
    assert len(mail.outbox) == limit


# --- organisers ------------------------------------------------------------------------------


def _logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_account_that_is_no_organiser_cannot_create_events() -> None:
    client = _logged_in(User.objects.create_user("dora"))
    home = client.get("/director/")
    assert home.status_code == 200
    assert b"/director/events/new/" not in home.content
    assert client.get("/director/events/new/").status_code == 404
    form = {"name": "Sneaky Open", "start_date": "2026-12-11", "end_date": "2026-12-11"}
    assert client.post("/director/events/new/", form).status_code == 404
    from tournaments.models import Event

    assert not Event.objects.exists()


@pytest.mark.parametrize("kind", ["organiser", "superuser"])
def test_organisers_and_superusers_create_events(kind: str) -> None:
    if kind == "superuser":
        user = User.objects.create_superuser("root")
    else:
        user = User.objects.create_user("dora")
        make_organiser(user=user)
    client = _logged_in(user)
    assert b"/director/events/new/" in client.get("/director/").content
    assert client.get("/director/events/new/").status_code == 200
