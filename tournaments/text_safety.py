"""Text no database stores: NUL characters and lone UTF-16 surrogates.

PostgreSQL refuses both (a NUL in a text value, a surrogate in UTF-8 text): reaching the
database with either is a 500. JSON can carry both (``"\\u0000"``, ``"\\ud800"``), and a NUL can
arrive in a path, a query string or a form field. ``find_unstorable`` finds the first such
string in parsed JSON (keys included), without recursion and refusing documents deeper than
the API's limit; ``tournaments.middleware`` answers 400 before any view runs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

MAX_DEPTH = 64
"""The deepest JSON any endpoint takes (a scoresheet is about six levels deep)."""
TOO_DEEP = f"The JSON body is nested too deeply (at most {MAX_DEPTH} levels)."

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def is_unstorable(text: str) -> bool:
    """True when ``text`` holds a NUL or a lone surrogate.

    >>> is_unstorable("ok"), is_unstorable("a\\x00b"), is_unstorable("\\ud800")
    (False, True, True)
    >>> is_unstorable("\\U0001f600")  # a real emoji (a pair in JSON) is fine
    False
    """
    return _UNSTORABLE.search(text) is not None


def any_unstorable(texts: Iterable[str]) -> bool:
    return any(is_unstorable(text) for text in texts)


_SCALARS = frozenset({str, int, float, bool, type(None)})
"""The types of parsed JSON's leaves (told apart by exact type, before any ABC check)."""


def json_depth_exceeds(value: Any, limit: int) -> bool:
    """True when ``value`` (parsed JSON) has containers nested more than ``limit`` deep.

    Iterative (level by level): safe on any depth.
    """
    level: list[Any] = [value]
    depth = 0
    while level:
        below: list[Any] = []
        for item in level:
            kind = type(item)
            if kind in _SCALARS:
                continue
            if kind is dict or (kind is not list and isinstance(item, Mapping)):
                children: Any = item.values()
            elif isinstance(item, list):
                children = item
            else:
                continue
            if depth >= limit:
                return True
            below.extend(children)
        level = below
        depth += 1
    return False


def may_hold_unstorable(body: bytes) -> bool:
    """False when no string parsed from the JSON ``body`` can hold a NUL or a lone surrogate.

    Such a string needs an escape (``\\u0000``, ``\\ud800``: strict JSON refuses a raw control
    character), a surrogate's UTF-8 bytes (``0xED``, which ``json.loads`` lets through), or
    another encoding than UTF-8 (UTF-16 and UTF-32 text holds NUL bytes). A body with none of
    the three needs no walk for them (``find_unstorable``); its depth is still to be checked.

    >>> may_hold_unstorable(b'{"a": "b"}'), may_hold_unstorable(b'{"a": "\\u0000"}')
    (False, True)
    """
    return b"\\u" in body or b"\xed" in body or b"\x00" in body


class TooDeep(ValueError):
    """The JSON document nests containers deeper than ``MAX_DEPTH``."""


def find_unstorable(value: Any, *, limit: int = MAX_DEPTH) -> str | None:
    """The path (``$.sheet.hands[0]``) of the first unstorable string in parsed JSON, or None.

    Raises ``TooDeep`` beyond ``limit`` levels. Iterative: safe on any depth.
    """
    stack: list[tuple[Any, int, str]] = [(value, 0, "$")]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, str):
            if is_unstorable(item):
                return where
            continue
        if isinstance(item, Mapping):
            if depth >= limit:
                raise TooDeep(where)
            for key, child in item.items():
                if isinstance(key, str) and is_unstorable(key):
                    return f"{where} (a key)"
                stack.append((child, depth + 1, f"{where}.{key}"))
        elif isinstance(item, list):
            if depth >= limit:
                raise TooDeep(where)
            stack.extend((child, depth + 1, f"{where}[{i}]") for i, child in enumerate(item))
    return None
