"""CSV files a spreadsheet opens safely (OWASP's "CSV injection").

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula (and tab
or carriage return lead some of them to do the same): a team named ``=HYPERLINK(...)`` would
become a live link, or worse, in every director's copy of the standings. So:

- every CSV Spinner writes goes through ``writer`` (or ``neutralise``): such a cell is written
  with a leading single quote (``'=HYPERLINK(...)``), which spreadsheets show as text. Plain
  numbers (``-3``, ``-1.5``, ``-7/2``) are left as they are: they can run nothing, and standings
  carry negative differences;
- an imported CSV is checked by ``formula_warnings``: each line with such a cell gets a warning
  in the import's preview (the text is stored as typed, and neutralised on the way out).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.translation import gettext

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?(/\d+)?")


def looks_like_formula(value: str) -> bool:
    """True when a spreadsheet could take ``value`` for a formula.

    >>> looks_like_formula("=1+2"), looks_like_formula("@SUM(A1)"), looks_like_formula("Ann")
    (True, True, False)
    >>> looks_like_formula("-3"), looks_like_formula("-1/2")
    (False, False)
    """
    return value.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(value)


def neutralise(value: Any) -> Any:
    """``value`` as a cell that no spreadsheet runs (non-text values are left alone).

    >>> neutralise('=HYPERLINK("http://x","y")')
    '\\'=HYPERLINK("http://x","y")'
    >>> neutralise(-3), neutralise("-3"), neutralise("Ann")
    (-3, '-3', 'Ann')
    """
    if isinstance(value, str) and looks_like_formula(value):
        return "'" + value
    return value


class SafeWriter:
    """``csv.writer`` whose every cell goes through ``neutralise``."""

    def __init__(self, stream: Any, **kwargs: Any) -> None:
        self._writer = csv.writer(stream, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([neutralise(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(stream: Any, **kwargs: Any) -> SafeWriter:
    """The one way Spinner writes CSV (same arguments as ``csv.writer``)."""
    return SafeWriter(stream, **kwargs)


def formula_warnings(lines: Iterable[tuple[int, Sequence[str]]]) -> list[tuple[int, str]]:
    """``(line, message)`` for each imported line with a cell a spreadsheet could run."""
    warnings = []
    for line, cells in lines:
        suspects = [cell for cell in cells if looks_like_formula(cell)]
        if suspects:
            shown = ", ".join(repr(cell[:40]) for cell in suspects[:3])
            warnings.append(
                (
                    line,
                    gettext(
                        "%(cells)s starts like a spreadsheet formula. It is kept as typed; "
                        "exports write it as text. Check it is really a name."
                    )
                    % {"cells": shown},
                )
            )
    return warnings


def decode_csv(raw: bytes) -> str:
    """The text of a CSV file as a spreadsheet saves it: UTF-16 when it starts with a byte
    order mark (Excel's "Unicode text"), else UTF-8 (a BOM dropped), else Windows-1252
    (older Excel on Windows). Undecodable bytes become U+FFFD, never an error.

    >>> decode_csv("Ann,Sevilla".encode("utf-16")), decode_csv(b"\\xef\\xbb\\xbfAnn")
    ('Ann,Sevilla', 'Ann')
    >>> decode_csv("José".encode("cp1252"))
    'José'
    """
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16", errors="replace")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")
