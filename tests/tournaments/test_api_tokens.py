"""API keys stored hashed, and the API's 404 for whatever the caller may not see (issue 15)."""

from __future__ import annotations

import hashlib
import importlib
from io import StringIO
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from rest_framework.test import APIClient

from tests.tournaments.api_support import private_cache, table_client, user_client
from tests.tournaments.results_support import make_director, make_event, make_round, match_at
from tournaments.models import ApiToken
from tournaments.services.api_tokens import create_api_token

pytestmark = pytest.mark.django_db


def _every_stored_text() -> str:
    return " ".join(str(v) for row in ApiToken.objects.values_list() for v in row)


def test_a_key_is_stored_as_its_sha256_only_and_works() -> None:
    user = User.objects.create_user("dora")
    token, key = create_api_token(user=user, name="laptop")
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in _every_stored_text()
    event = make_event("home")
    event.directors.add(user)
    make_round(event)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/events/home/rounds/1/matches/").status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key_hash}")  # the stored hash is no key
    assert client.get("/api/events/home/rounds/1/matches/").status_code == 401
    client.credentials(HTTP_AUTHORIZATION=f"Token {key[:-1]}x")
    assert client.get("/api/events/home/rounds/1/matches/").status_code == 401


def test_the_command_prints_the_key_once() -> None:
    User.objects.create_user("dora")
    out, err = StringIO(), StringIO()
    call_command("api_token", "dora", stdout=out, stderr=err)
    key = out.getvalue().strip()
    assert len(key) == 40
    stored = ApiToken.objects.get()
    assert stored.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in _every_stored_text()
    assert "cannot be shown again" in err.getvalue()


def test_plain_authtoken_rows_are_migrated_hashed_and_deleted() -> None:
    """A database from before: DRF's authtoken table with a plain key in it."""
    user = User.objects.create_user("dora")
    plain = "f" * 40
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created timestamp with time zone NOT NULL, user_id integer NOT NULL)"
            if connection.vendor == "postgresql"
            else "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "created datetime NOT NULL, user_id integer NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
            [plain, "2026-01-01 00:00:00+00:00", user.pk],
        )
    migration = importlib.import_module("tournaments.migrations.0005_security")
    # The migration reads only its editor's connection; SQLite refuses a real schema editor
    # inside the test's transaction, so hand it the connection the editor would carry.
    migration.hash_plain_tokens(apps, SimpleNamespace(connection=connection))
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0
        cursor.execute("DROP TABLE authtoken_token")
    migrated = ApiToken.objects.get(user=user)
    assert migrated.key_hash == hashlib.sha256(plain.encode()).hexdigest()
    assert plain not in _every_stored_text()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {plain}")
    assert client.get("/api/table/").status_code == 403  # authenticated: a user, not a table


def test_objects_the_caller_may_not_see_answer_as_missing_ones_do(settings: Any) -> None:
    with private_cache(settings):
        event = make_event("home")
        make_director(event, "home-director")
        stranger = make_director(make_event("away"), "away-director")
        rnd = make_round(event)
        match = match_at(rnd, 1)
        other_table = table_client(rnd, 2)
        director = user_client(stranger)
        missing = 10**9
        for client in (director, other_table):
            for path in (f"/api/matches/{match.pk}/", f"/api/matches/{match.pk}/claims/"):
                seen = client.get(path)
                absent = client.get(path.replace(str(match.pk), str(missing)))
                assert seen.status_code == absent.status_code == 404, (path, seen.content)
                assert seen.json()["code"] == absent.json()["code"] == "not_found"
        rounds = director.get("/api/events/home/rounds/1/matches/")
        no_round = director.get("/api/events/home/rounds/9/matches/")
        assert rounds.status_code == no_round.status_code == 404
