"""Reads of players across events: a player's record (every event, partner, match and placing),
the search over players by name, and the director's view of a player.

What the public sees follows each event's own settings, exactly as the event's pages decide
them (``tournaments.permissions.can_see``): an event in draft is never shown; a player's part in
an event is shown where the event is listed (``public_listing``) and shows who played
(``public_entries`` or ``public_standings``, whose team page names its players); the matches
where the team page shows them (``public_standings``), their scores only where results are
public (``public_results``), and the placing where the event page shows its podium (standings
or results public). Directors and staff see the events they oversee as on their own pages.
Contact details (``email``, ``phone``) are never part of a public read.

Search folds the query with :func:`tournaments.search_keys.name_key`, as every writer of
``Player.name`` folds ``Player.name_key``, so it ignores accents and case on every database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Q, QuerySet

from tournaments.models import EntryPlayer, Event, Player
from tournaments.permissions import can_see, is_staff
from tournaments.search_keys import name_key
from tournaments.selectors import matches
from tournaments.selectors import standings as standings_reads
from tournaments.selectors.result_privacy import for_viewer

Viewer = AbstractBaseUser | AnonymousUser

#: Events whose players the public may see: listed, out of draft, and naming who played.
PUBLIC_EVENTS = (
    Q(public_listing=True)
    & ~Q(status=Event.Status.DRAFT)
    & (Q(public_entries=True) | Q(public_standings=True))
)

#: The longest query a search folds (longer ones are cut: a name is at most 120 characters).
MAX_QUERY = 120


def visible_events(user: Viewer) -> QuerySet[Event]:
    """The events whose players this visitor may see: the public ones, and every event the
    visitor oversees (staff and superusers: all; a director: theirs)."""
    if is_staff(user):
        return Event.objects.all()
    q = PUBLIC_EVENTS
    if user.is_authenticated:
        q = q | Q(pk__in=Event.objects.filter(directors__id=user.pk).values("pk"))
    return Event.objects.filter(q)


def with_public_record(players: QuerySet[Player], user: Viewer) -> QuerySet[Player]:
    """``players`` narrowed to those who played in at least one event this visitor may see."""
    played = EntryPlayer.objects.filter(
        player_id=OuterRef("pk"), event_id__in=visible_events(user).values("pk")
    )
    return players.filter(Exists(played))


def player_ids_with_pages(player_ids: list[int], user: Viewer) -> set[int]:
    """Which of these players have a page this visitor may open (one query)."""
    rows = with_public_record(Player.objects.filter(pk__in=player_ids), user)
    return set(rows.values_list("pk", flat=True))


def search_players(query: str, user: Viewer) -> QuerySet[Player]:
    """Players whose folded name starts with the folded query (the index on ``name_key`` serves
    it) or holds it at the start of a later word (a surname: "ramirez" finds "jose ramirez");
    merged rows and players with nothing this visitor may see are left out. Ordered by folded
    name. An empty query gives no one."""
    key = name_key(query.replace("\x00", ""))[:MAX_QUERY]
    if not key:
        return Player.objects.none()
    found = Player.objects.filter(
        Q(name_key__startswith=key) | Q(name_key__contains=f" {key}"), merged_into__isnull=True
    )
    return with_public_record(found, user).order_by("name_key", "pk")


def survivor_of(player: Player) -> Player:
    """The row a merged player now lives in (the player itself when not merged)."""
    seen = {player.pk}
    while player.merged_into_id is not None and player.merged_into_id not in seen:
        seen.add(player.merged_into_id)
        player = Player.objects.get(pk=player.merged_into_id)
    return player


@dataclass
class PlayerEvent:
    """One event of a player's record, as this visitor may see it."""

    event: Event
    entry_id: int
    entry_name: str
    partners: list[Player] = field(default_factory=list)
    show_matches: bool = False
    show_results: bool = False
    show_team_page: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    place: int | None = None
    shared: bool = False
    final: bool = False  # the place is the finished event's frozen placing


@dataclass
class PlayerRecord:
    player: Player
    events: list[PlayerEvent]


def _placing(item: PlayerEvent, user: Viewer) -> None:
    event = item.event
    if not (can_see(user, event, "standings") or can_see(user, event, "results")):
        return
    if event.status == Event.Status.FINISHED and event.placings:
        for placing in event.placings:
            if placing.get("entry_id") == item.entry_id:
                item.place, item.shared, item.final = (
                    placing.get("place"),
                    bool(placing.get("shared")),
                    True,
                )
                return
    if not can_see(user, event, "standings"):
        return
    data = for_viewer(standings_reads.latest_standings(event), user, event)
    row = standings_reads.standings_row(data, item.entry_id)
    if row is not None:
        item.place, item.shared = row.get("rank"), bool(row.get("tied"))


def player_record(player: Player, user: Viewer) -> PlayerRecord:
    """Every event of ``player`` this visitor may see, newest first, each with the player's
    entry, partners (across re-formed partnerships: each event's own), matches (round,
    opponent, score, forfeit marks: ``matches.team_history``) and placing (the frozen final
    placing of a finished event, else the current standing rank)."""
    members = list(
        EntryPlayer.objects.filter(player=player, event__in=visible_events(user))
        .select_related("event", "entry")
        .order_by("-event__start_date", "-event__pk")
    )
    partners: dict[int, list[Player]] = {}
    for row in (
        EntryPlayer.objects.filter(entry_id__in=[m.entry_id for m in members])
        .exclude(player=player)
        .select_related("player")
        .order_by("pk")
    ):
        partners.setdefault(row.entry_id, []).append(row.player)
    events = []
    for member in members:
        event = member.event
        item = PlayerEvent(
            event=event,
            entry_id=member.entry_id,
            entry_name=member.entry.name,
            partners=partners.get(member.entry_id, []),
            show_team_page=can_see(user, event, "standings"),
            show_matches=can_see(user, event, "standings"),
            show_results=can_see(user, event, "results"),
        )
        if item.show_matches:
            item.history = matches.team_history(event, member.entry_id)
        _placing(item, user)
        events.append(item)
    return PlayerRecord(player=player, events=events)


def director_player_events(player: Player) -> list[EntryPlayer]:
    """Every event the player played in (for the director's player page), newest first."""
    return list(
        EntryPlayer.objects.filter(player=player)
        .select_related("event", "entry")
        .order_by("-event__start_date", "-event__pk")
    )


def merge_candidates(player: Player, query: str, user: Viewer) -> list[Player]:
    """Other unmerged players whose folded name holds the folded query (the "merge into..."
    search), at most 20: only rows this user may change too (their own; a superuser's, all)."""
    key = name_key(query.replace("\x00", ""))[:MAX_QUERY]
    if not key:
        return []
    rows = Player.objects.filter(merged_into__isnull=True, name_key__contains=key)
    if not getattr(user, "is_superuser", False):
        rows = rows.filter(owner_id=user.pk)
    return list(rows.exclude(pk=player.pk).order_by("name_key", "pk")[:20])


def team_players(entry_id: int, user: Viewer) -> list[tuple[Player, bool]]:
    """The entry's players in seat order, each with whether this visitor may open their player
    page (two queries). Names and clubs only are shown from these rows."""
    people = [
        row.player
        for row in EntryPlayer.objects.filter(entry_id=entry_id)
        .select_related("player")
        .order_by("pk")
    ]
    with_pages = player_ids_with_pages([p.pk for p in people], user)
    return [(p, p.pk in with_pages) for p in people]
