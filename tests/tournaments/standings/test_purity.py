"""The standings package is pure Python: importing it never drags in Django, DRF or Celery."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import tournaments.standings

ROOT = Path(__file__).resolve().parents[3]
MODULES = ["tournaments.standings"] + [
    info.name
    for info in pkgutil.walk_packages(
        tournaments.standings.__path__, prefix="tournaments.standings."
    )
]


def test_standings_import_no_framework_in_a_fresh_interpreter() -> None:
    code = (
        "import importlib, sys\n"
        f"for name in {MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "leaked = sorted(m for m in ('django', 'rest_framework', 'celery') if m in sys.modules)\n"
        "print(','.join(leaked))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "", f"tournaments.standings imported {out.stdout.strip()}"
    assert "tournaments.standings.compute" in MODULES


def test_doctests_of_every_module_pass() -> None:
    attempted = 0
    for name in MODULES:
        failed, tried = doctest.testmod(importlib.import_module(name), verbose=False)
        assert failed == 0, name
        attempted += tried
    assert attempted >= 10  # the public functions carry examples
