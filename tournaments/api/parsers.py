"""The API's JSON parser: a body no one meant is a 400 ``parse_error``, never a crash.

DRF's ``JSONParser`` turns a ``ValueError`` into ``ParseError`` but lets ``RecursionError``
escape: ``[[[[...`` ten thousand deep is a 500. A document a little shallower than Python's
recursion limit parses, and then crashes whatever walks it recursively next (DRF's
``JSONField`` re-encodes it, the idempotency digest encodes the whole body). So this parser
refuses both: a ``RecursionError`` while decoding, and any document nested deeper than
``MAX_DEPTH`` (checked without recursion). A scoresheet is about six levels deep.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser

from tournaments.csv_safety import decode_csv
from tournaments.text_safety import MAX_DEPTH, TOO_DEEP, json_depth_exceeds


class SafeJSONParser(JSONParser):
    """``JSONParser`` that answers ``ParseError`` (400) for any body it cannot take safely."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(TOO_DEEP) from exc
        except ValueError as exc:  # DRF catches most; a decoder's stray one stays a 400 too
            raise ParseError(f"JSON parse error - {exc}") from exc
        if json_depth_exceeds(data, MAX_DEPTH):
            raise ParseError(TOO_DEEP)
        return data


class CsvTextParser(BaseParser):
    """A CSV body (``text/csv``, or ``text/plain`` pasted text) as one string, decoded as the
    director's import page decodes an uploaded file (``csv_safety.decode_csv``)."""

    media_type = "text/csv"

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        raw = stream.read() if stream is not None else b""
        return decode_csv(raw)


class PlainTextCsvParser(CsvTextParser):
    media_type = "text/plain"
