"""``manage.py verify_scoresheet``, run as a real process: exit codes, --jsonl, bad input."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import scoring.jsonl
from scoring.jsonl import stream

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data" / "conformance_sample.jsonl"
CASES = [json.loads(line) for line in DATA.read_text().splitlines()[:40]]


def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "manage.py", "verify_scoresheet", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=60,
    )


def test_single_sheet_exit_codes(tmp_path: Path) -> None:
    good = next(c for c in CASES if c["expect"]["valid"])
    bad = next(c for c in CASES if not c["expect"]["valid"])
    path = tmp_path / "good.json"
    path.write_text(json.dumps(good["sheet"]))
    out = run(str(path))
    assert out.returncode == 0, out.stderr
    verdict = json.loads(out.stdout)
    assert verdict["valid"] and verdict["scores"] == good["expect"]["scores"]
    out = run("-", stdin=json.dumps(bad["sheet"]).encode())
    assert out.returncode == 1
    assert json.loads(out.stdout)["errors"][0]["code"] == bad["expect"]["code"]
    out = run("-", stdin=b"\xff not json {")
    assert out.returncode == 1 and b"Traceback" not in out.stderr
    assert json.loads(out.stdout)["errors"][0]["code"] == "format"


def test_usage_and_io_errors_exit_2(tmp_path: Path) -> None:
    out = run(str(tmp_path / "missing.json"))
    assert out.returncode == 2 and b"Traceback" not in out.stderr
    out = run()
    assert out.returncode == 2 and b"Traceback" not in out.stderr


def test_jsonl_answers_every_line_in_order() -> None:
    lines = [
        json.dumps({"id": "a", "sheet": CASES[0]["sheet"]}),
        "",
        "not json",
        json.dumps(CASES[1]["sheet"]),
        json.dumps({"id": 7, "sheet": "nope"}),
        "NaN",
    ]
    out = run("--jsonl", "-", stdin=("\n".join(lines) + "\n").encode())
    assert out.returncode == 0, out.stderr
    answers = [json.loads(x) for x in out.stdout.splitlines()]
    assert [a["id"] for a in answers] == ["a", 3, 4, 7, 6]
    assert answers[0]["verdict"]["valid"] and answers[2]["verdict"]["valid"]
    assert answers[1]["verdict"]["errors"][0]["code"] == "format"
    assert answers[3]["verdict"]["errors"][0]["code"] == "format"
    assert answers[4]["verdict"]["errors"][0]["code"] == "format"


def test_jsonl_agrees_with_the_conformance_expectations() -> None:
    feed = "".join(json.dumps({"id": c["id"], "sheet": c["sheet"]}) + "\n" for c in CASES)
    out = run("--jsonl", "-", stdin=feed.encode())
    got = {a["id"]: a["verdict"] for a in map(json.loads, out.stdout.splitlines())}
    for c in CASES:
        v = got[c["id"]]
        assert v["valid"] == c["expect"]["valid"], c["id"]
        if not v["valid"]:
            assert v["errors"][0]["code"] == c["expect"]["code"], c["id"]


def test_an_over_long_line_is_answered_without_holding_it(monkeypatch: pytest.MonkeyPatch) -> None:
    sheet = json.dumps(CASES[0]["sheet"]).encode()
    monkeypatch.setattr(scoring.jsonl, "MAX_LINE", len(sheet) + 1)
    src = io.BytesIO(b"[" + b"1," * (3 * len(sheet)) + b"1]\n" + sheet + b"\n")
    dst = io.BytesIO()
    assert stream(src, dst) == 2
    first, second = (json.loads(x) for x in dst.getvalue().splitlines())
    assert first["id"] == 1 and first["verdict"]["errors"][0]["code"] == "format"
    assert second["id"] == 2 and second["verdict"]["valid"]
