"""The API against its own schema: schemathesis finds no server error; the schema validates.

Generated requests go to the WSGI app in-process, against a real event: path parameters point at
its match, round, entry and player, so the bodies reach the services; tables' operations carry
table A's token, the director's operations (the director is an organiser: events are created)
the director's token.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import Group
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode, checks

from tests.tournaments.api_support import private_cache
from tests.tournaments.results_support import make_director, make_event, make_round, match_at, sheet
from tournaments.models import League, Table
from tournaments.permissions import ORGANISERS_GROUP
from tournaments.services import claims
from tournaments.services.table_links import table_token

ROOT = Path(__file__).resolve().parents[2]
DIRECTOR_PATHS = (
    "/resolve/",
    "/override/",
    "/correct/",
    "/forfeit/",
    "/api/events/",
    "/api/players/{player_id}/",
)
EXAMPLES = 20


def _operations() -> list[tuple[str, str, GenerationMode]]:
    """Every (path, method) of the API from the generated schema, with each generation mode
    (negative only where there is something to get wrong: parameters or a body)."""
    from drf_spectacular.generators import SchemaGenerator

    generator = SchemaGenerator()
    paths = generator.get_schema(request=None, public=True)["paths"]  # type: ignore[no-untyped-call]
    found = []
    for path, item in paths.items():
        for method, operation in item.items():
            if method not in ("get", "post", "patch") or path == "/api/schema/":
                continue
            found.append((path, method.upper(), GenerationMode.POSITIVE))
            if operation.get("requestBody") or any(
                _constrained(p.get("schema", {})) for p in operation.get("parameters", [])
            ):
                found.append((path, method.upper(), GenerationMode.NEGATIVE))
    return sorted(found, key=lambda t: (t[0], t[1], t[2].value))


def _constrained(schema: dict[str, Any]) -> bool:
    """Can a request break this parameter's schema? (Any string fits a plain string.)"""
    return schema.get("type") != "string" or any(
        key in schema for key in ("pattern", "enum", "format", "minLength", "maxLength")
    )


@pytest.fixture
def world(db: None, settings: Any) -> Iterator[dict[str, Any]]:
    """An event in play with a claim at table 1, and the credentials of table 1 and its director."""
    from tournaments.services.api_tokens import create_api_token

    rates = {"table_token": "100000/min", "anon": "100000/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    event = make_event("fuzz", allow_final_score_only=True)
    # A public league of the same slug, for the league endpoints' path.
    event.league = League.objects.create(slug="fuzz", name="Fuzz", points=[3, 2, 1])
    event.save(update_fields=["league"])
    director = make_director(event, "fuzz-director")
    # An organiser: creating events reaches the service (and its checks) too.
    director.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    rnd = make_round(event)
    match = match_at(rnd, 1)
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    token = table_token(round_=rnd, table=Table.objects.get(event=event, number=1), side=0)
    # The requests run in the test's transaction, as Django's test client runs them: the app
    # must not close the connection at the end of each request (PostgreSQL would lose the test).
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        with private_cache(settings):
            yield {
                "match_id": match.pk,
                "entry_id": match.entry_a_id,
                "player_id": match.entry_a.members.values_list("player_id", flat=True)[0],
                "slug": event.slug,
                "number": rnd.number,
                "table": f"Table {token}",
                "director": f"Token {create_api_token(user=director)[1]}",
            }
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.mark.parametrize(
    ("path", "method", "mode"), _operations(), ids=lambda v: getattr(v, "value", v)
)
def test_no_generated_request_makes_a_server_error(
    path: str, method: str, mode: GenerationMode, world: dict[str, Any]
) -> None:
    """Positive (valid by the schema) and negative (invalid) requests: never a 5xx; valid
    requests get answers that match the schema."""
    from spinner.wsgi import application

    api = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    operation = api[path][method]
    director = any(part in path for part in DIRECTOR_PATHS)
    calls: list[int] = []

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def check(case: Any) -> None:
        params = case.path_parameters or {}
        for name in ("match_id", "entry_id", "player_id", "slug", "number"):
            if name in params:
                params[name] = world[name]
        headers = dict(case.headers or {})
        headers["Authorization"] = world["director" if director else "table"]
        # Schemathesis's WSGI transport asks for gzip and then reads the body undecoded, as no
        # HTTP client would: ask for it plain (compression has its own tests: test_compression).
        headers["Accept-Encoding"] = "identity"
        case.headers = headers
        wanted = [checks.not_a_server_error, checks.content_type_conformance]
        if mode is GenerationMode.POSITIVE:
            wanted.append(checks.response_schema_conformance)
        response = case.call_and_validate(checks=wanted)
        calls.append(response.status_code)

    check()
    assert calls, "no request was made"
    assert max(calls) < 500


def test_the_schema_validates_without_warnings() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "spectacular",
            "--validate",
            "--fail-on-warn",
            "--file",
            "/dev/null",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Warning" not in result.stderr and "Error" not in result.stderr
