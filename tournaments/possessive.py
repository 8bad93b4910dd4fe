"""English possessives of names: "Ann's page" but "The Closers' page" (not "The Closers's").

The sentence for a name ending in s is a message of its own (``gettext`` cannot bend a name),
so a language without the possessive translates both the same way ("Página de ...").

>>> ends_in_s("The Closers"), ends_in_s("Hard Knock"), ends_in_s("ACES ")
(True, False, True)
"""

from __future__ import annotations


def ends_in_s(name: str) -> bool:
    """True when ``name`` ends in s (case and trailing spaces aside)."""
    return name.rstrip().lower().endswith("s")
