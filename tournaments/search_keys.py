"""Search keys: a name folded so that search ignores accents, case and spacing, the same way on
SQLite and PostgreSQL ("Ramírez" and "RAMIREZ" are both ``ramirez``). The players service keeps
``Player.name_key`` with :func:`name_key`; a search folds its query the same way.
"""

from __future__ import annotations

import unicodedata


def name_key(text: str) -> str:
    """``text`` without accents, case-folded, its spaces collapsed.

    >>> name_key("  José  RAMÍREZ ")
    'jose ramirez'
    >>> name_key("Þórunn Ødegård")
    'þorunn ødegard'
    """
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.casefold().split())
