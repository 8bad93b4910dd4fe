"""Outages a phone rides through (issue 28), in the browser.

- PostgreSQL restarts while a phone sends its claim: the phone (on a real gunicorn in production
  mode, on a PostgreSQL of the module's own: ``tests/outage_support.py``) gets ``503`` with
  ``Retry-After``, says on its scorebar that it is waiting for the connection, sends again no
  sooner than the server asked, with the same Idempotency-Key, and the claim is stored once.
- A request that never answers is given up (the request timeout) and sent again: the first
  claim request is held by the browser's network (a Playwright route that never answers) and
  the phone's clock is moved on past the timeout.
"""

from __future__ import annotations

import datetime
import email.utils
import re
from typing import Any

import psycopg
import pytest
from playwright.sync_api import expect

from tests import outage_support
from tests.conftest import poll
from tests.outage_support import OwnPostgres, Site
from tests.tournaments.phone_factory import audit_flush, make_setup, orm  # noqa: F401
from tournaments.models import Claim, IdempotencyRecord

# The production shape on a PostgreSQL of the module's own.
own_postgres = outage_support.own_postgres
site = outage_support.site

WAITING = "Waiting for the connection"


def outbox(page: Any, token: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = page.evaluate(
        f"JSON.parse(localStorage.getItem('spinner.outbox.{token}')) || []"
    )
    return items


def play_one_hand(page: Any) -> None:
    """Side A's first seat leads, scores 10 raw and dominoes: the game (to 10) is over."""
    first = page.get_by_role("button", name=re.compile(r"\(N\)$")).first
    seat = first.inner_text().strip()
    first.click()
    page.get_by_role("button", name=f"{seat} scores 2 points", exact=True).click()
    page.get_by_role("button", name=f"{seat} dominoed", exact=True).click()
    for other, pips in ((1, "5"), (2, "0"), (3, "10")):
        page.locator(f"#pips-{other}").fill(pips)
    page.get_by_role("button", name="Settle hand 1", exact=True).click()
    expect(page.locator("#winner")).to_be_visible()


def claims_stored(cluster: OwnPostgres, match: int) -> list[tuple[int, str, int]]:
    with psycopg.connect(cluster.url()) as conn:
        rows = conn.execute(
            "select side, status, version from tournaments_claim where match_id = %s",
            (match,),
        ).fetchall()
    return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]


def records_of_key(cluster: OwnPostgres, key: str) -> int:
    with psycopg.connect(cluster.url()) as conn:
        row = conn.execute(
            "select count(*) from tournaments_idempotencyrecord where key = %s", (key,)
        ).fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.slow
@pytest.mark.browser
def test_a_postgres_restart_during_a_claim_is_ridden_through_and_delivered_once(
    site: Site, own_postgres: OwnPostgres, phone: Any
) -> None:
    row = site.event["tables"][0]
    # One hand ends the game: the event's target is 10 raw points (the phone reads it).
    site.django(
        "manage.py",
        "shell",
        "-c",
        "from tournaments.models import Event; "
        f"Event.objects.filter(slug={site.event['slug']!r}).update(target=10)",
    )
    answers: list[Any] = []  # the claim requests' answers, in order

    def is_claim(response: Any) -> bool:
        return bool(response.request.method == "POST" and response.url.endswith("/claims/"))

    phone.on("response", lambda response: answers.append(response) if is_claim(response) else None)
    phone.goto(f"{site.url}/t/{row['tokens'][0]}/")
    play_one_hand(phone)
    expect(phone.locator("#net-wait")).to_be_hidden()

    own_postgres.stop()
    try:
        with phone.expect_response(is_claim, timeout=30_000):
            phone.get_by_role("button", name=re.compile(r"^Submit as ")).click()
        expect(phone.locator("#net-wait")).to_contain_text(WAITING)
        expect(phone.locator("#net-wait")).to_contain_text("your entries are kept")
        assert len(outbox(phone, row["tokens"][0])) == 1
    finally:
        own_postgres.start()

    poll(lambda: not outbox(phone, row["tokens"][0]), timeout=60)
    assert (answers[0].status, answers[0].headers.get("retry-after")) == (503, "3")
    assert len(answers) >= 2 and answers[-1].status == 201, [a.status for a in answers]
    # The retry waited as long as the server asked (3 s), not less: the browser's own timings.
    first, retry = answers[0].request.timing, answers[1].request.timing
    answered = first["startTime"] + max(first["responseEnd"], first["responseStart"])
    assert retry["startTime"] - answered >= 2900, (first, retry)
    keys = {a.request.headers.get("idempotency-key", "") for a in answers}
    assert len(keys) == 1 and "" not in keys
    assert claims_stored(own_postgres, row["match"]) == [(0, "submitted", 1)]
    assert records_of_key(own_postgres, keys.pop()) == 1
    expect(phone.locator("#claim-pending-A")).to_be_visible()
    expect(phone.locator("#net-wait")).to_be_hidden()  # delivered: the scorebar is itself again

    phone.reload()  # nothing is sent twice
    expect(phone.locator("#claim-pending-A")).to_be_visible()
    assert claims_stored(own_postgres, row["match"]) == [(0, "submitted", 1)]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("audit_flush")
