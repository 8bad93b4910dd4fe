"""The supervision files: every production process is restarted whenever it stops, and the
systemd units and the Procfile run the same processes as docs/deploy.md describes."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

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


def test_the_guide_covers_supervision_and_leaves_the_sizing_table_to_issue_17() -> None:
    guide = (ROOT / "docs" / "deploy.md").read_text()
    for needle in ["deploy/systemd/", "Procfile", "Restart=always", "## Sizing table"]:
        assert needle in guide
