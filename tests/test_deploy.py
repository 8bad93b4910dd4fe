"""The supervision files: every production process is restarted whenever it stops, and the
systemd units and the Procfile run the same processes as docs/deploy.md describes."""

from __future__ import annotations

import configparser
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

UNITS = sorted((ROOT / "deploy" / "systemd").glob("*.service"))


def unit(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(path)
    return parser


def test_there_is_a_unit_for_each_process() -> None:
    assert [p.name for p in UNITS] == [
        "spinner-beat.service",
        "spinner-web-tables.service",
        "spinner-web.service",
        "spinner-worker.service",
    ]


@pytest.mark.parametrize("path", UNITS, ids=lambda p: p.name)
def test_each_unit_restarts_for_ever(path: Path) -> None:
    service = unit(path)["Service"]
    assert service["Restart"] == "always"
    assert service["StartLimitIntervalSec"] == "0"
    assert float(service["RestartSec"]) <= 5
    assert unit(path)["Install"]["WantedBy"] == "multi-user.target"


def test_the_procfile_runs_the_same_processes() -> None:
    procfile = dict(
        line.split(": ", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line
    )
    assert set(procfile) == {"web", "worker", "beat", "release"}
    for name, expect in [
        ("web", "gunicorn spinner.wsgi"),
        ("worker", "celery -A spinner worker"),
        ("beat", "celery -A spinner beat"),
    ]:
        assert procfile[name].startswith(expect)
        execstart = unit(ROOT / "deploy" / "systemd" / f"spinner-{name}.service")["Service"][
            "ExecStart"
        ]
        assert re.search(re.escape(expect), execstart)


def test_the_guide_covers_supervision_the_web_server_and_sizing() -> None:
    guide = (ROOT / "docs" / "deploy.md").read_text()
    for needle in [
        "deploy/systemd/",
        "Procfile",
        "Restart=always",
        "gunicorn.conf.py",
        "max_connections",
        "## Sizing table",
        "| room | players / spectators polling | web | Celery | PostgreSQL | Redis |",
    ]:
        assert needle in guide
    assert "To be filled in" not in guide


def _gunicorn_settings() -> dict[str, Any]:
    """The names gunicorn.conf.py sets (lower-case, as gunicorn reads them)."""
    import runpy
    import types

    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    return {
        name: value
        for name, value in conf.items()
        if name.islower() and not name.startswith("_") and not isinstance(value, types.ModuleType)
    }


def test_gunicorn_conf_sets_only_settings_gunicorn_knows_and_accepts_them() -> None:
    """A misspelt setting (``keep_alive``) would be ignored silently: every name is one of
    gunicorn's, and gunicorn's own validators accept each value."""
    from gunicorn.config import Config

    config = Config()
    settings = _gunicorn_settings()
    unknown = sorted(set(settings) - set(config.settings))
    assert not unknown, f"gunicorn.conf.py sets names gunicorn does not know: {unknown}"
    for name, value in settings.items():
        config.set(name, value)  # raises on a value gunicorn would refuse


def test_gunicorn_runs_threads_recycles_workers_and_stops_within_systemds_timeout() -> None:
    settings = _gunicorn_settings()
    assert settings["worker_class"] == "gthread"
    assert int(settings["threads"]) > 1
    assert int(settings["max_requests"]) > 0 < int(settings["max_requests_jitter"])
    stop = float(
        unit(ROOT / "deploy" / "systemd" / "spinner-web.service")["Service"]["TimeoutStopSec"]
    )
    assert float(settings["graceful_timeout"]) < stop


def test_the_web_unit_and_the_procfile_read_gunicorn_conf() -> None:
    web = unit(ROOT / "deploy" / "systemd" / "spinner-web.service")["Service"]
    assert "--config /srv/spinner/gunicorn.conf.py" in web["ExecStart"]
    assert web["KillMode"] == "mixed"  # SIGTERM to the master: workers finish their requests
    procfile = (ROOT / "Procfile").read_text()
    assert "web: gunicorn spinner.wsgi --config gunicorn.conf.py" in procfile
    assert "--workers" not in procfile and "--workers" not in web["ExecStart"]


# --- The balancer: the table flow on processes of its own (deploy/nginx/spinner.conf) -----------

NGINX = ROOT / "deploy" / "nginx" / "spinner.conf"


def _nginx_routes() -> tuple[dict[str, str], dict[str, str]]:
    """``({upstream: its server's address}, {location prefix: the upstream it passes to})``."""
    text = re.sub(r"#[^\n]*", "", NGINX.read_text())
    upstreams = {
        name: server
        for name, server in re.findall(r"upstream\s+(\w+)\s*\{\s*server\s+([\d.:]+);", text)
    }
    locations = dict(re.findall(r"location\s+(/\S*)\s*\{\s*proxy_pass\s+http://(\w+);", text))
    return upstreams, locations


def _routed(path: str, locations: dict[str, str]) -> str:
    """The upstream nginx picks for ``path``: the longest matching prefix location."""
    return locations[max((p for p in locations if path.startswith(p)), key=len)]


def _bind(name: str) -> str:
    execstart = unit(ROOT / "deploy" / "systemd" / name)["Service"]["ExecStart"]
    found = re.search(r"--bind (\S+)", execstart)
    assert found, execstart
    return found.group(1)


def test_the_balancer_sends_every_table_request_to_the_tables_server_and_the_rest_to_the_web() -> (
    None
):
    from django.urls import reverse

    upstreams, locations = _nginx_routes()
    assert upstreams == {
        "spinner_public": _bind("spinner-web.service"),
        "spinner_tables": _bind("spinner-web-tables.service"),
    }
    token = "1.2.0." + "a" * 43  # a table link's shape: round.table.side.mac
    table = [
        reverse("table:page", kwargs={"token": token}),
        reverse("table:status", kwargs={"token": token}),
        reverse("table:position", kwargs={"token": token}),
        reverse("table:clock", kwargs={"token": token}),
        reverse("table:language", kwargs={"token": token}),
        reverse("table:sw"),
        reverse("api:table-match"),
        *(
            reverse(name, kwargs={"match_id": 7})
            for name in ("api:sheet-verify", "api:match-claims", "api:claim-confirm")
        ),
    ]
    public = [
        "/",
        reverse("public:standings", kwargs={"slug": "open"}),
        reverse("api:event-standings", kwargs={"slug": "open"}),
        "/static/spinner/phone.js",
        "/healthz",
    ]
    assert {path: _routed(path, locations) for path in table} == dict.fromkeys(
        table, "spinner_tables"
    )
    assert {path: _routed(path, locations) for path in public} == dict.fromkeys(
        public, "spinner_public"
    )


def test_the_tables_unit_is_the_web_unit_on_its_own_port_and_processes() -> None:
    web = unit(ROOT / "deploy" / "systemd" / "spinner-web.service")["Service"]
    tables = unit(ROOT / "deploy" / "systemd" / "spinner-web-tables.service")["Service"]
    assert tables["ExecStart"].replace(_bind("spinner-web-tables.service"), "PORT") == (
        web["ExecStart"].replace(_bind("spinner-web.service"), "PORT")
        + " --workers ${TABLES_CONCURRENCY}"
    )
    for key in ("KillMode", "TimeoutStopSec", "EnvironmentFile", "User", "ExecReload"):
        assert tables[key] == web[key]
