"""The outsider's audit in the suite (issue 31): ``benchmarks/audit/audit.py`` crawls every page of
the finished demo event that ``tests/tournaments/pages_support.py`` names (public and director,
light and dark, English and Spanish) in Debian's Chromium at 390x844 and runs axe-core (WCAG 2.2
A/AA and best practices) and the Nu HTML checker on them. Every page answers 200, none scrolls
sideways, axe finds nothing and the Nu checker finds no error (htmx's attributes are spelt
``data-hx-*``, which the checker accepts).

axe-core and vnu-jar come from the npm registry, pinned; ``.ci/run`` installs them in the folder
``SPINNER_AUDIT_NODE`` names. Several minutes on a quiet 2-core machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, missing

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NODE = Path(os.environ.get("SPINNER_AUDIT_NODE", ROOT / ".audit-node"))


def test_every_page_passes_axe_and_the_nu_checker(chromium_path: str, tmp_path: Path) -> None:
    for needed in ("axe-core/axe.min.js", "vnu-jar/build/dist/vnu.jar"):
        if not (NODE / "node_modules" / needed).is_file():
            missing(f"{needed} (npm install axe-core vnu-jar into SPINNER_AUDIT_NODE)")
    out = tmp_path / "audit.json"
    run = subprocess.run(
        [sys.executable, "benchmarks/audit/audit.py", "--node", str(NODE), "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    results = json.loads(out.read_text())
    assert len(results["axe"]) >= 4 * 20  # every page, in two themes and two languages
    answers = {key: r["status"] for key, r in results["axe"].items() if r["status"] != 200}
    assert not answers
    assert not [key for key, r in results["axe"].items() if r["scrolls_sideways"]]
    assert not {key: r["axe"] for key, r in results["axe"].items() if r["axe"]}
    assert not {page: found for page, found in results["nu"].items() if found}
