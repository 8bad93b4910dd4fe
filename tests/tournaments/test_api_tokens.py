"""API keys stored hashed, and the API's 404 for whatever the caller may not see (issue 15);
keys narrowed to reading, to some events and to a date, revocable, each limit enforced where
every request passes (issue 19)."""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib
from io import StringIO
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import ProtectedError
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.test import APIClient, APIRequestFactory
from rest_framework.views import APIView

from tests.tournaments.api_support import (
    assert_error,
    key_client,
    post,
    private_cache,
    table_client,
    user_client,
)
from tests.tournaments.results_support import make_director, make_event, make_round, match_at
from tournaments.api.permissions import DirectorOnly, NotEventScopedKey, event_of, in_key_scope
from tournaments.errors import SpinnerError
from tournaments.models import ApiToken, AuditEntry, Event, Match, MatchResult
from tournaments.services.api_tokens import create_api_token, revoke_api_token

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


# --- Narrowed keys (issue 19): read or write, some events, expiring, revocable ------------------


def _home() -> tuple[Event, User, Match]:
    """The event "home" (round 1 in play, table 1's match), its director, who also directs
    "away"."""
    event = make_event("home")
    director = make_director(event, "home-director")
    make_event("away").directors.add(director)
    match = match_at(make_round(event), 1)
    return event, director, match


def _override(client: APIClient, match: Match) -> Any:
    return post(
        client,
        f"/api/matches/{match.pk}/override/",
        {"final_score": {"scores": [5, 0]}, "reason": "board count"},
    )


def test_a_key_is_made_with_its_scope_events_and_expiry_and_audited_once_per_event() -> None:
    event, director, _ = _home()
    away = Event.objects.get(slug="away")
    expires = timezone.now() + dt.timedelta(days=30)
    token, key = create_api_token(
        user=director,
        name="  Club website ",
        scope=ApiToken.Scope.READ,
        events=[event, away, event],
        expires_at=expires,
    )
    token.refresh_from_db()
    assert (token.name, token.scope, token.expires_at) == ("Club website", "read", expires)
    assert sorted(token.events.values_list("slug", flat=True)) == ["away", "home"]
    assert token.prefix == key[:8] and key not in _every_stored_text()
    made = AuditEntry.objects.filter(action="api_token.create", object_id=str(token.pk))
    assert sorted(e.event.slug for e in made if e.event) == ["away", "home"]
    assert {e.actor_id for e in made} == {director.pk}
    after = made.first().after
    assert after["scope"] == "read" and after["prefix"] == token.prefix
    assert key not in str(after) and token.key_hash not in str(after)
    # A key of every event is one entry, with no event.
    every, _ = create_api_token(user=director, name="all")
    (entry,) = AuditEntry.objects.filter(action="api_token.create", object_id=str(every.pk))
    assert entry.event is None and entry.after["events"] == []


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"name": "x" * 101}, "invalid", "name"),
        ({"scope": "admin"}, "invalid_choice", "scope"),
        ({"expires_at": dt.datetime(2020, 1, 1, tzinfo=dt.UTC)}, "api_token_expiry_past", None),
        ({"events": "stranger"}, "not_event_director", "events"),
    ],
)
def test_a_key_is_refused_when_its_request_is_wrong(
    change: dict[str, Any], code: str, field: str | None
) -> None:
    _, director, _ = _home()
    if change.get("events") == "stranger":
        change = {"events": [make_event("elsewhere")]}
    with pytest.raises(SpinnerError) as refused:
        create_api_token(user=director, **{"name": "k", **change})
    assert refused.value.code == code
    if field:
        assert field in refused.value.details["errors"]
    assert not ApiToken.objects.exists()
    assert not AuditEntry.objects.filter(action="api_token.create").exists()


