"""Tokens never logged (issue 15): table links and API keys are redacted from Django's request,
server and security log lines and from gunicorn's access log; pages listing table links are
never stored by a cache (``Cache-Control: no-store``)."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.conftest import free_port, poll
from tests.tournaments.api_support import private_cache
from tests.tournaments.phone_factory import make_setup
from tournaments.log_redaction import REDACTED, redact
from tournaments.services.table_links import table_token

ROOT = Path(__file__).resolve().parents[2]
FAKE_TOKEN = "12.3.QmFkVG9rZW5Ob3RSZWFsX19fX19fX19fX19fX19fX19fX18"
API_KEY = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def django_log() -> Iterator[io.StringIO]:
    """What the configured handlers of Django's loggers write, captured."""
    stream = io.StringIO()
    handlers = {
        h
        for name in ("django", "django.request", "django.server", "django.security")
        for h in logging.getLogger(name).handlers
        if "LogCapture" not in type(h).__name__  # pytest's own, not the project's
    }
    assert handlers, "settings.LOGGING configures no handler"
    previous = {h: h.setStream(stream) for h in handlers if isinstance(h, logging.StreamHandler)}
    try:
        yield stream
    finally:
        for handler, old in previous.items():
            handler.setStream(old)


@pytest.mark.django_db
def test_djangos_request_lines_carry_no_table_token(django_log: io.StringIO, settings: Any) -> None:
    with private_cache(settings):
        setup = make_setup(f"log{uuid.uuid4().hex[:6]}")
        token = table_token(round_=setup.round, table=setup.matches[0].table, side=0)
        client = Client()
        assert client.get(f"/t/{token}/position").status_code == 405  # a warning line
        assert client.get(f"/t/{FAKE_TOKEN}/").status_code in (401, 403, 404)
        assert client.get("/api/table/", HTTP_AUTHORIZATION=f"Token {API_KEY}").status_code == 401
        logging.getLogger("django.security.csrf").warning("Forbidden: /t/%s/", token)
        logging.getLogger("django.server").info('"GET /t/%s/ HTTP/1.1" 200 10', token)
    text = django_log.getvalue()
    assert "/t/[redacted]/" in text  # the lines are there, without the token
    assert token not in text and FAKE_TOKEN not in text
    assert token.rsplit(".", 1)[1] not in text  # not even its mac


def test_redaction_covers_headers_and_exceptions() -> None:
    record = logging.LogRecord(
        "django.request", logging.ERROR, __file__, 1, "Error on %s", (f"/t/{FAKE_TOKEN}/",), None
    )
    try:
        raise ValueError(f"Authorization: Table {FAKE_TOKEN} and Token {API_KEY}")
    except ValueError:
        record.exc_info = sys.exc_info()
    from tournaments.log_redaction import RedactTokensFilter

    assert RedactTokensFilter().filter(record)
    line = logging.Formatter("%(message)s").format(record)
    assert FAKE_TOKEN not in line and API_KEY not in line
    assert f"Table {REDACTED}" in line and f"Token {REDACTED}" in line
    assert redact("/t/sw.js") == "/t/sw.js"


def test_gunicorns_access_log_carries_no_token(tmp_path: Path) -> None:
    """The real gunicorn, reading the repository's gunicorn.conf.py as it does in production."""
    port = free_port()
    access = tmp_path / "access.log"
    errors = tmp_path / "error.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "spinner.settings",
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "spinner.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "1",
            "--access-logfile",
            str(access),
            "--error-logfile",
            str(errors),
            "--access-logformat",
            '%(h)s "%(r)s" %(s)s "%(f)s" "%({authorization}i)s" %(U)s %(q)s',
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:

        def get(path: str, **headers: str) -> int:
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    return int(response.status)
            except urllib.error.HTTPError as exc:
                return exc.code
            except OSError:
                return 0

        poll(lambda: get("/t/sw.js") == 200, timeout=30)
        assert get(f"/t/{FAKE_TOKEN}/position?back=/t/{FAKE_TOKEN}/") == 405
        get(
            "/t/sw.js",
            Authorization=f"Table {FAKE_TOKEN}",
            Referer=f"http://127.0.0.1/t/{FAKE_TOKEN}/",
        )
        get("/t/sw.js", Authorization=f"Token {API_KEY}")
        poll(lambda: access.exists() and access.read_text().count("\n") >= 4, timeout=10)
    finally:
        server.terminate()
        server.wait(timeout=10)
    logged = access.read_text() + errors.read_text()
    assert "/t/[redacted]/position" in logged
    assert FAKE_TOKEN not in logged and API_KEY not in logged


# --- no-store on pages carrying table links -------------------------------------------------


@pytest.mark.django_db
def test_pages_with_table_links_are_never_stored(settings: Any) -> None:
    with private_cache(settings):
        setup = make_setup(f"ns{uuid.uuid4().hex[:6]}")
        director = Client()
        director.force_login(setup.director)
        base = f"/director/events/{setup.event.slug}/rounds/1"
        pages = {
            "cards": director.get(f"{base}/cards/"),
            "board": director.get(f"{base}/results/"),
            "board fragment": director.get(f"{base}/results/", HTTP_HX_REQUEST="true"),
            "phone": Client().get(setup.path()),
            "phone status": Client().get(setup.path() + "status"),
        }
    for name, response in pages.items():
        assert response.status_code == 200, name
        assert "no-store" in response.get("Cache-Control", ""), name
    assert (
        table_token(round_=setup.round, table=setup.matches[0].table, side=0)
        in pages["cards"].content.decode()
        or "/t/" in pages["cards"].content.decode()
    )
