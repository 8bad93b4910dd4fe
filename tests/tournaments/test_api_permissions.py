"""Role x endpoint: every cell asserts its status (and the error code where it is an error).

Roles: anonymous, table A's token (the match's own table), table B's token (another table of the
same round), a director of another event, the event's director. The match is table A's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.tournaments.api_support import (
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
    sheet,
)
from tournaments.models import Match, Round
from tournaments.services import results

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "table_a", "table_b", "other_director", "director")


@pytest.fixture(autouse=True)
def _fresh_throttles(settings: Any) -> Iterator[None]:
    """Throttle counters start at zero in every test."""
    with private_cache(settings):
        yield


def _claimed(match: Match) -> None:
    results.submit_claim(match=match, side=0, sheet=sheet("tally"))


def _conflict(match: Match) -> None:
    _claimed(match)
    results.submit_claim(match=match, side=1, sheet=sheet("nodeal"))


def _confirmed(match: Match) -> None:
    _claimed(match)
    results.submit_claim(match=match, side=1, sheet=sheet("tally"))


def _nothing(match: Match) -> None:
    return None


Setup = Callable[[Match], None]
Call = Callable[[APIClient, Match, Round], Any]

# endpoint: (setup, call, {role: expected status})
ENDPOINTS: dict[str, tuple[Setup, Call, dict[str, int]]] = {
    "table": (
        _nothing,
        lambda c, m, r: c.get("/api/table/"),
        {"table_a": 200, "table_b": 200, "other_director": 403, "director": 403},
    ),
    "match_detail": (
        _nothing,
        lambda c, m, r: c.get(f"/api/matches/{m.pk}/"),
        {"table_a": 200, "table_b": 403, "other_director": 403, "director": 200},
    ),
    "verify": (
        _nothing,
        lambda c, m, r: post(c, f"/api/matches/{m.pk}/verify/", {"sheet": sheet("tally")}),
        {"table_a": 200, "table_b": 403, "other_director": 403, "director": 200},
    ),
    "claims_list": (
        _claimed,
        lambda c, m, r: c.get(f"/api/matches/{m.pk}/claims/"),
        {"table_a": 200, "table_b": 403, "other_director": 403, "director": 200},
    ),
    "claims_submit": (
        _nothing,
        lambda c, m, r: post(
            c, f"/api/matches/{m.pk}/claims/", {"side": 0, "sheet": sheet("tally")}
        ),
        {"table_a": 201, "table_b": 403, "other_director": 403, "director": 201},
    ),
    "confirm": (
        _claimed,
        lambda c, m, r: post(c, f"/api/matches/{m.pk}/confirm/", {"side": 1}, If_Match='"1"'),
        {"table_a": 201, "table_b": 403, "other_director": 403, "director": 201},
    ),
    "resolve": (
        _conflict,
        lambda c, m, r: post(c, f"/api/matches/{m.pk}/resolve/", {"side": 0, "reason": "ok"}),
        {"table_a": 403, "table_b": 403, "other_director": 403, "director": 201},
    ),
    "override": (
        _nothing,
        lambda c, m, r: post(
            c, f"/api/matches/{m.pk}/override/", {"final_score": {"scores": [5, 0]}, "reason": "x"}
        ),
        {"table_a": 403, "table_b": 403, "other_director": 403, "director": 201},
    ),
    "correct": (
        _confirmed,
        lambda c, m, r: post(
            c,
            f"/api/matches/{m.pk}/correct/",
            {"final_score": {"scores": [5, 0]}, "reason": "x"},
            If_Match='"1"',
        ),
        {"table_a": 403, "table_b": 403, "other_director": 403, "director": 201},
    ),
    "round_matches": (
        _nothing,
        lambda c, m, r: c.get(f"/api/events/{r.event.slug}/rounds/{r.number}/matches/"),
        {"table_a": 403, "table_b": 403, "other_director": 403, "director": 200},
    ),
    "round_claims": (
        _claimed,
        lambda c, m, r: c.get(f"/api/events/{r.event.slug}/rounds/{r.number}/claims/"),
        {"table_a": 403, "table_b": 403, "other_director": 403, "director": 200},
    ),
    "revoke_links": (
        _nothing,
        lambda c, m, r: post(
            c, f"/api/events/{r.event.slug}/rounds/{r.number}/revoke-links/", {"reason": "x"}
        ),
        {"table_a": 403, "table_b": 403, "other_director": 403, "director": 200},
    ),
}


def _client(role: str, rnd: Round, director: User, stranger: User) -> APIClient:
    if role == "anonymous":
        return APIClient()
    if role == "table_a":
        return table_client(rnd, 1)
    if role == "table_b":
        return table_client(rnd, 2)
    if role == "other_director":
        return user_client(stranger)
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
    want = 401 if role == "anonymous" else expected[role]
    assert response.status_code == want, (endpoint, role, response.content[:300])
    if want >= 400:
        body = response.json()
        assert set(body) == {"code", "message", "details"}
        assert body["code"] == ("not_authenticated" if want == 401 else "forbidden")


def test_a_staff_user_directs_every_event() -> None:
    event = make_event()
    rnd = make_round(event)
    staff = User.objects.create_user(username="staff", is_staff=True)
    response = user_client(staff).get(f"/api/events/{event.slug}/rounds/1/matches/")
    assert response.status_code == 200 and len(response.json()) == 2
    assert match_at(rnd, 1).pk in {m["id"] for m in response.json()}
