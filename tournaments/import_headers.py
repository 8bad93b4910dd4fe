"""Reading the header row of an entries CSV the way people write it.

A spreadsheet's header says "Player 1", "Name 1", "Jugador 1", "Club 1", "Rating 2", "Team
name", "Seed" (any case, spaces or underscores, accents or none) as often as Spinner's own
``player_a``. ``read_header`` maps each cell to the import column it names, so the preview can
say which header it read as what; a first line none of whose cells name a column is data.

>>> read_header(["Player 1", "CLUB 1", "rating_a", "Jugador 2"], ("player_a", "club_a",
...     "rating_a", "player_b", "club_b", "rating_b", "team", "seed"))
['player_a', 'club_a', 'rating_a', 'player_b']
>>> read_header(["Ann", "A", "1500", "Bob"], ("player_a", "club_a", "rating_a", "player_b",
...     "club_b", "rating_b", "team", "seed")) is None
True
>>> read_header(["Nombre", "Club", "Elo"], ("player", "club", "rating", "seed"))
['player', 'club', 'rating']
"""

from __future__ import annotations

import re
import unicodedata

# Words that name a column, folded (see ``fold``): Spinner's own names, English and Spanish.
_PLAYER_WORDS: tuple[str, ...] = (
    "player",
    "name",
    "playername",
    "fullname",
    "jugador",
    "nombre",
    "jugadora",
)
_CLUB_WORDS: tuple[str, ...] = ("club", "clubname", "club nombre")
_RATING_WORDS: tuple[str, ...] = ("rating", "elo", "grade", "puntuacion", "clasificacion", "nivel")
_TEAM_WORDS = ("team", "teamname", "partnership", "equipo", "pareja", "nombreequipo")
_SEED_WORDS = ("seed", "seeding", "cabezadeserie", "siembra", "semilla")
_SIDES = {"a": ("a", "1", "one", "uno"), "b": ("b", "2", "two", "dos")}


def fold(cell: str) -> str:
    """A header cell reduced to what it says: no accents, no case, no spaces or punctuation.

    >>> fold("  Puntuación_1 "), fold("Player-A"), fold("Team name")
    ('puntuacion1', 'playera', 'teamname')
    """
    text = unicodedata.normalize("NFKD", cell)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    return re.sub(r"[\s_\-.:#()/]+", "", text)


def _aliases(columns: tuple[str, ...]) -> dict[str, str]:
    """Every folded spelling of each column in ``columns``."""
    aliases = {fold(column): column for column in columns}
    groups = (("player", _PLAYER_WORDS), ("club", _CLUB_WORDS), ("rating", _RATING_WORDS))
    for base, words in groups:
        for word in words:
            word = fold(word)
            if base in columns:  # a head-to-head event: one player per entry
                aliases.setdefault(word, base)
                aliases.setdefault(word + "1", base)
            for side, spellings in _SIDES.items():
                if f"{base}_{side}" in columns:
                    for spelling in spellings:
                        aliases.setdefault(word + spelling, f"{base}_{side}")
    for column, words in (("team", _TEAM_WORDS), ("seed", _SEED_WORDS)):
        if column in columns:
            for word in words:
                aliases.setdefault(fold(word), column)
    if "player_b" in columns:
        aliases.setdefault("partner", "player_b")
    return aliases


def read_header(cells: list[str], columns: tuple[str, ...]) -> list[str | None] | None:
    """Each cell's column (None for a cell that names none), or None when the line is no header.

    A line is a header when at least half of its filled cells name a column: a data line's
    names and numbers do not (a player called "Team" alone does not make a header).
    """
    aliases = _aliases(columns)
    mapped = [aliases.get(fold(cell)) if cell.strip() else None for cell in cells]
    filled = sum(1 for cell in cells if cell.strip())
    known = sum(1 for column in mapped if column)
    if not known or known * 2 < filled:
        return None
    return mapped
