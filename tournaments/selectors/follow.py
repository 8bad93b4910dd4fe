"""Reads for "my table": a player finds their entry by name and follows it; the followed view is
the entry's table in the round now published (or the round it waits for) and its last result.

Search folds names with :func:`tournaments.search_keys.name_key` (accents, case and spacing
ignored, as the players' search does). Query counts are fixed (pinned in the tests): one for a
search, three for a followed view (four when its last result is a one-sided forfeit).
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any

from django.db.models import Q

from tournaments.models import Entry, Event, Match, Round, RoundSeat
from tournaments.search_keys import name_key
from tournaments.selectors.matches import team_history
from tournaments.selectors.rounds import PUBLIC_STATUSES

SEARCH_MIN = 2
"""Folded characters a search needs (one letter matches half the room)."""

SEARCH_MAX = 80
"""A search is cut to this many characters."""

SEARCH_LIMIT = 20
"""At most this many entries are listed for one search."""

CLOSE_CUTOFF = 0.8
"""How alike a word must be to a name's word to be offered when nothing matches (difflib)."""

OPEN_STATUSES = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)
"""A round whose tables are being played (or about to be): its table is the one to go to."""


@dataclass(frozen=True)
class FoundEntry:
    """An entry a search found: its name and its players' names (no contact details)."""

    entry_id: int
    name: str
    players: tuple[str, ...]


def search_key(query: str) -> str:
    """The query as a search compares it: folded, cut to :data:`SEARCH_MAX` characters."""
    return name_key(query.replace("\x00", ""))[:SEARCH_MAX]


def _entries(event: Event) -> list[FoundEntry]:
    """The event's entries (not withdrawn) by name, with their players. One query."""
    rows = (
        Entry.objects.filter(event_id=event.pk)
        .exclude(status=Entry.Status.WITHDRAWN)
        .order_by("name", "pk", "members__pk")
        .values_list("pk", "name", "members__player__name")
    )
    names: dict[int, str] = {}
    players: dict[int, list[str]] = {}
    for entry_id, name, player in rows:
        names[entry_id] = name
        if player:
            players.setdefault(entry_id, []).append(player)
    return [FoundEntry(i, name, tuple(players.get(i, ()))) for i, name in names.items()]


def _close(key: str, texts: tuple[str, ...]) -> bool:
    """One of the query's words is close to one of the names' words (a letter left out,
    swapped or mistyped: "ramriez" for "Ramírez")."""
    words = [w for text in texts for w in name_key(text).split()]
    return any(get_close_matches(part, words, n=1, cutoff=CLOSE_CUTOFF) for part in key.split())


def find_entries(event: Event, query: str) -> tuple[list[FoundEntry], bool]:
    """The event's entries (not withdrawn) whose name, or one of whose players' names, contains
    the folded query, by name, at most :data:`SEARCH_LIMIT`; when none does, those with a word
    close to one of the query's (then the second item is True: "did you mean"). Nothing for a
    query shorter than :data:`SEARCH_MIN`. One query."""
    key = search_key(query)
    if len(key) < SEARCH_MIN:
        return [], False
    entries = _entries(event)
    found = [e for e in entries if any(key in name_key(text) for text in (e.name, *e.players))]
    if found:
        return found[:SEARCH_LIMIT], False
    close = [e for e in entries if _close(key, (e.name, *e.players))]
    return close[:SEARCH_LIMIT], bool(close)


def followed_entry(event: Event, entry_id: int) -> Entry:
    """The entry of ``event`` with this id (``Entry.DoesNotExist`` otherwise). One query."""
    return Entry.objects.get(event_id=event.pk, pk=entry_id)


@dataclass(frozen=True)
class FollowedView:
    """What a follower's page shows.

    ``round``: the latest public round (published, in play or closed), None before round 1.
    ``match``: the entry's match (game 1) in ``round`` while that round is open (published or in
    play), None otherwise or when the entry has no place in it. ``waiting_for``: the number of
    the round to be published next, when no round is open (None once the event is finished).
    ``last``: the entry's last match with a confirmed result (or a bye), as
    :func:`~tournaments.selectors.matches.team_history` gives it, where results are public.
    """

    event: Event
    entry: Entry
    round: Round | None
    match: Match | None
    waiting_for: int | None
    last: dict[str, Any] | None

    @property
    def open(self) -> bool:
        return self.round is not None and self.round.status in OPEN_STATUSES

    @property
    def finished(self) -> bool:
        return self.event.status == Event.Status.FINISHED


def _last_result(event: Event, entry_id: int) -> dict[str, Any] | None:
    done = [item for item in team_history(event, entry_id) if item["confirmed"] or item["bye"]]
    return done[-1] if done else None


def followed_view(event: Event, entry: Entry, *, show_results: bool) -> FollowedView:
    """The followed entry's view (see :class:`FollowedView`): the latest public round, the
    entry's match in it, its history (three queries; four when its last result is a one-sided
    forfeit; two without results, or with no open round)."""
    rnd = (
        Round.objects.filter(event_id=event.pk, status__in=PUBLIC_STATUSES)
        .order_by("-number")
        .first()
    )
    match = None
    if rnd is not None and rnd.status in OPEN_STATUSES:
        match = (
            Match.objects.filter(round=rnd, game_no=1)
            .filter(
                Q(entry_a_id=entry.pk)
                | Q(entry_b_id=entry.pk)
                # seats 2 and 3 of a table of many are in its seats only
                | Q(pk__in=RoundSeat.objects.filter(round=rnd, entry_id=entry.pk).values("match"))
            )
            .select_related("table", "entry_a", "entry_b")
            .first()
        )
    waiting = None
    if (rnd is None or rnd.status == Round.Status.CLOSED) and event.status != Event.Status.FINISHED:
        waiting = 1 if rnd is None else rnd.number + 1
    last = _last_result(event, entry.pk) if show_results else None
    return FollowedView(
        event=event, entry=entry, round=rnd, match=match, waiting_for=waiting, last=last
    )