def test_only_the_owner_revokes_a_key_and_revoking_twice_records_once() -> None:
    event, director, _ = _home()
    token, _ = create_api_token(user=director, name="scorer", events=[event])
    root = User.objects.create_superuser("root")
    for intruder in (root, make_director(event, "co-director")):
        with pytest.raises(SpinnerError) as refused:
            revoke_api_token(token_id=token.pk, actor=intruder)
        assert refused.value.code == "api_token_not_found"
    token.refresh_from_db()
    assert token.revoked_at is None
    revoke_api_token(token_id=token.pk, actor=director)
    first = ApiToken.objects.get(pk=token.pk).revoked_at
    assert first is not None
    revoke_api_token(token_id=token.pk, actor=director)
    assert ApiToken.objects.get(pk=token.pk).revoked_at == first
    revoked = AuditEntry.objects.filter(action="api_token.revoke", object_id=str(token.pk))
    assert [(e.event_id, e.actor_id) for e in revoked] == [(event.pk, director.pk)]
    assert revoked.get().after["revoked_at"] is not None


def test_a_read_key_reads_and_is_refused_a_write_before_anything_changes(settings: Any) -> None:
    with private_cache(settings):
        event, director, match = _home()
        client = key_client(director, scope=ApiToken.Scope.READ)
        assert client.get(f"/api/events/{event.slug}/rounds/1/matches/").status_code == 200
        assert client.head(f"/api/matches/{match.pk}/").status_code == 200
        before = AuditEntry.objects.count()
        refused = _override(client, match)
        body = assert_error(refused, 403, "api_token_read_only")
        assert "read" in body["message"]
        assert not MatchResult.objects.filter(match=match).exists()
        assert AuditEntry.objects.count() == before
        # The same director's write key does it.
        assert _override(key_client(director), match).status_code == 201


def test_a_key_limited_to_one_event_acts_there_only(settings: Any) -> None:
    with private_cache(settings):
        event, director, match = _home()
        away = Event.objects.get(slug="away")
        away_match = match_at(make_round(away), 1)
        client = key_client(director, events=[away])
        for path in (
            f"/api/matches/{match.pk}/",
            f"/api/events/{event.slug}/rounds/1/matches/",
            f"/api/events/{event.slug}/export/",
        ):
            assert_error(client.get(path), 404, "not_found")
        assert_error(_override(client, match), 404, "not_found")
        assert not MatchResult.objects.filter(match=match).exists()
        assert client.get(f"/api/events/{away.slug}/rounds/1/matches/").status_code == 200
        assert client.get(f"/api/events/{away.slug}/export/").status_code == 200
        assert _override(client, away_match).status_code == 201


def test_an_expired_or_revoked_key_is_refused_with_its_own_code(settings: Any) -> None:
    with private_cache(settings):
        event, director, _ = _home()
        url = f"/api/events/{event.slug}/rounds/1/matches/"
        token, key = create_api_token(
            user=director, expires_at=timezone.now() + dt.timedelta(days=1)
        )
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert client.get(url).status_code == 200
        ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now())
        assert_error(client.get(url), 401, "api_token_expired")
        revoke_api_token(token_id=token.pk, actor=director)
        assert_error(client.get(url), 401, "api_token_revoked")
        # Revoked wins over a write's refusal; an unknown key says nothing more.
        assert_error(_override(client, match_at(event.rounds.get(), 1)), 401, "api_token_revoked")
        unknown = key[:-1] + ("1" if key.endswith("0") else "0")  # never the key itself
        client.credentials(HTTP_AUTHORIZATION=f"Token {unknown}")
        assert_error(client.get(url), 401, "authentication_failed")


def test_last_used_is_noted_at_most_once_a_minute(settings: Any) -> None:
    with private_cache(settings):
        event, director, _ = _home()
        token, key = create_api_token(user=director)
        assert token.last_used_at is None
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        url = f"/api/events/{event.slug}/rounds/1/matches/"
        assert client.get(url).status_code == 200
        first = ApiToken.objects.get(pk=token.pk).last_used_at
        assert first is not None and timezone.now() - first < dt.timedelta(seconds=30)
        assert client.get(url).status_code == 200
        assert ApiToken.objects.get(pk=token.pk).last_used_at == first
        an_hour_ago = first - dt.timedelta(hours=1)
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=an_hour_ago)
        assert client.get(url).status_code == 200
        assert ApiToken.objects.get(pk=token.pk).last_used_at > first
        # A refused key is not "used".
        revoke_api_token(token_id=token.pk, actor=director)
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=an_hour_ago)
        assert client.get(url).status_code == 401
        assert ApiToken.objects.get(pk=token.pk).last_used_at == an_hour_ago


