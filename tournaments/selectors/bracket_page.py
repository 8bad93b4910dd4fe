"""Reads for the public bracket page: the entries' names and a version of everything the page
shows, for its ETag (a conditional request reads nothing else)."""

from __future__ import annotations

from django.db.models import Count, Max

from tournaments.models import Entry, Event, Match, Round, StandingsState


def entry_names(event: Event) -> dict[int, str]:
    """Every entry's name by id (one query)."""
    return dict(Entry.objects.filter(event=event).values_list("pk", "name"))


def bracket_version(event: Event) -> str:
    """Changes whenever the bracket page would: a result written (the event's results
    generation), a play-off match tabled or a play-off round's status changed, the event
    itself changed (finished, its visibility). Three queries."""
    state = StandingsState.objects.filter(pk=event.pk).values_list("results_generation", flat=True)
    generation = state.first() or 0
    matches = Match.objects.filter(round__event=event, round__kind=Round.Kind.PLAYOFF).aggregate(
        n=Count("pk"), last=Max("pk")
    )
    statuses = "".join(
        s[0]
        for s in Round.objects.filter(event=event, kind=Round.Kind.PLAYOFF)
        .order_by("number")
        .values_list("status", flat=True)
    )
    stamp = int(event.updated_at.timestamp() * 1000) if event.updated_at else 0
    return f"{event.pk}-{stamp}-{generation}-{matches['n']}-{matches['last'] or 0}-{statuses}"
