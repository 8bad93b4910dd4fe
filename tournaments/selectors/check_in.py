"""Reads for self check-in (issue 18): whether the window is open, and finding one's entry by name.

The search folds accents, case and spacing (``tournaments.search_keys``) on the entry's name and
its players' names, the same way on SQLite and PostgreSQL (the folding is done here, in Python,
over the event's entries: one query).
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments import search_keys
from tournaments.models import EntryPlayer, Event, Round

OPEN = "open"
OFF = "off"
CLOSED = "closed"

MIN_QUERY = 2
"""Folded characters a search needs before it lists anything."""

MAX_FOUND = 8
"""Entries a search lists at most (narrow it down by typing more)."""


def window(event: Event) -> str:
    """``open`` while the players may check themselves in; ``off`` when the director has not
    turned it on; ``closed`` once round 1 is generated (or the event is finished). One query
    (none when off)."""
    if not event.self_check_in:
        return OFF
    if event.status == Event.Status.FINISHED or Round.objects.filter(event=event).exists():
        return CLOSED
    return OPEN


@dataclass(frozen=True)
class CheckInEntry:
    """An entry as the check-in page shows it: names only, never contact details or codes."""

    entry_id: int
    name: str
    players: tuple[str, ...]
    status: str

    @property
    def checked_in(self) -> bool:
        return self.status == "checked_in"

    @property
    def withdrawn(self) -> bool:
        return self.status == "withdrawn"


def _entries(event: Event, entry_id: int | None = None) -> list[CheckInEntry]:
    rows = EntryPlayer.objects.filter(event=event)
    if entry_id is not None:
        rows = rows.filter(entry_id=entry_id)
    found: dict[int, CheckInEntry] = {}
    for pk, name, status, player in rows.order_by("entry__name", "entry__pk", "pk").values_list(
        "entry__pk", "entry__name", "entry__status", "player__name"
    ):
        before = found.get(pk)
        players = (*before.players, player) if before else (player,)
        found[pk] = CheckInEntry(pk, name, players, status)
    return list(found.values())


def find_entries(event: Event, query: str) -> list[CheckInEntry]:
    """The event's entries whose name or a player's name holds ``query`` (folded), at most
    ``MAX_FOUND``, by name; none for a query shorter than ``MIN_QUERY``. One query."""
    key = search_keys.name_key(query.replace("\x00", ""))
    if len(key) < MIN_QUERY:
        return []
    hits = [
        entry
        for entry in _entries(event)
        if any(key in search_keys.name_key(text) for text in (entry.name, *entry.players))
    ]
    return hits[:MAX_FOUND]


def check_in_entry(event: Event, entry_id: int) -> CheckInEntry | None:
    """One entry of the event as the check-in page shows it, or None. One query."""
    found = _entries(event, entry_id)
    return found[0] if found else None
