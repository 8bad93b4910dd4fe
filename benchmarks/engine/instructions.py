"""Instructions per move of ``scoring.verify`` at two git revisions: a load-proof comparison.

The machine is shared, so timings wander; ``valgrind --tool=callgrind`` counts instructions, the
same for the same program and input whatever else runs. For each revision this script extracts
``scoring/`` and this folder (``git archive``), builds the benchmark corpus (``bench.corpus``), and
runs callgrind twice: once building the corpus only, once building it and verifying every sheet
``--passes`` times. The difference over the moves verified is the figure: instructions a move.

Usage, from the project's root (valgrind from Debian's package):
    .venv/bin/python benchmarks/engine/instructions.py BASE_REV HEAD_REV [--hands 1500]

It answered the question "may ``_Replay.move_hand``'s per-move loop be split into methods?":
``instructions.py f913f47 ddd45c4`` (the loop whole, then split into ``_HandPlay`` methods).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = """
import gc, sys
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + "/benchmarks/engine")
import bench
from scoring import verify
sheets = bench.corpus(int(sys.argv[2]))
gc.freeze()
for _ in range(int(sys.argv[3])):
    for s in sheets:
        verify(s)
print(bench.count(sheets)[1])
"""


def extract(rev: str, into: Path) -> None:
    archive = subprocess.run(
        ["git", "archive", rev, "scoring", "benchmarks/engine"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def instructions(tree: Path, hands: int, passes: int) -> tuple[int, int]:
    """(instructions, moves in the corpus) of one run under callgrind."""
    out = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            PROGRAM,
            str(tree),
            str(hands),
            str(passes),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    collected = re.search(r"Collected : (\d+)", out.stderr)
    assert collected is not None, out.stderr
    return int(collected.group(1)), int(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("revisions", nargs=2)
    parser.add_argument("--hands", type=int, default=1500)
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()
    per_move: list[float] = []
    for rev in args.revisions:
        with tempfile.TemporaryDirectory() as tmp:
            extract(rev, Path(tmp))
            base, moves = instructions(Path(tmp), args.hands, 0)
            total, _ = instructions(Path(tmp), args.hands, args.passes)
        per_move.append((total - base) / (moves * args.passes))
        print(f"{rev}: {per_move[-1]:,.0f} instructions a move ({moves} moves x {args.passes})")
    print(f"ratio {args.revisions[1]} / {args.revisions[0]}: {per_move[1] / per_move[0]:.3f}")


if __name__ == "__main__":
    main()
