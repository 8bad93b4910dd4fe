"""What a league page, its CSV and its API show: the season table's rows with points as people
read them (``25``, a shared place's ``13.5``), each event's cell (counted, dropped in brackets,
or a dash), and links to the players' pages."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from tournaments.csv_safety import SafeWriter
from tournaments.selectors.leagues import LeagueEvent, LeagueSeason
from tournaments.standings.season import SeasonRow, format_points


def player_href(player_id: int) -> str:
    """A player's page."""
    return reverse("public:player", args=[player_id])


@dataclass(frozen=True)
class Cell:
    """One event's points for one row: ``text`` as shown, ``counted`` or dropped or not played."""

    number: int
    text: str
    counted: bool
    played: bool


@dataclass(frozen=True)
class Row:
    rank: int
    tied: bool
    name: str
    links: list[tuple[str, str]]  # (name, href) per player
    total: str
    counted: int
    played: int
    cells: list[Cell]


def _cells(row: SeasonRow, events: tuple[LeagueEvent, ...]) -> list[Cell]:
    cells = []
    for league_event in events:
        score = row.score_in(league_event.event.pk)
        if score is None:
            cells.append(Cell(league_event.number, "–", False, False))
            continue
        text = format_points(score.points)
        cells.append(
            Cell(league_event.number, text if score.counted else f"({text})", score.counted, True)
        )
    return cells


def rows(
    season_rows: tuple[SeasonRow, ...] | list[SeasonRow],
    season: LeagueSeason,
    names: dict[int, str],
) -> list[Row]:
    """The page's rows (``names``: each player's own name, for the links)."""
    ranks = [r.rank for r in season_rows]
    events = season.finished_events
    return [
        Row(
            rank=r.rank,
            tied=ranks.count(r.rank) > 1,
            name=r.name,
            links=[(names.get(p, r.name), player_href(p)) for p in r.players],
            total=format_points(r.total),
            counted=r.counted,
            played=r.played,
            cells=_cells(r, events),
        )
        for r in season_rows
    ]


def player_names(season: LeagueSeason) -> dict[int, str]:
    """Each ranked player's name (a player row's name is the player's)."""
    return {r.players[0]: r.name for r in season.table.players}


def table_csv(season: LeagueSeason) -> str:
    """The season table as CSV: one line per player (and partnership), a column per finished
    event with its points (a dropped event's in brackets, as on the page)."""
    out = io.StringIO()
    writer = SafeWriter(out)
    events = season.finished_events
    writer.writerow(
        ["kind", "rank", "name", "player_ids", "points", "events_counted", "events_played"]
        + [e.event.slug for e in events]
    )
    tables = (("player", season.table.players), ("partnership", season.table.partnerships))
    for kind, table in tables:
        for r in table:
            writer.writerow(
                [kind, r.rank, r.name, " ".join(map(str, r.players)), format_points(r.total)]
                + [r.counted, r.played]
                + [c.text if c.played else "" for c in _cells(r, events)]
            )
    return out.getvalue()


def row_json(row: SeasonRow, events: tuple[LeagueEvent, ...]) -> dict[str, Any]:
    """One row for the API: points as strings of the displayed value (exact to two decimals)."""
    return {
        "rank": row.rank,
        "name": row.name,
        "players": list(row.players),
        "points": format_points(row.total),
        "events_counted": row.counted,
        "events_played": row.played,
        "events": [
            {
                "event": e.event.slug,
                "place": score.place,
                "points": format_points(score.points),
                "counted": score.counted,
            }
            for e in events
            if (score := row.score_in(e.event.pk)) is not None
        ],
    }
