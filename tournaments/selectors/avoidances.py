"""Reads for the director's named pairs to keep apart (``EntryAvoidance``)."""

from __future__ import annotations

from tournaments.models import Entry, EntryAvoidance, Event


def list_avoidances(event: Event) -> list[EntryAvoidance]:
    """The event's pairs kept apart, with both entries, by the first entry's name. One query."""
    return sorted(
        EntryAvoidance.objects.filter(event=event).select_related("entry_a", "entry_b"),
        key=lambda a: (a.entry_a.name.casefold(), a.entry_b.name.casefold()),
    )


def entry_choices(event: Event) -> list[tuple[int, str]]:
    """Every entry of the event not withdrawn, as (id, name) by name, for choosing a pair. One
    query."""
    rows = (
        Entry.objects.filter(event=event)
        .exclude(status=Entry.Status.WITHDRAWN)
        .values_list("pk", "name")
    )
    return sorted(rows, key=lambda row: row[1].casefold())
