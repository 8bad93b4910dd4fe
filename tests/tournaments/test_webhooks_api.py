"""The webhooks API: role x endpoint (every cell its status, and its code where it is an error),
then what an integrator does with it: register (the secret answered once), list, change, remove,
read the deliveries page by page, retry a failed one."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.tournaments.api_support import (
    assert_error,
    post,
    private_cache,
    table_client,
    user_client,
)
from tests.tournaments.results_support import make_director, make_event, make_round
from tournaments.models import Event, WebhookDelivery, WebhookEndpoint
from tournaments.services import webhooks

pytestmark = pytest.mark.django_db

READ_ONLY = "read_only_staff"


@pytest.fixture(autouse=True)
def _fresh_throttles(settings: Any) -> Iterator[None]:
    with private_cache(settings):
        yield


def world() -> dict[str, Any]:
    """An event with a round in play (for a table's token), its director, an endpoint with a
    failed delivery; another event with its own director."""
    event = make_event("hooks-api")
    boss = make_director(event, "boss")
    rnd = make_round(event, tables=1)
    endpoint, _ = webhooks.register_endpoint(event=event, actor=boss, url="https://x.example/h")
    delivery = WebhookDelivery.objects.create(
        endpoint=endpoint, kind="round.published", dedup_key="k", status="failed", attempts=8
    )
    other = make_event("elsewhere")
    return {
        "event": event,
        "round": rnd,
        "endpoint": endpoint,
        "delivery": delivery,
        "users": {
            "director": boss,
            "other_director": make_director(other, "olga"),
            "staff": User.objects.create_user("stella", is_staff=True),
            "superuser": User.objects.create_superuser("root"),
        },
    }


def client_as(role: str, w: dict[str, Any]) -> APIClient:
    if role == "anonymous":
        return APIClient()
    if role == "table":
        return table_client(w["round"], 1)
    return user_client(w["users"][role])


def url(w: dict[str, Any], tail: str = "") -> str:
    return f"/api/events/{w['event'].slug}/webhooks/{tail}"


Call = Callable[[APIClient, dict[str, Any]], Any]

CALLS: dict[str, tuple[Call, int]] = {
    # name: (the call, the director's status)
    "list": (lambda c, w: c.get(url(w)), 200),
    "create": (lambda c, w: post(c, url(w), {"url": "https://new.example/h"}), 201),
    "detail": (lambda c, w: c.get(url(w, f"{w['endpoint'].pk}/")), 200),
    "update": (
        lambda c, w: c.patch(url(w, f"{w['endpoint'].pk}/"), {"active": False}, format="json"),
        200,
    ),
    "delete": (lambda c, w: c.delete(url(w, f"{w['endpoint'].pk}/")), 204),
    "deliveries": (lambda c, w: c.get(url(w, f"{w['endpoint'].pk}/deliveries/")), 200),
    "retry": (
        lambda c, w: post(
            c, url(w, f"{w['endpoint'].pk}/deliveries/{w['delivery'].delivery_id}/retry/"), {}
        ),
        200,
    ),
}
READS = {"list", "detail", "deliveries"}
ROLES = ("anonymous", "table", "other_director", "director", "staff", "superuser")


def expected(call: str, role: str) -> tuple[int, str]:
    """(status, code) of a cell: 401 without credentials; 403 for a table's token (a director
    endpoint); 404 for another event's director (not theirs to see); staff read, and get 403
    read_only_staff on changes; the event's director and a superuser act."""
    ok = CALLS[call][1]
    if role == "anonymous":
        return 401, "not_authenticated"
    if role == "table":
        return 403, "forbidden"
    if role == "other_director":
        return 404, "not_found"
    if role == "staff" and call not in READS:
        return 403, READ_ONLY
    return ok, ""


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("call", list(CALLS))
def test_role_x_endpoint(call: str, role: str) -> None:
    w = world()
    before = (WebhookEndpoint.objects.count(), list(WebhookEndpoint.objects.values("active")))
    response = CALLS[call][0](client_as(role, w), w)
    status, code = expected(call, role)
    if code:
        assert_error(response, status, code)
        # a refused call changes nothing
        assert (
            WebhookEndpoint.objects.count(),
            list(WebhookEndpoint.objects.values("active")),
        ) == before
        assert WebhookDelivery.objects.get(pk=w["delivery"].pk).status == "failed"
    else:
        assert response.status_code == status, (response.status_code, response.content[:300])


def test_an_integrator_registers_lists_changes_and_removes() -> None:
    w = world()
    client = user_client(w["users"]["director"])
    made = post(client, url(w), {"url": "https://club.example/h", "kinds": ["standings.updated"]})
    assert made.status_code == 201, made.content
    body = made.json()
    assert set(body) == {"id", "url", "kinds", "active", "created_at", "secret"}
    stored = WebhookEndpoint.objects.get(pk=body["id"])
    assert body["secret"] == stored.secret and body["kinds"] == ["standings.updated"]
    listed = client.get(url(w)).json()
    assert [e["url"] for e in listed] == ["https://x.example/h", "https://club.example/h"]
    assert all("secret" not in e for e in listed)
    assert "secret" not in client.get(url(w, f"{stored.pk}/")).json()

    changed = client.patch(
        url(w, f"{stored.pk}/"), {"kinds": [], "active": False}, format="json"
    ).json()
    assert changed["kinds"] == [] and changed["active"] is False
    assert client.delete(url(w, f"{stored.pk}/")).status_code == 204
    assert_error(client.get(url(w, f"{stored.pk}/")), 404, "webhook_not_found")
    assert_error(client.delete(url(w, f"{stored.pk}/")), 404, "webhook_not_found")


