"""The operators' endpoints and signals: /healthz, /readyz (django-health-check over the real
database, Redis and the workers' heartbeat), /metrics (Prometheus), request ids in JSON logs,
and Sentry reports with credentials redacted (to a local receiver standing in for Sentry)."""

from __future__ import annotations

import gzip
import io
import json
import logging
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import brotli
import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import free_port, poll
from tests.tournaments import ratings_support as rs
from tournaments.log_redaction import RedactTokensFilter
from tournaments.request_log import JsonFormatter, RequestIdFilter
from tournaments.services import heartbeat

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_healthz_answers_without_asking_anything(django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(0):
        response = Client().get("/healthz")
    assert response.status_code == 200
    assert response["Cache-Control"].startswith("max-age=0")


def _ready(client: Client) -> tuple[int, dict[str, Any]]:
    response = client.get(reverse("ops:readyz"), HTTP_ACCEPT="application/json")
    return response.status_code, json.loads(response.content)


# /readyz runs its checks in threads (django-health-check), each on its own connection: the
# tests commit what the checks must see.
@pytest.mark.django_db(transaction=True, databases="__all__")
def test_readyz_checks_the_database_and_with_a_broker_the_workers_heartbeat(
    settings: Any,
) -> None:
    settings.REDIS_URL = ""
    settings.CELERY_TASK_ALWAYS_EAGER = True  # no broker: no worker to wait for
    status, body = _ready(Client())
    assert status == 200, body
    assert any(name.startswith("Database") for name in body)
    settings.CELERY_TASK_ALWAYS_EAGER = False  # a broker: a worker must be beating
    status, body = _ready(Client())
    assert status == 503
    assert "no worker has reported" in json.dumps(body)
    heartbeat.record_heartbeat(worker="celery@test")
    status, body = _ready(Client())
    assert status == 200, body
    assert any(name.startswith("WorkerHeartbeat") for name in body)


@pytest.mark.django_db(transaction=True, databases="__all__")
def test_readyz_pings_redis_and_fails_when_it_does_not_answer(
    settings: Any, redis_url: str
) -> None:
    settings.REDIS_URL = redis_url
    settings.CELERY_TASK_ALWAYS_EAGER = True
    status, body = _ready(Client())
    assert status == 200, body
    assert any(name.startswith("Redis") for name in body)
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nobody listens there
    status, body = _ready(Client())
    assert status == 503
    assert any(name.startswith("Redis") and value != "OK" for name, value in body.items())


def test_a_request_id_is_kept_from_the_proxy_or_made_and_returned() -> None:
    client = Client()
    mine = client.get("/healthz", HTTP_X_REQUEST_ID="lb-1234.abc")
    assert mine["X-Request-ID"] == "lb-1234.abc"
    made = client.get("/healthz", HTTP_X_REQUEST_ID="bad id with spaces <script>")
    assert made["X-Request-ID"] != "bad id with spaces <script>"
    assert len(made["X-Request-ID"]) == 32
    assert client.get("/healthz")["X-Request-ID"] != made["X-Request-ID"]


@pytest.mark.django_db
def test_json_log_lines_carry_the_request_id_and_no_credential() -> None:
    """The console handler as ``settings.LOGGING`` makes it in production: redaction, the
    request id, one JSON object per line."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactTokensFilter())
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        response = Client().get("/t/ABCDEFGH.secret-token/", HTTP_X_REQUEST_ID="req-42")
    finally:
        logger.removeHandler(handler)
    assert response.status_code in (401, 403, 404, 410)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert lines, "the refused table link is logged"
    assert {line["request_id"] for line in lines} == {"req-42"}
    assert lines[-1]["level"] == "WARNING" and lines[-1]["logger"] == "django.request"
    assert "secret-token" not in stream.getvalue()
    outside = logging.LogRecord("tournaments", logging.INFO, __file__, 1, "beat", (), None)
    RequestIdFilter().filter(outside)
    assert json.loads(JsonFormatter().format(outside))["request_id"] == "-"


def _metric(text: str, name: str, **labels: str) -> float:
    total = 0.0
    for line in text.splitlines():
        if not line.startswith(name) or line.startswith("#"):
            continue
        head, _, value = line.rpartition(" ")
        if all(f'{k}="{v}"' in head for k, v in labels.items()):
            total += float(value)
    return total


@pytest.mark.django_db
def test_metrics_count_confirmed_results_and_show_the_standings_lag(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = Client()
    before = _metric(client.get("/metrics").content.decode(), "spinner_results_confirmed_total")
    event = rs.make_event("metrics")
    (match,) = rs.seat_round(event, 1, [(0, 1)])
    with django_capture_on_commit_callbacks(execute=True):
        rs.enter(match, rs.director(event), (100, 40))
    text = client.get("/metrics").content.decode()
    assert _metric(text, "spinner_results_confirmed_total") == before + 1
    assert "django_http_requests_total_by_method_total" in text
    assert "spinner_standings_recompute_lag_seconds" in text
    settings.SPINNER_METRICS_TOKEN = "s3cret"
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret").status_code == 200


class _SentryReceiver(BaseHTTPRequestHandler):
    """Stands in for Sentry's ingest: keeps every envelope it is sent."""

    received: list[bytes] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        elif (
            self.headers.get("Content-Encoding") == "br"
        ):  # sentry-sdk's choice when brotli is installed
            body = brotli.decompress(body)
        type(self).received.append(body)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: Any) -> None:
        pass


def test_sentry_reports_errors_with_credentials_redacted_when_a_dsn_is_set() -> None:
    port = free_port()
    server = ThreadingHTTPServer(("127.0.0.1", port), _SentryReceiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        script = (
            "import django, sentry_sdk; django.setup();"
            "assert sentry_sdk.get_client().is_active();"
            "sentry_sdk.capture_message('table /t/ABCDEFGH.secret-token/ failed "
            "with Authorization: Token 0123456789abcdef');"
            "sentry_sdk.flush(5)"
        )
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "spinner.settings",
            "SENTRY_DSN": f"http://publickey@127.0.0.1:{port}/1",
        }
        subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, timeout=60)
        poll(lambda: _SentryReceiver.received, timeout=10)
        sent = b"".join(_SentryReceiver.received).decode("utf-8", "replace")
        assert "table /t/[redacted]/ failed" in sent
        assert "secret-token" not in sent and "0123456789abcdef" not in sent
        without = {k: v for k, v in env.items() if k != "SENTRY_DSN"}
        inactive = (
            "import django, sentry_sdk; django.setup(); print(sentry_sdk.get_client().is_active())"
        )
        out = subprocess.run(
            [sys.executable, "-c", inactive],
            cwd=ROOT,
            env=without,
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.stdout.strip() == "False"
    finally:
        server.shutdown()
        server.server_close()
