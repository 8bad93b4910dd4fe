"""The shared conformance sample, copied into tests/scoring/data so that a clone stands alone.

Every case must agree with its ``expect`` exactly as ``shared/conformance/check.py`` compares:
validity; for valid sheets the scores and winner; for invalid ones the first fault's code and,
except for ``format`` and ``result``, its hand and move.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from scoring import verify

DATA = Path(__file__).parent / "data" / "conformance_sample.jsonl"
CASES = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


def agrees(expect: dict[str, Any], verdict: dict[str, Any]) -> bool:
    if bool(verdict.get("valid")) != expect["valid"]:
        return False
    if expect["valid"]:
        return verdict["scores"] == expect["scores"] and verdict["winner"] == expect["winner"]
    err = (verdict.get("errors") or [{}])[0]
    if err.get("code") != expect["code"]:
        return False
    if expect["code"] in ("format", "result"):
        return True
    return err.get("hand") == expect["hand"] and err.get("move") == expect["move"]


def test_the_sample_holds_every_fault_code() -> None:
    kinds = {c["expect"]["code"] if not c["expect"]["valid"] else "valid" for c in CASES}
    assert kinds == {
        "valid", "format", "tile", "turn", "draw", "placement", "score", "end", "settlement",
        "result",
    }  # fmt: skip
    assert len(CASES) == 317


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_conformance_case(case: dict[str, Any]) -> None:
    verdict = verify(case["sheet"]).as_dict()
    assert agrees(case["expect"], verdict), json.dumps(verdict)[:600]
    assert set(verdict) == {"valid", "errors", "scores", "winner", "finished"}
    for err in verdict["errors"]:
        assert set(err) == {"code", "hand", "move", "message"} and err["message"]