@pytest.mark.parametrize(
    ("data", "status", "code"),
    [
        ({"url": "http://club.example/h"}, 400, "webhook_https_required"),
        ({"url": "ftp://club.example/h"}, 400, "webhook_url_invalid"),
        ({"url": "https://x.example/h"}, 409, "webhook_url_taken"),
        ({"url": "https://club.example/h", "kinds": ["round.started"]}, 400, "invalid"),
        ({"url": "https://club.example/h", "secret": "mine"}, 400, "invalid"),
        ({}, 400, "invalid"),
    ],
)
def test_a_bad_registration_answers_its_code(data: dict[str, Any], status: int, code: str) -> None:
    w = world()
    client = user_client(w["users"]["director"])
    assert_error(post(client, url(w), data), status, code)
    assert WebhookEndpoint.objects.count() == 1


def test_a_retried_registration_gets_the_same_answer_once() -> None:
    w = world()
    client = user_client(w["users"]["director"])
    first = post(client, url(w), {"url": "https://club.example/h"}, **{"Idempotency-Key": "k1"})
    again = post(client, url(w), {"url": "https://club.example/h"}, **{"Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json() and again["Idempotent-Replayed"] == "true"
    assert WebhookEndpoint.objects.filter(url="https://club.example/h").count() == 1


def test_the_deliveries_come_newest_first_page_by_page_and_by_status() -> None:
    w = world()
    endpoint: WebhookEndpoint = w["endpoint"]
    for n in range(60):
        WebhookDelivery.objects.create(
            endpoint=endpoint,
            kind="standings.updated",
            dedup_key=f"standings.updated:generation:{n}",
            status="delivered" if n % 2 else "pending",
            payload={"generation": n},
        )
    client = user_client(w["users"]["director"])
    first = client.get(url(w, f"{endpoint.pk}/deliveries/")).json()
    assert len(first["results"]) == 50 and first["previous"] is None
    assert first["results"][0]["payload"] == {"generation": 59}
    rest = client.get(first["next"]).json()
    assert len(rest["results"]) == 11 and rest["next"] is None  # 10 more and the failed one
    seen = [d["delivery_id"] for d in first["results"] + rest["results"]]
    assert len(set(seen)) == 61
    failed = client.get(url(w, f"{endpoint.pk}/deliveries/?status=failed")).json()["results"]
    assert [d["delivery_id"] for d in failed] == [str(w["delivery"].delivery_id)]
    assert set(failed[0]) >= {"kind", "status", "attempts", "last_status_code", "last_error"}
    assert_error(client.get(url(w, f"{endpoint.pk}/deliveries/?status=lost")), 400, "invalid")


def test_retry_answers_the_delivery_and_refuses_a_delivered_one() -> None:
    w = world()
    client = user_client(w["users"]["director"])
    tail = f"{w['endpoint'].pk}/deliveries/{w['delivery'].delivery_id}/retry/"
    answer = post(client, url(w, tail), {})
    assert answer.status_code == 200 and answer.json()["status"] == "pending"
    WebhookDelivery.objects.filter(pk=w["delivery"].pk).update(status="delivered")
    assert_error(post(client, url(w, tail), {}), 409, "webhook_already_delivered")
    missing = f"{w['endpoint'].pk}/deliveries/00000000-0000-0000-0000-000000000000/retry/"
    assert_error(post(client, url(w, missing), {}), 404, "webhook_delivery_not_found")


def test_another_events_endpoint_is_not_found_through_this_event() -> None:
    w = world()
    other = Event.objects.get(slug="elsewhere")
    client = user_client(w["users"]["other_director"])
    assert_error(
        client.get(f"/api/events/{other.slug}/webhooks/{w['endpoint'].pk}/"),
        404,
        "webhook_not_found",
    )


def test_the_schema_documents_the_webhooks_api() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    paths = schema["paths"]
    operations = {
        op["operationId"]
        for path, item in paths.items()
        if "/webhooks/" in path
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }
    assert operations == {
        "webhook_list",
        "webhook_create",
        "webhook_detail",
        "webhook_update",
        "webhook_delete",
        "webhook_deliveries",
        "webhook_delivery_retry",
    }
    create = paths["/api/events/{slug}/webhooks/"]["post"]
    assert "201" in create["responses"] and create["tags"] == ["director"]
    codes = schema["components"]["schemas"]["ErrorCodeEnum"]["enum"]
    assert {"webhook_https_required", "webhook_url_invalid", "webhook_not_found"} <= set(codes)
