"""Logins, password reset and who may create events (issue 15).

- After ``AXES_FAILURE_LIMIT`` wrong passwords for one username from one address, that pair is
  locked out: even the right password is refused (director log in and the admin's alike).
- Password reset is mounted only where mail is configured; otherwise 404 and no "forgot" link.
- Only organisers (a group a superuser adds accounts to) and superusers create events.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

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


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_the_right_password_after_fifty_wrong_ones_is_refused(url: str, settings: Any) -> None:
    User.objects.create_user("dora", password=PASSWORD, is_staff=True)
    client = Client()
    _fail(client, url, "dora", 50)
    response = client.post(url, {"username": "dora", "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    assert client.get("/director/").status_code == 302  # still not logged in


def test_the_lockout_is_per_username_and_address(settings: Any) -> None:
    User.objects.create_user("dora", password=PASSWORD)
    User.objects.create_user("pip", password=PASSWORD)
    limit = settings.AXES_FAILURE_LIMIT
    _fail(Client(REMOTE_ADDR="10.0.0.1"), "/accounts/login/", "dora", limit)
    # dora from another address, and pip from the same one, still log in.
    other_address = Client(REMOTE_ADDR="10.0.0.2")
    assert other_address.post("/accounts/login/", {"username": "dora", "password": PASSWORD})[
        "Location"
    ].endswith("/director/")
    same_address = Client(REMOTE_ADDR="10.0.0.1")
    ok = same_address.post("/accounts/login/", {"username": "pip", "password": PASSWORD})
    assert ok.status_code == 302
    locked = Client(REMOTE_ADDR="10.0.0.1")
    assert (
        locked.post("/accounts/login/", {"username": "dora", "password": PASSWORD}).status_code
        == 429
    )


def test_a_few_wrong_passwords_then_the_right_one_logs_in(settings: Any) -> None:
    User.objects.create_user("dora", password=PASSWORD)
    client = Client()
    _fail(client, "/accounts/login/", "dora", settings.AXES_FAILURE_LIMIT - 1)
    response = client.post("/accounts/login/", {"username": "dora", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/director/").status_code == 200


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
