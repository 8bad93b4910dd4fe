"""Wrong table links and refused API keys are throttled per address (issue 28: they were not):
beyond ``table_link_failures`` / ``api_key_failures`` that address's wrong ones answer 429 with
``Retry-After``, on the table's pages (``/t/...``) and the API (``/api/table/...``) alike,
while right links and keys, from that address or any other, are never counted nor slowed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments import ratings_support as rs
from tests.tournaments.api_support import assert_error, private_cache
from tournaments.models import Round, Table
from tournaments.services.api_tokens import create_api_token
from tournaments.services.table_links import table_token

pytestmark = pytest.mark.django_db

LIMIT = 5


@pytest.fixture(autouse=True)
def _counters(settings: Any) -> Iterator[None]:
    """Counters of the test's own, and a limit per day (a window no test run straddles)."""
    rates = dict(django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"])
    rates.update(table_link_failures=f"{LIMIT}/day", api_key_failures=f"{LIMIT}/day")
    settings.REST_FRAMEWORK = {**django_settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    with private_cache(settings):
        yield


def _links() -> tuple[str, str]:
    """A right table link's token and a wrong one (the same with its secret part changed)."""
    event = rs.make_event("wrong-links")
    (match,) = rs.seat_round(event, 1, [(0, 1)])
    rnd = Round.objects.get(pk=match.round_id)
    table = Table.objects.get(pk=match.table_id)
    right = table_token(round_=rnd, table=table, side=0)
    wrong = right[:-4] + ("AAAA" if not right.endswith("AAAA") else "BBBB")
    return right, wrong


def _table_api(address: str, token: str) -> Any:
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    return client.get("/api/table/")


def test_wrong_table_links_from_one_address_are_throttled_and_right_links_never() -> None:
    right, wrong = _links()
    guesser = Client(REMOTE_ADDR="203.0.113.7")
    statuses = [guesser.get(f"/t/{wrong}/").status_code for _ in range(LIMIT)]
    assert statuses == [401] * LIMIT
    page = guesser.get(f"/t/{wrong}/")
    assert page.status_code == 429
    assert 0 < int(page["Retry-After"]) <= 86400
    assert "not valid" in page.content.decode() and "Too many wrong table links" in (
        page.content.decode()
    )
    # every path a link opens counts the same, and the API's table token too
    for path in ("status", "clock"):
        response = guesser.get(f"/t/{wrong}/{path}")
        assert response.status_code == 429 and response["Retry-After"], path
    api = _table_api("203.0.113.7", wrong)
    assert_error(api, 429, "throttled")
    assert int(api["Retry-After"]) > 0
    assert _table_api("203.0.113.7", "not-even-a-token").status_code == 429
    # right links from the same address: never counted, never slowed
    for _ in range(3 * LIMIT):
        assert guesser.get(f"/t/{right}/").status_code == 200
        assert _table_api("203.0.113.7", right).status_code == 200
    assert guesser.get(f"/t/{right}/clock").status_code == 200
    # another address's wrong link is refused as before, not throttled
    assert Client(REMOTE_ADDR="198.51.100.2").get(f"/t/{wrong}/").status_code == 401
    assert_error(_table_api("198.51.100.2", wrong), 401, "table_link_invalid")


def test_refused_api_keys_from_one_address_are_throttled_and_a_right_key_never() -> None:
    event = rs.make_event("wrong-keys")
    _, secret = create_api_token(user=rs.director(event))
    guesser = APIClient(REMOTE_ADDR="203.0.113.9")
    guesser.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef")
    for _ in range(LIMIT):
        assert_error(guesser.get("/api/events/"), 401, "authentication_failed")
    throttled = guesser.get("/api/events/")
    assert_error(throttled, 429, "throttled")
    assert int(throttled["Retry-After"]) > 0
    guesser.credentials(HTTP_AUTHORIZATION="Token")  # malformed: refused, throttled as well
    assert guesser.get("/api/events/").status_code == 429
    right = APIClient(REMOTE_ADDR="203.0.113.9")
    right.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    assert all(right.get("/api/events/").status_code == 200 for _ in range(3 * LIMIT))
    elsewhere = APIClient(REMOTE_ADDR="198.51.100.3")
    elsewhere.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef0123456789abcdef")
    assert_error(elsewhere.get("/api/events/"), 401, "authentication_failed")
