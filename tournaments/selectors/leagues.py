"""Reads for leagues: the public list, one league, and its season table from its finished
events' frozen placings (``Event.placings``).

Each placing's entry is mapped to its players through ``EntryPlayer`` (a partnership's two, or a
head-to-head entry's one); a player merged into another (``Player.merged_into``) counts as the
survivor, so one person's events add up in one line. The table itself is the pure
``tournaments.standings.season``. Every finished event attached to the league counts: adding an
event to a league takes a director of both (``services.leagues.add_event``), so the event's
directors chose to publish its placings in the league's table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext

from tournaments.errors import NotFound
from tournaments.models import EntryPlayer, Event, League, Player
from tournaments.standings.season import Placing, SeasonTable, season_table


@dataclass(frozen=True)
class LeagueEvent:
    """One event of the league's season, numbered in date order (the table's columns)."""

    number: int
    event: Event
    champion: str
    finished: bool


@dataclass(frozen=True)
class LeagueSeason:
    """A league, its events and its season table."""

    league: League
    events: tuple[LeagueEvent, ...]
    table: SeasonTable

    @property
    def finished_events(self) -> tuple[LeagueEvent, ...]:
        return tuple(e for e in self.events if e.finished)


def list_public_leagues() -> QuerySet[League]:
    """Public leagues, the latest season first, with how many listed events each has."""
    listed = ~Q(events__status=Event.Status.DRAFT)
    return League.objects.filter(public=True).annotate(
        event_count=Count("events", filter=listed),
        finished_count=Count("events", filter=Q(events__status=Event.Status.FINISHED)),
    )


def get_visible_league(*, slug: str, user: Any) -> League:
    """The league at ``slug`` if this visitor may see it (public, or one of its directors, or a
    superuser); otherwise ``NotFound`` (a private league's existence is not revealed)."""
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise NotFound(gettext("No such league."), code="not_found")
    if league.public:
        return league
    if getattr(user, "is_authenticated", False) and (
        getattr(user, "is_superuser", False) or league.directors.filter(pk=user.pk).exists()
    ):
        return league
    raise NotFound(gettext("No such league."), code="not_found")


def _survivors(player_ids: set[int]) -> dict[int, Player]:
    """Each player id -> the player it counts as (following ``merged_into`` to the end)."""
    rows: dict[int, Player] = {}
    wanted = set(player_ids)
    for _ in range(16):  # merges chain rarely; a bound keeps a bad cycle from looping
        wanted -= set(rows)
        if not wanted:
            break
        found = Player.objects.filter(pk__in=wanted).only("pk", "name", "merged_into_id")
        rows.update({p.pk: p for p in found})
        wanted = {p.merged_into_id for p in rows.values() if p.merged_into_id is not None}
    out: dict[int, Player] = {}
    for pk in player_ids:
        player = rows[pk]
        seen = {pk}
        while player.merged_into_id is not None and player.merged_into_id in rows:
            if player.merged_into_id in seen:
                break
            seen.add(player.merged_into_id)
            player = rows[player.merged_into_id]
        out[pk] = player
    return out


def league_events(league: League) -> list[Event]:
    """The league's events the public may see (out of draft), in date order."""
    return list(
        Event.objects.filter(league=league)
        .exclude(status=Event.Status.DRAFT)
        .order_by("start_date", "name", "pk")
    )


def league_season(league: League) -> LeagueSeason:
    """The league's events (with their champions) and its season table (three queries)."""
    events = league_events(league)
    finished = [e for e in events if e.status == Event.Status.FINISHED and e.placings]
    members: dict[int, list[int]] = {}
    for entry_id, player_id in EntryPlayer.objects.filter(
        event__in=[e.pk for e in finished]
    ).values_list("entry_id", "player_id"):
        members.setdefault(entry_id, []).append(player_id)
    survivors = _survivors({p for ps in members.values() for p in ps})
    placings = [
        Placing(
            event.pk,
            int(row["place"]),
            tuple(sorted({survivors[p].pk for p in members[row["entry_id"]]})),
        )
        for event in finished
        for row in event.placings or []
        if members.get(row.get("entry_id"))
    ]
    names = {p.pk: p.name for p in survivors.values()}
    table = season_table(
        placings,
        points=list(league.points),
        best_of=league.best_of,
        names=names,
        partnerships=league.rank_partnerships,
    )
    numbered = tuple(
        LeagueEvent(
            number=i,
            event=event,
            champion=str((event.placings or [{}])[0].get("name", "")) if event in finished else "",
            finished=event in finished,
        )
        for i, event in enumerate(events, start=1)
    )
    return LeagueSeason(league=league, events=numbered, table=table)
