"""The engine stays pure Python: importing it never drags in Django, DRF or Celery."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import scoring
from tests import import_graph

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


# --- The Django side's direction -------------------------------------------------------------
# urls -> views/api -> presenters -> tasks -> services -> selectors -> models and pure packages.

LAYERS = {
    "tournaments": 0,  # models, errors, game, permissions, pure helpers: the floor
    "tournaments.selectors": 1,
    "tournaments.services": 2,
    "tournaments.tasks": 3,
    "tournaments.presenters": 4,
    "tournaments.templatetags": 5,
    "tournaments.views": 5,
    "tournaments.api": 5,
    "tournaments.admin": 5,
    "tournaments.management": 6,
    "tournaments.urls": 6,
}
PURE = ("tournaments.pairing", "tournaments.standings", "tournaments.rating")
INSIDE_ALLOWED = {
    # A Celery task module is imported by the worker at start-up, before the app registry is
    # ready in some entry points; tasks import their service when they run.
    "tournaments.tasks": "tasks import the service they call when they run",
    # Management commands import what they need when they run, to start fast for --help.
    "tournaments.management": "commands import what they run when they run",
}


def test_the_house_has_no_cycle_and_no_wrong_way_import() -> None:
    found = import_graph.problems(
        ROOT / "tournaments", layers=LAYERS, pure=PURE, inside_allowed=INSIDE_ALLOWED
    )
    assert found == []


def _plant(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "tournaments"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in path.relative_to(root).parents:
            (root / parent / "__init__.py").touch()
        path.write_text(text)
    return root


def test_a_planted_cycle_fails(tmp_path: Path) -> None:
    root = _plant(
        tmp_path,
        {
            "services/a.py": "from tournaments.services import b\n",
            "services/b.py": "def f():\n    from tournaments.services.a import x\n",
        },
    )
    found = import_graph.problems(root, layers=LAYERS, pure=PURE, inside_allowed=INSIDE_ALLOWED)
    assert "import cycle: tournaments.services.a -> tournaments.services.b" in found
    assert any(p.startswith("import inside a function with no reason") for p in found)


def test_a_selector_importing_a_service_fails(tmp_path: Path) -> None:
    root = _plant(
        tmp_path,
        {
            "selectors/boards.py": "from tournaments.services.claims import state_of\n",
            "services/claims.py": "state_of = None\n",
        },
    )
    found = import_graph.problems(root, layers=LAYERS, pure=PURE, inside_allowed=INSIDE_ALLOWED)
    assert found == [
        "wrong-way import: tournaments.selectors.boards (line 1) imports "
        "tournaments.services.claims"
    ]


def test_a_pure_package_reaching_into_the_app_fails(tmp_path: Path) -> None:
    root = _plant(
        tmp_path,
        {"standings/compute.py": "import tournaments.models\n", "models.py": ""},
    )
    found = import_graph.problems(root, layers=LAYERS, pure=PURE, inside_allowed=INSIDE_ALLOWED)
    assert found == [
        "pure package reaches out: tournaments.standings.compute (line 1) imports "
        "tournaments.models"
    ]
