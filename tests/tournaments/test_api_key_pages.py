"""The director's API keys page (``/director/api-keys/``): the keys listed without their
secret, a key made with its scope, events and expiry and shown once, a wrong input refused
without losing what was typed, revoking after a confirmation, and only one's own keys."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.results_support import make_director, make_event
from tournaments.models import ApiToken, AuditEntry, Event
from tournaments.selectors.api_tokens import list_api_keys, scopable_events
from tournaments.services.api_tokens import DEFAULT_LIFETIME, create_api_token, revoke_api_token

pytestmark = pytest.mark.django_db

PAGE = "/director/api-keys/"
KEY = re.compile(r'<code id="new-key" class="key">([0-9a-f]{40})</code>')


def _director() -> tuple[User, Event, Event, Client]:
    home = make_event("home")
    director = make_director(home, "dora")
    away = make_event("away")
    away.directors.add(director)
    make_event("elsewhere")  # another director's
    client = Client()
    client.force_login(director)
    return director, home, away, client


def test_the_page_is_reached_from_the_director_home_and_needs_a_login() -> None:
    assert reverse("director:api-keys") == PAGE
    assert Client().get(PAGE).status_code == 302
    _, _, _, client = _director()
    home = client.get("/director/").content.decode()
    assert f'href="{PAGE}"' in home
    page = client.get(PAGE)
    assert page.status_code == 200
    text = page.content.decode()
    # The form offers the user's events only, and 90 days from today.
    assert "Home (" in text and "Away (" in text and "Elsewhere" not in text
    default = (timezone.localdate() + DEFAULT_LIFETIME).isoformat()
    assert f'value="{default}"' in text
    assert re.search(r'<input type="radio" name="scope" value="read"[^>]*checked', text)


def test_a_key_is_made_shown_once_and_listed_without_its_secret() -> None:
    director, home, _, client = _director()
    expires = timezone.localdate() + dt.timedelta(days=10)
    posted = client.post(
        PAGE,
        {"name": "Club website", "scope": "read", "events": [home.pk], "expires_at": expires},
    )
    assert posted.status_code == 302  # to the list: a reload makes no second key
    made = client.get(posted["Location"])
    assert made.status_code == 200
    assert made["Cache-Control"] == "no-store"
    found = KEY.search(made.content.decode())
    assert found, "the new key is shown"
    key = found.group(1)
    token = ApiToken.objects.get(user=director)
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert (token.name, token.scope) == ("Club website", "read")
    assert list(token.events.all()) == [home]
    assert token.expires_at is not None and token.expires_at.date() == expires
    assert AuditEntry.objects.filter(action="api_token.create", event=home).count() == 1
    log = client.get(f"/director/events/{home.slug}/audit/").content.decode()
    assert f"dora made the API key “Club website” ({key[:8]}…, read only)" in log
    assert key not in log
    assert ApiToken.objects.filter(user=director).count() == 1
    # Never again: the list shows the name and the first characters only.
    again = client.get(PAGE).content.decode()
    assert key not in again
    assert "Club website" in again and f"{key[:8]}…" in again and "read only" in again
    assert f"<dd>{home.name}</dd>" in again


@pytest.mark.parametrize(
    ("data", "field_error"),
    [
        ({"name": "", "scope": "write"}, "This field is required."),
        ({"name": "k", "scope": "admin"}, "Select a valid choice."),
        ({"name": "k", "scope": "write", "expires_at": "2026-13-45"}, "Enter a valid date."),
        ({"name": "k", "scope": "write", "expires_at": "2020-01-01"}, "already passed"),
        ({"name": "k", "scope": "write", "events": ["elsewhere"]}, "Select a valid choice."),
    ],
)
def test_a_wrong_input_is_refused_and_what_was_typed_is_kept(
    data: dict[str, Any], field_error: str
) -> None:
    _, _, _, client = _director()
    if data.get("events") == ["elsewhere"]:
        data = {**data, "events": [Event.objects.get(slug="elsewhere").pk]}
    refused = client.post(PAGE, data)
    assert refused.status_code == 400
    text = refused.content.decode()
    assert field_error in text
    assert not KEY.search(text)
    assert not ApiToken.objects.exists()
    if data["name"]:
        assert f'value="{data["name"]}"' in text


def test_revoking_asks_first_then_revokes_and_the_list_says_so() -> None:
    director, _, _, client = _director()
    token, _ = create_api_token(user=director, name="scorer")
    url = reverse("director:api-key-revoke", args=[token.pk])
    assert client.get(url).status_code == 405
    ask = client.post(url)
    assert ask.status_code == 200
    assert "Revoke the key “scorer”" in ask.content.decode()
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None
    done = client.post(url, {"confirm": "yes"}, follow=True)
    assert done.redirect_chain[-1][0] == PAGE
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None
    text = done.content.decode()
    assert "revoked" in text and "Revoke…" not in text
    # Twice is harmless (a double tap): one audit entry.
    client.post(url, {"confirm": "yes"})
    assert AuditEntry.objects.filter(action="api_token.revoke").count() == 1


def test_another_user_s_key_is_not_there_for_them() -> None:
    director, home, _, _ = _director()
    token, _ = create_api_token(user=director, name="mine")
    other = make_director(home, "co-director")
    client = Client()
    client.force_login(other)
    assert "mine" not in client.get(PAGE).content.decode()
    url = reverse("director:api-key-revoke", args=[token.pk])
    assert client.post(url, {"confirm": "yes"}).status_code == 404
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None


def test_the_list_marks_expired_and_revoked_keys() -> None:
    director, _, _, client = _director()
    old, _ = create_api_token(user=director, name="old")
    ApiToken.objects.filter(pk=old.pk).update(expires_at=timezone.now() - dt.timedelta(days=1))
    gone, _ = create_api_token(user=director, name="gone")
    revoke_api_token(token_id=gone.pk, actor=director)
    create_api_token(user=director, name="live")
    text = client.get(PAGE).content.decode()
    cards = {
        name: text[text.index(f">{name}<") :].split("</li>")[0] for name in ("old", "gone", "live")
    }
    assert "expired" in cards["old"] and "Revoke…" in cards["old"]
    assert "revoked" in cards["gone"] and "Revoke…" not in cards["gone"]
    assert "active" in cards["live"] and "every event you direct" in cards["live"]


def test_the_page_reads_in_fixed_queries(django_assert_num_queries: Any) -> None:
    director, home, away, _ = _director()
    create_api_token(user=director, name="a", events=[home, away])
    with django_assert_num_queries(2):
        rows = list_api_keys(director)
    for _ in range(3):
        create_api_token(user=director, events=[home])
    with django_assert_num_queries(2):
        rows = list_api_keys(director)
    assert len(rows) == 4 and [e.slug for e in rows[-1].events] == ["away", "home"]
    with django_assert_num_queries(1):
        assert {e.slug for e in scopable_events(director)} == {"home", "away"}
