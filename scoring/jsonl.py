"""The ``--jsonl`` protocol of ``verify_scoresheet``, without Django.

Every input line is a sheet or ``{"id": ..., "sheet": {...}}``; every answer line is
``{"id": ..., "verdict": {...}}``, in order. A bare sheet, or a line that is not JSON, gets its
1-based line number as ``id``; blank lines are skipped. Lines are read one at a time, and a line
longer than :data:`MAX_LINE` bytes is answered with a ``format`` verdict without being held in
memory, so memory stays constant whatever the input's size.
"""

from __future__ import annotations

import json
from typing import IO, Any, Final

from scoring.verify import Fault, Verdict, decode, verify

__all__ = ["MAX_LINE", "answer", "decode", "stream"]

MAX_LINE: Final = 16 * 1024 * 1024
"""The longest line read (16 MiB); a real sheet is a few tens of kilobytes."""


def _format(message: str) -> Verdict:
    return Verdict([Fault("format", None, None, message)])


def answer(line: bytes, lineno: int) -> bytes:
    """The answer line (with its newline) to one non-blank input line.

    >>> answer(b'{"id": "x", "sheet": []}', 1)[:40]
    b'{"id": "x", "verdict": {"valid": false, '
    >>> answer(b"oops", 7)[:9]
    b'{"id": 7,'
    """
    ident: Any = lineno
    try:
        value = decode(line)
    except (ValueError, RecursionError) as exc:
        verdict = _format(f"line {lineno} is not JSON ({exc})")
    else:
        if isinstance(value, dict) and "sheet" in value and set(value) <= {"id", "sheet"}:
            ident = value.get("id", lineno)
            value = value["sheet"]
        verdict = verify(value)
    try:
        out = json.dumps({"id": ident, "verdict": verdict.as_dict()}, allow_nan=False)
    except (ValueError, RecursionError):  # an id that cannot be written back
        out = json.dumps({"id": lineno, "verdict": _format("the id cannot be echoed").as_dict()})
    return out.encode() + b"\n"


def stream(infile: IO[bytes], outfile: IO[bytes], *, flush: bool = True) -> int:
    """Answer every line of ``infile`` on ``outfile``; return how many lines were answered."""
    lineno = 0
    answered = 0
    readline = infile.readline
    write = outfile.write
    while True:
        line = readline(MAX_LINE + 1)
        if not line:
            break
        lineno += 1
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            # Skip the rest of the over-long line chunk by chunk.
            while True:
                rest = readline(MAX_LINE)
                if not rest or rest.endswith(b"\n"):
                    break
            verdict = _format(f"line {lineno} is longer than {MAX_LINE} bytes")
            write(json.dumps({"id": lineno, "verdict": verdict.as_dict()}).encode() + b"\n")
        elif line.strip():
            write(answer(line, lineno))
        else:
            continue
        answered += 1
        if flush:
            outfile.flush()
    return answered
