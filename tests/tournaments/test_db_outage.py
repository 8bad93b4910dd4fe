"""A database briefly out of reach (issue 28): a PostgreSQL of the test's own is stopped under a
real gunicorn in production mode. A claim sent meanwhile is ``503 service_unavailable`` with
``Retry-After`` (was: ``500 server_error``, no Retry-After); a spectator's page is a small page in
the reader's language that reloads itself (was: Django's bare "Server Error (500)"); once the
database is back the same request (its Idempotency-Key) is delivered, once."""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest
from django.db.utils import InterfaceError, OperationalError, ProgrammingError

from tests import outage_support
from tests.conftest import free_port
from tests.outage_support import Answer, OwnPostgres, Site
from tournaments import db_outage

pytestmark = pytest.mark.slow

# The production shape on a PostgreSQL of the module's own (tests/outage_support.py).
own_postgres = outage_support.own_postgres
site = outage_support.site


def claim(shape: Site, row: dict[str, Any], key: str) -> Answer:
    return shape.request(
        "POST",
        f"/api/matches/{row['match']}/claims/",
        body={"side": 0, "sheet": row["sheet"]},
        headers={"Authorization": f"Table {row['tokens'][0]}", "Idempotency-Key": key},
    )


def test_a_claim_while_the_database_is_down_is_503_and_its_retry_is_delivered_once(
    site: Site, own_postgres: OwnPostgres
) -> None:
    row = site.event["tables"][0]
    key = uuid.uuid4().hex
    assert site.request("GET", "/healthz").status == 200  # the workers hold a connection
    own_postgres.stop()
    try:
        refused = claim(site, row, key)
        assert refused.status == 503, refused.body[:500]
        assert refused.headers["retry-after"] == "3"
        assert refused.headers["cache-control"] == "no-store"
        assert refused.json()["code"] == "service_unavailable"
        assert refused.json()["details"] == {"retry_after": 3}
        again = claim(site, row, key)  # still down: the same answer, nothing kept
        assert (again.status, again.json()["code"]) == (503, "service_unavailable")
    finally:
        own_postgres.start()

    delivered = claim(site, row, key)  # the phone's retry, same key: the first connection
    assert delivered.status == 201, delivered.body[:500]
    assert delivered.headers["etag"] == '"1"'
    replayed = claim(site, row, key)
    assert replayed.status == 201
    assert replayed.headers["idempotent-replayed"] == "true"
    assert replayed.json() == delivered.json()

    confirm = site.request(
        "POST",
        f"/api/matches/{row['match']}/confirm/",
        body={"side": 1},
        headers={
            "Authorization": f"Table {row['tokens'][1]}",
            "Idempotency-Key": uuid.uuid4().hex,
            "If-Match": delivered.headers["etag"],
        },
    )
    assert confirm.status in (200, 201), confirm.body[:500]
    assert site.results()[str(row["match"])] == [1, 1]  # one result, current


def test_a_page_while_the_database_is_down_says_so_in_the_readers_language_and_polls(
    site: Site, own_postgres: OwnPostgres
) -> None:
    slug = site.event["slug"]
    own_postgres.stop()
    try:
        english = site.request("GET", f"/events/{slug}/standings/", headers={"Accept": "text/html"})
        spanish = site.request(
            "GET", f"/events/{slug}/", headers={"Accept": "text/html", "Accept-Language": "es"}
        )
        posted = site.request("POST", "/accounts/login/", body={}, headers={"Accept": "text/html"})
        table_page = site.request(
            "GET", f"/t/{site.event['tables'][1]['tokens'][0]}/", headers={"Accept": "text/html"}
        )
    finally:
        own_postgres.start()
    for page in (english, spanish, table_page):
        assert page.status == 503, page.body[:500]
        assert page.headers["retry-after"] == "3"
        assert page.headers["content-type"].startswith("text/html")
        assert b'<meta http-equiv="refresh" content="3">' in page.body
        assert b"Server Error" not in page.body
    assert b"Back in a moment" in english.body
    assert b"This page tries again by itself every 3 seconds." in english.body
    assert b'lang="es"' in spanish.body
    assert b"Vuelve en un momento" in spanish.body
    # A form's answer does not reload (that would lose what was typed): it says to send it again.
    assert posted.status in (403, 503)  # the CSRF check may refuse it first: no database needed
    if posted.status == 503:
        assert b"http-equiv" not in posted.body
    # The database back: the pages answer again, on the workers' own (reconnected) connections.
    assert site.request("GET", f"/events/{slug}/standings/").status == 200
    assert site.request("GET", f"/events/{slug}/", headers={"Accept-Language": "es"}).status == 200


def test_only_errors_of_reaching_the_database_are_outages(own_postgres: OwnPostgres) -> None:
    """The classifier on the errors psycopg really raises: a refused connection is an outage, a
    server's refusal of a query (its SQL, its lock) is not."""
    try:
        psycopg.connect(f"host=127.0.0.1 port={free_port()} user=postgres connect_timeout=2")
    except psycopg.OperationalError as raised:
        refused = OperationalError(str(raised))
        refused.__cause__ = raised
    assert db_outage.is_database_outage(refused)
    with psycopg.connect(own_postgres.url()) as conn:
        try:
            conn.execute("select * from no_such_table")
        except psycopg.errors.UndefinedTable as raised:
            missing_table = ProgrammingError(str(raised))
            missing_table.__cause__ = raised
        conn.rollback()
        try:
            conn.execute("set statement_timeout = 1; select pg_sleep(1)")
        except psycopg.errors.QueryCanceled as raised:
            cancelled = OperationalError(str(raised))
            cancelled.__cause__ = raised
        conn.rollback()
    assert not db_outage.is_database_outage(missing_table)
    assert not db_outage.is_database_outage(cancelled)  # the query's own fault: a 500
    assert db_outage.is_database_outage(InterfaceError("connection already closed"))
    # A server ending a connection (a restart's fast shutdown) is an outage: 57P01.
    with (
        psycopg.connect(own_postgres.url()) as victim,
        psycopg.connect(own_postgres.url()) as admin,
    ):
        victim_pid = victim.execute("select pg_backend_pid()").fetchone()
        assert victim_pid is not None
        admin.execute("select pg_terminate_backend(%s)", victim_pid)
        try:
            victim.execute("select 1")
        except psycopg.OperationalError as raised:
            ended = OperationalError(str(raised))
            ended.__cause__ = raised
    assert db_outage.is_database_outage(ended)
