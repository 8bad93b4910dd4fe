"""Role x endpoint: every cell asserts its status (and the error code where it is an error).

Roles: anonymous, table A's token (the match's own table), table B's token (another table of the
same round), the same table's token for another round of the event, a table token of another
event, a director of another event, the event's director, a staff user who directs no event (reads
every event's director endpoints, changes nothing: 403 ``read_only_staff``), a superuser (a
director of every event), and the event's director through narrowed API keys: a read-only key
(reads as the director does, any other method 403 ``api_token_read_only``), a key limited to
this event (as the director), a key limited to the director's other event (404 wherever the
request names this event: the key's user directs it, the key does not reach it). The match is
table A's in round 1.
Claims and confirmations are the tables' alone: a director gets 403 ``table_link_required``.
An object the caller may not see (another table's match, another event's round) is a 404.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.tournaments import api_matrix_events as event_matrix
from tests.tournaments.api_matrix_rounds import ENDPOINTS, NOT_YOURS, conflict
from tests.tournaments.api_support import (
    key_client,
    post,
    private_cache,
    table_client,
    user_client,
)
from tests.tournaments.results_support import (
    make_director,
    make_event,
    make_round,
    match_at,
)
from tournaments.models import ApiToken, AuditEntry, Event, Match, MatchResult, Round

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "table_a",  # table 1's side A link (side A holds the match's first claim in the setups)
    "table_a_side_b",  # table 1's side B link: the same match, the other partnership
    "table_b",
    "table_other_round",
    "table_other_event",
    "other_director",
    "director",
    "staff",
    "superuser",
    "director_read_key",
    "director_event_key",
    "director_other_event_key",
)
TABLE_ONLY = "table_link_required"
KEY_READ_ONLY = "api_token_read_only"
READ_ONLY = "read_only_staff"
# The error code of a 403 cell where it is not "forbidden".
CODES = {
    ("table", "other_director"): TABLE_ONLY,
    ("table", "director"): TABLE_ONLY,
    ("claims_submit", "other_director"): TABLE_ONLY,
    ("claims_submit", "director"): TABLE_ONLY,
    ("confirm", "other_director"): TABLE_ONLY,
    ("confirm", "director"): TABLE_ONLY,
    ("table", "staff"): TABLE_ONLY,
    ("claims_submit", "staff"): TABLE_ONLY,
    ("confirm", "staff"): TABLE_ONLY,
    ("table", "superuser"): TABLE_ONLY,
    ("claims_submit", "superuser"): TABLE_ONLY,
    ("confirm", "superuser"): TABLE_ONLY,
    ("confirm", "table_a"): "not_your_side",  # side A cannot confirm side A's own claim
    ("claims_submit", "table_a_side_b"): "not_your_side",  # side B cannot claim as side A
    ("verify", "staff"): READ_ONLY,
    ("resolve", "staff"): READ_ONLY,
    ("override", "staff"): READ_ONLY,
    ("correct", "staff"): READ_ONLY,
    ("revoke_links", "staff"): READ_ONLY,
    # Issue 19: a director's request that reached the service, refused there (the round is in
    # play, the event has no play-off and its Swiss round is open).
    ("round_generate", "director"): "previous_round_open",
    ("round_generate", "superuser"): "previous_round_open",
    ("round_swap", "director"): "round_not_draft",
    ("round_swap", "superuser"): "round_not_draft",
    ("playoff_advance", "director"): "playoff_needs_seeding",
    ("playoff_advance", "superuser"): "playoff_needs_seeding",
    ("finish", "director"): "main_rounds_open",
    ("finish", "superuser"): "main_rounds_open",
    **{
        (name, "staff"): READ_ONLY
        for name in (
            "round_generate",
            "round_swap",
            "round_links",
            "round_action",
            "round_clock",
            "playoff_advance",
            "finish",
        )
    },
}


@pytest.fixture(autouse=True)
def _fresh_throttles(settings: Any) -> Iterator[None]:
    """Throttle counters start at zero in every test."""
    with private_cache(settings):
        yield


# Public reads: anonymous callers get the table's answer, not a 401.
PUBLIC_READS = {"player_detail", "player_list"}

# The events, entries, audit log and player edits (issue 19): their cells in their own module.
ENDPOINTS.update(event_matrix.ENDPOINTS)
PUBLIC_READS |= event_matrix.PUBLIC_READS
CODES.update(event_matrix.CODES)


# Staff (not a director of the event, not a superuser): every read, no change. A superuser
# answers as the event's director does.
STAFF = {
    "table": 403,
    "match_detail": 200,
    "verify": 403,  # a POST: refused to read-only staff like every other
    "claims_list": 200,
    "claims_submit": 403,
    "confirm": 403,
    "resolve": 403,
    "override": 403,
    "correct": 403,
    "round_matches": 200,
    "round_claims": 200,
    "revoke_links": 403,
    "export": 200,
    "player_detail": 200,
    "player_list": 200,
    "round_list": 200,
    "round_detail": 200,
    "round_generate": 403,
    "job_detail": 200,
    "round_swap": 403,
    "round_links": 403,  # links let their holder enter results: as the printed cards
    "round_action": 403,
    "round_clock": 403,
    "playoff_advance": 403,
    "finish_check": 200,
    "finish": 403,
    **event_matrix.STAFF,
}
# Side B's link of table 1 reads what side A's reads; it writes only as side B.
SIDE_B = {"claims_submit": 403, "confirm": 201}
# The director's keys. A read-only key reads as the director does; its writes are refused
# before anything else looks at them (the key's authentication): 403 api_token_read_only.
WRITES = {
    "verify",
    "claims_submit",
    "confirm",
    "resolve",
    "override",
    "correct",
    "revoke_links",
    # the events, entries, players and rounds through the API (issue 19)
    "event_create",
    "event_update",
    "event_publish",
    "entry_register",
    "entry_import",
    "entry_update",
    "entry_action",
    "player_update",
    "round_generate",
    "round_swap",
    "round_action",
    "round_clock",
    "playoff_advance",
    "finish",
    # a round's table links let their holder write results: not for a read-only key
    "round_links",
}
# Changes outside any one event (a new event, a player who plays in many): a key limited to
# some events is refused whatever its events (403 api_token_event_scoped).
EVENTLESS_WRITES = {"event_create", "player_update"}
KEY_EVENT_SCOPED = "api_token_event_scoped"
# A key limited to the director's other event: every endpoint naming this event's match or
# round answers as if it did not exist. The players' endpoints are public reads that widen with
# the key's user's own rights (not an event's director endpoint; not narrowed by the key).
OTHER_EVENT_KEY = {
    "table": 403,
    "player_detail": 200,
    "player_list": 200,
    # public reads: the event and the list of public events read as for anyone
    "event_detail": 200,
    "events_list": 200,
}
for _name, (_setup, _call, _expected) in ENDPOINTS.items():
    _expected["staff"] = STAFF[_name]
    _expected["table_a_side_b"] = SIDE_B.get(_name, _expected["table_a"])
    _expected["superuser"] = _expected["director"]
    _expected["director_read_key"] = 403 if _name in WRITES else _expected["director"]
    _expected["director_event_key"] = _expected["director"]
    _expected["director_other_event_key"] = OTHER_EVENT_KEY.get(_name, NOT_YOURS)
    if _name in WRITES:
        CODES[(_name, "director_read_key")] = KEY_READ_ONLY
    if _name in EVENTLESS_WRITES:
        for _key_role in ("director_event_key", "director_other_event_key"):
            _expected[_key_role] = 403
            CODES[(_name, _key_role)] = KEY_EVENT_SCOPED
    if _expected["director_other_event_key"] == NOT_YOURS:
        CODES.setdefault((_name, "director_other_event_key"), "not_found")
    for _key_role in ("director_read_key", "director_event_key", "director_other_event_key"):
        if (_name, "director") in CODES and (_name, _key_role) not in CODES:
            CODES[(_name, _key_role)] = CODES[(_name, "director")]


def _client(role: str, rnd: Round, director: User, stranger: User) -> APIClient:
    if role == "anonymous":
        return APIClient()
    if role == "table_a":
        return table_client(rnd, 1, side=0)
    if role == "table_a_side_b":
        return table_client(rnd, 1, side=1)
    if role == "table_b":
        return table_client(rnd, 2)
    if role == "table_other_round":  # table 1 again, round 2 (in play too): a valid token
        return table_client(make_round(rnd.event, number=2), 1)
    if role == "table_other_event":  # table 1 of round 1 of the director's other event
        return table_client(make_round(Event.objects.get(slug="away")), 1)
    if role == "other_director":
        return user_client(stranger)
    if role == "staff":
        return user_client(User.objects.create_user(username="staff", is_staff=True))
    if role == "superuser":
        return user_client(User.objects.create_superuser(username="root"))
    if role == "director_read_key":
        return key_client(director, scope=ApiToken.Scope.READ)
    if role == "director_event_key":
        return key_client(director, events=[rnd.event])
    if role == "director_other_event_key":
        away = Event.objects.get(slug="away")
        away.directors.add(director)
        return key_client(director, events=[away])
    return user_client(director)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", sorted(ENDPOINTS))
def test_role_endpoint_matrix(endpoint: str, role: str) -> None:
    event = make_event("home")
    director = make_director(event, "home-director")
    stranger = make_director(make_event("away"), "away-director")
    rnd = make_round(event)
    match = match_at(rnd, 1)
    setup, call, expected = ENDPOINTS[endpoint]
    setup(match)
    response = call(_client(role, rnd, director, stranger), match, rnd)
    public = endpoint in PUBLIC_READS
    want = 401 if role == "anonymous" and not public else expected[role]
    assert response.status_code == want, (endpoint, role, response.content[:300])
    if want >= 400:
        body = response.json()
        assert set(body) == {"code", "message", "details"}
        wanted_code = (
            "not_authenticated"
            if want == 401
            else CODES.get((endpoint, role), "not_found" if want == NOT_YOURS else "forbidden")
        )
        assert want in (401, 403, NOT_YOURS) or (endpoint, role) in CODES, (endpoint, role)
        assert body["code"] == wanted_code, (endpoint, role, body)


def _state(match: Match) -> tuple[list[tuple[Any, ...]], int]:
    """The match's results (every field) and the audit log's length."""
    rows = list(MatchResult.objects.filter(match=match).values_list())
    return rows, AuditEntry.objects.count()


def test_staff_read_every_event_but_change_nothing_through_the_api() -> None:
    event = make_event()
    rnd = make_round(event)
    match = match_at(rnd, 1)
    conflict(match)
    staff = User.objects.create_user(username="staff", is_staff=True)
    client = user_client(staff)  # making the key is audited too: before the picture
    before = _state(match)
    response = client.get(f"/api/events/{event.slug}/rounds/1/matches/")
    assert response.status_code == 200 and len(response.json()) == 2
    assert match.pk in {m["id"] for m in response.json()}
    refused = post(client, f"/api/matches/{match.pk}/resolve/", {"side": 0, "reason": "ok"})
    assert refused.status_code == 403
    body = refused.json()
    assert body["code"] == READ_ONLY
    assert body["message"] == "Staff can see this event; only its directors change it."
    assert body["details"] == {"event": event.slug}
    assert _state(match) == before


# The leagues (issue 16): public reads for everyone; a private league is its directors' (and
# superusers') alone, a 404 to everyone else; no method but GET.
@pytest.mark.parametrize("role", ["anonymous", "stranger", "staff", "league_director", "superuser"])
def test_league_endpoints_read_for_all_and_private_leagues_for_their_directors(role: str) -> None:
    from tournaments.models import League

    public = League.objects.create(slug="open", name="Open", points=[3, 1])
    private = League.objects.create(slug="closed", name="Closed", points=[3, 1], public=False)
    users = {
        "stranger": lambda: User.objects.create_user(username="stranger"),
        "staff": lambda: User.objects.create_user(username="staff", is_staff=True),
        "league_director": lambda: User.objects.create_user(username="lead"),
        "superuser": lambda: User.objects.create_superuser(username="root"),
    }
    client = APIClient()
    if role in users:
        user = users[role]()
        if role == "league_director":
            private.directors.add(user)
        client = user_client(user)
    sees_private = role in ("league_director", "superuser")
    assert client.get("/api/leagues/").status_code == 200
    assert [lg["slug"] for lg in client.get("/api/leagues/").json()] == [public.slug]
    assert client.get("/api/leagues/open/").status_code == 200
    closed = client.get("/api/leagues/closed/")
    assert closed.status_code == (200 if sees_private else 404)
    if not sees_private:
        assert closed.json()["code"] == "not_found"
    refused = post(client, "/api/leagues/open/", {})
    assert refused.status_code == 405 and refused.json()["code"] == "method_not_allowed"
