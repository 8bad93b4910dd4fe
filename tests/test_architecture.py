"""The engine stays pure Python: importing it never drags in Django, DRF or Celery."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import scoring

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {"scoring.apps"}


def engine_modules() -> list[str]:
    names = ["scoring"]
    for info in pkgutil.walk_packages(scoring.__path__, prefix="scoring."):
        if info.name in ALLOWED or info.name.startswith("scoring.management"):
            continue
        names.append(info.name)
    return names


def test_engine_imports_no_framework_in_a_fresh_interpreter() -> None:
    modules = engine_modules()
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "leaked = sorted(m for m in ('django', 'rest_framework', 'celery') if m in sys.modules)\n"
        "print(','.join(leaked))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "", f"the engine imported {out.stdout.strip()}"
    assert "scoring" in modules