def test_a_request_that_never_answers_times_out_and_is_sent_again(
    live_server: Any, phone: Any
) -> None:
    setup = orm(make_setup, "hung", rules="five-up", target=10)
    path = setup.path()
    token = path.split("/")[2]
    held: list[Any] = []
    seen: list[str] = []

    def hold_the_first(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        seen.append(route.request.headers.get("idempotency-key", ""))
        if len(seen) == 1:
            held.append(route)  # never answered: the request hangs
        else:
            route.continue_()

    phone.clock.install()
    phone.route("**/claims/", hold_the_first)
    phone.goto(live_server.url + path)
    play_one_hand(phone)
    phone.get_by_role("button", name="Submit as Team A", exact=True).click()
    poll(lambda: outbox(phone, token) and held)  # (the page's call lets the handler run)
    phone.clock.run_for(5_000)  # still waiting within the timeout: nothing sent again
    assert len(seen) == 1 and len(outbox(phone, token)) == 1
    phone.clock.run_for(11_000)  # past the 15 s timeout: given up; the retry's wait follows
    expect(phone.locator("#net-wait")).to_contain_text(WAITING)
    phone.clock.run_for(2_000)  # the first retry comes within a second (full jitter)
    poll(lambda: not outbox(phone, token))
    assert len(seen) == 2 and seen[0] == seen[1] != ""
    assert orm(lambda: [(c.side, c.status) for c in Claim.objects.all()]) == [(0, "submitted")]
    assert orm(lambda: IdempotencyRecord.objects.filter(key=seen[0]).count()) == 1
    expect(phone.locator("#claim-pending-A")).to_be_visible()
    expect(phone.locator("#net-wait")).to_be_hidden()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("audit_flush")
def test_a_retry_after_given_as_a_date_is_waited_for(live_server: Any, phone: Any) -> None:
    """``Retry-After`` as an HTTP date (what a proxy or balancer may send): the phone sends again
    no sooner than that instant (by its own clock, moved on by the test)."""
    setup = orm(make_setup, "dated", rules="five-up", target=10)
    path = setup.path()
    token = path.split("/")[2]
    start = datetime.datetime(2026, 12, 8, 12, 0, tzinfo=datetime.UTC)
    seen: list[str] = []

    def busy_first(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        seen.append(route.request.headers.get("idempotency-key", ""))
        if len(seen) > 1:
            route.continue_()
            return
        until = email.utils.format_datetime(start + datetime.timedelta(seconds=90), usegmt=True)
        route.fulfill(
            status=503,
            headers={"Retry-After": until, "Content-Type": "application/json"},
            body='{"code": "service_unavailable", "message": "Busy.", "details": {}}',
        )

    phone.clock.install(time=start)
    phone.route("**/claims/", busy_first)
    phone.goto(live_server.url + path)
    play_one_hand(phone)
    phone.get_by_role("button", name="Submit as Team A", exact=True).click()
    poll(lambda: outbox(phone, token) and seen)
    expect(phone.locator("#net-wait")).to_contain_text(WAITING)
    # The page's clock to 2 s before the date: nothing sent again yet.
    now = int(phone.evaluate("Date.now()"))
    until = int((start + datetime.timedelta(seconds=90)).timestamp() * 1000)
    phone.clock.run_for(until - now - 2_000)
    assert len(seen) == 1 and len(outbox(phone, token)) == 1
    # Past it and its spread (at most half a second), not as far as the retry's own timeout:
    # the server answers in real time.
    phone.clock.run_for(2_600)
    poll(lambda: not outbox(phone, token))
    assert len(seen) == 2 and seen[0] == seen[1] != ""
    assert orm(lambda: Claim.objects.count()) == 1
    expect(phone.locator("#net-wait")).to_be_hidden()
