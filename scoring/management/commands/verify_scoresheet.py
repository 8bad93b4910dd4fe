"""``python manage.py verify_scoresheet PATH|-`` and ``--jsonl`` (shared/spec/scoresheet.md).

Exit codes: a single sheet exits 0 when valid and 1 when not; ``--jsonl`` exits 0 once every
line is answered. A usage or I/O error exits 2. Bad input never prints a traceback: it gets a
``format`` verdict.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand

from scoring.jsonl import stream
from scoring.verify import Fault, Verdict, decode, verify


class Command(BaseCommand):
    help = "Verify a fives-scoresheet/1 sheet (or one per line with --jsonl) and print the verdict."

    requires_system_checks: list[str] = []

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("path", help="the sheet's file, or - for standard input")
        parser.add_argument(
            "--jsonl",
            action="store_true",
            help='one sheet or {"id": ..., "sheet": ...} per line; one verdict line per line',
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["path"]
        try:
            valid = self._run(path, options["jsonl"])
        except OSError as exc:  # unreadable input, or nobody reads the answers (broken pipe)
            sys.stderr.write(f"verify_scoresheet: I/O error on {path}: {exc}\n")
            raise SystemExit(2) from None
        if not valid:
            raise SystemExit(1)

    def _run(self, path: str, jsonl: bool) -> bool:
        infile = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
        out = sys.stdout.buffer
        try:
            sys.stdout.flush()
            if jsonl:
                stream(infile, out)
                out.flush()
                return True
            data = infile.read()
        finally:
            if infile is not sys.stdin.buffer:
                infile.close()
        try:
            verdict = verify(decode(data))
        except (ValueError, RecursionError) as exc:
            verdict = Verdict([Fault("format", None, None, f"the sheet is not JSON ({exc})")])
        out.write(json.dumps(verdict.as_dict(), indent=2).encode() + b"\n")
        out.flush()
        return verdict.valid