class _EventByItself(APIView):
    """A director endpoint that looks its event up itself and never calls the object check:
    the URL's event is checked against the key all the same."""

    permission_classes = [DirectorOnly]

    def get(self, request: Request, slug: str) -> Response:
        return Response({"event": slug})


class _MakesAnEvent(APIView):
    permission_classes = [DirectorOnly, NotEventScopedKey]

    def post(self, request: Request) -> Response:
        return Response(
            {
                "events": sorted(
                    in_key_scope(request, Event.objects.all()).values_list("slug", flat=True)
                )
            }
        )


def _call(
    view: Any, user: User, key_events: list[Event], method: str = "get", **kwargs: Any
) -> Any:
    _, key = create_api_token(user=user, events=key_events)
    request = getattr(APIRequestFactory(), method)("/api/x/", HTTP_AUTHORIZATION=f"Token {key}")
    return view.as_view()(request, **kwargs)


def test_the_url_s_event_is_checked_even_where_the_view_checks_nothing() -> None:
    event, director, _ = _home()
    away = Event.objects.get(slug="away")
    assert _call(_EventByItself, director, [event], slug="home").status_code == 200
    assert _call(_EventByItself, director, [away], slug="home").status_code == 404
    assert _call(_EventByItself, director, [], slug="home").status_code == 200
    # An event that does not exist is the view's to answer.
    assert _call(_EventByItself, director, [away], slug="nowhere").status_code == 200


def test_lists_are_narrowed_and_scoped_keys_make_nothing_outside_their_events() -> None:
    event, director, _ = _home()
    refused = _call(_MakesAnEvent, director, [event], method="post")
    assert refused.status_code == 403 and refused.data["code"] == "api_token_event_scoped"
    allowed = _call(_MakesAnEvent, director, [], method="post")
    assert allowed.status_code == 200 and allowed.data["events"] == ["away", "home"]


def test_an_object_with_no_event_is_a_programming_error() -> None:
    with pytest.raises(TypeError):
        event_of(object())


def test_the_command_narrows_the_key() -> None:
    _, director, _ = _home()
    out = StringIO()
    call_command(
        "api_token",
        director.username,
        "--read-only",
        "--event",
        "home",
        "--event",
        "away",
        "--expires-days",
        "7",
        "--name",
        "cli",
        stdout=out,
        stderr=StringIO(),
    )
    token = ApiToken.objects.get(
        key_hash=hashlib.sha256(out.getvalue().strip().encode()).hexdigest()
    )
    assert token.scope == "read" and token.name == "cli"
    assert sorted(token.events.values_list("slug", flat=True)) == ["away", "home"]
    assert token.expires_at is not None
    left = token.expires_at - timezone.now()
    assert dt.timedelta(days=6, hours=23) < left <= dt.timedelta(days=7)
    for bad, says in (
        (["--event", "nowhere"], "No event 'nowhere'"),
        (["--expires-days", "0"], "1 or more"),
    ):
        with pytest.raises(CommandError, match=says):
            call_command("api_token", director.username, *bad, stdout=StringIO())
    make_event("elsewhere")
    with pytest.raises(CommandError, match="not_event_director"):
        call_command("api_token", director.username, "--event", "elsewhere", stdout=StringIO())
    assert ApiToken.objects.count() == 1


def test_the_schema_says_what_a_key_may_do() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    text = schema["components"]["securitySchemes"]["tokenAuth"]["description"]
    for needed in ("read", "api_token_read_only", "api_token_revoked", "api_token_expired", "404"):
        assert needed in text


def test_an_event_a_key_is_limited_to_cannot_vanish_and_widen_the_key() -> None:
    """No events listed means every event: so a listed event must never disappear from under a
    key. Making the key audited it in the event's log, which protects the event."""
    event, director, _ = _home()
    create_api_token(user=director, events=[event])
    with pytest.raises(ProtectedError):
        event.delete()
