"""JSON written by orjson where a table's write writes much of it, the standard library's values.

A confirmation's answer carries the match with both claims and the result, each with its sheet:
about 80 KB of JSON, written twice (the answer for its idempotency key, then the response), and
the sheets and verdicts once more into their columns. The standard library's encoder took about
3 ms of a confirmation's 25 ms of CPU for that; orjson takes a tenth of it. Two places use it:

- ``FastJSONEncoder``: the ``encoder`` of the JSON columns a write fills (Django calls
  ``json.dumps(value, cls=FastJSONEncoder)``). The text is compact and UTF-8 where the standard
  library's is spaced and ASCII-escaped; both are read back to the same value (PostgreSQL keeps
  ``jsonb``, SQLite the text).
- ``tournaments.api.renderers.FastJSONRenderer``: the API's JSON renderer. The same bytes as
  DRF's ``JSONRenderer`` with its default settings (compact, UTF-8, ``\\u2028`` and
  ``\\u2029`` escaped, times as DRF writes them), but for a float's exponent, spelled ``1e-7``
  where Python writes ``1e-07`` (the same number); an indented answer (``Accept:
  application/json; indent=4``) is DRF's own.

Whatever orjson does not take (an integer beyond 64 bits, nesting beyond 254 levels) falls back to
the standard library, which then answers as it always did. One difference is left: a float NaN
or infinity, which the standard library writes as ``NaN`` (not JSON: PostgreSQL refuses it) and
DRF refuses, orjson writes as ``null``; no value Spinner stores or answers is one.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
)
"""Keys as the standard library writes them (``1`` as ``"1"``); a dataclass and a time go to the
encoder's ``default``, as in the standard library (which refuses both unless the encoder knows
them, as DRF's and Django's encoders know times)."""


class FastJSONEncoder(json.JSONEncoder):
    """``json.JSONEncoder`` whose ``encode`` is orjson's (a JSON column's ``encoder``)."""

    def encode(self, o: Any) -> str:
        try:
            return orjson.dumps(o, default=self.default, option=OPTIONS).decode()
        except TypeError:  # orjson.JSONEncodeError too: the standard library's answer
            return super().encode(o)
