"""The pairing package stays pure Python: no Django, DRF or Celery, even indirectly."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import tournaments.pairing

ROOT = Path(__file__).resolve().parents[3]


def test_pairing_imports_no_framework_in_a_fresh_interpreter() -> None:
    modules = ["tournaments.pairing"] + [
        info.name
        for info in pkgutil.walk_packages(
            tournaments.pairing.__path__, prefix="tournaments.pairing."
        )
    ]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "leaked = sorted(m for m in ('django', 'rest_framework', 'celery') if m in sys.modules)\n"
        "print(','.join(leaked))\n"
    )
    env = {"PATH": "/usr/bin:/bin"}  # no DJANGO_SETTINGS_MODULE
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.strip() == "", f"the pairing package imported {out.stdout.strip()}"
    assert "tournaments.pairing.swiss" in modules


def test_doctests_pass() -> None:
    import doctest

    from tournaments.pairing import (
        best_of,
        brackets,
        draw,
        progression,
        ranking,
        round_robin,
    )

    for module in (best_of, brackets, draw, progression, ranking, round_robin):
        result = doctest.testmod(module)
        assert result.attempted > 0, module.__name__
        assert result.failed == 0, module.__name__
