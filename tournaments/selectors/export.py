"""The event export: the whole event as one JSON document (entries, rounds, matches, results and
the latest standings), read in a fixed number of queries.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from django.utils import timezone

from tournaments import game
from tournaments.models import (
    Entry,
    EntryAvoidance,
    EntryPlayer,
    Event,
    Match,
    Player,
    Round,
    StandingsSnapshot,
    Table,
)
from tournaments.selectors.bracket import bracket_for_export
from tournaments.selectors.results import results_for_export
from tournaments.selectors.tables_rounds import seats_by_match


def standings_for_export(event: Event) -> dict[str, Any] | None:
    """The event export's ``standings`` (one query): the latest snapshot with every tiebreak
    value by name, each row's record, the tiebreak-round settlement and the matches that made
    it; ``None`` before the first snapshot."""
    row = (
        StandingsSnapshot.objects.filter(event_id=event.pk)
        .order_by("-generation")
        .values_list("generation", "created_at", "results_generation", "digest", "data")
        .first()
    )
    if row is None:
        return None
    generation, created_at, results_generation, digest, data = row
    document = json.loads(data)
    standings = document["standings"]
    names = standings["tiebreaks"]
    extra = document.get("extra", {})
    return {
        "format": document["format"],
        "generation": generation,
        "computed_at": created_at.isoformat(),
        "results_generation": results_generation,
        "digest": digest,
        "points": standings["points"],
        "tiebreaks": names,
        "places_that_matter": document.get("places_that_matter", []),
        "unbroken_ties": document.get("unbroken_ties", []),
        "rows": [
            _standings_row(r, names, extra, many="tables" in document) for r in standings["rows"]
        ],
        # tables of many: the placing points and each table's seats, scores, places and points
        **(
            {"placing_points": document["placing_points"], "tables": document["tables"]}
            if "tables" in document
            else {}
        ),
    }


def _standings_row(
    r: dict[str, Any], names: list[str], extra: dict[str, Any], *, many: bool
) -> dict[str, Any]:
    """One row of the export's standings: the snapshot's row ``r`` with its tiebreak values by
    name and its record (``extra``: the snapshot's per-entry figures; ``many``: tables of many)."""
    mine = extra.get(str(r["entry_id"]), {})
    return {
        "rank": r["rank"],
        "entry_id": r["entry_id"],
        "name": r["name"],
        "values": dict(zip(names, r["values"], strict=True)),
        "record": {
            **{key: r[key] for key in ("played", "wins", "draws", "losses", "byes", "forfeits")},
            **{key: mine.get(key) for key in ("points_for", "points_against", "spread")},
        },
        "tiebreak_rounds": r["settlement"],
        "matches": r["match_ids"],
        "tiebreak_matches": r["settlement_match_ids"],
        "withdrawn": bool(mine.get("withdrawn")),
        # tables of many: [[round, place, players], ...]
        **({"placings": mine.get("placings", [])} if many else {}),
    }


EXPORT_FORMAT = "spinner-event-export/1"
"""The export document's ``format``: bump the number on an incompatible change. Adding keys
(results, standings) is compatible. The format is described in ``docs/export.md``."""


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _event_json(event: Event) -> dict[str, Any]:
    return {
        "name": event.name,
        "slug": event.slug,
        "start_date": _iso(event.start_date),
        "end_date": _iso(event.end_date),
        "venue": event.venue,
        "status": event.status,
        "salt": event.salt,
        "settings": {
            "rules": event.rules,
            "target": event.target,
            "hand_size": event.hand_size,
            "entry_kind": event.entry_kind,
            "table_size": event.table_size,
            "mixed_table_sizes": event.mixed_table_sizes,
            "table_sizes": list(game.table_sizes(event)),
            "placing_points": event.placing_points or {},
            "table_confirmation": event.table_confirmation,
            "avoid_same_club": event.avoid_same_club,
            "time_policy": event.time_policy,
            "round_minutes": event.round_minutes,
            "allow_final_score_only": event.allow_final_score_only,
            "format": event.format,
            "swiss_rounds": event.swiss_rounds,
            "playoff": event.playoff,
            "playoff_qualifiers": event.playoff_qualifiers,
            "playoff_consolation": event.playoff_consolation,
            "playoff_reset": event.playoff_reset,
            "playoff_formats": event.playoff_formats or {},
            "first_round": event.first_round,
            "points": {
                "win": event.points_win,
                "draw": event.points_draw,
                "loss": event.points_loss,
                "bye": event.points_bye,
                "margin_bonus_points": event.margin_bonus_points,
                "margin_bonus_at": event.margin_bonus_at,
            },
            "forfeits": {
                "score": event.forfeit_score,
                "points_win": event.points_forfeit_win,
                "points_loss": event.points_forfeit_loss,
                "points_double": event.points_double_forfeit,
                "spread": event.forfeit_spread,
            },
            "tiebreaks": list(event.tiebreaks or []),
            "public": {
                "listing": event.public_listing,
                "entries": event.public_entries,
                "pairings": event.public_pairings,
                "results": event.public_results,
                "standings": event.public_standings,
            },
        },
    }


def _match_json(
    m: Match, result: dict[str, Any] | None = None, seats: tuple[int, ...] = ()
) -> dict[str, Any]:
    """One match of the export. ``result`` is the extension point of issue 6 (the confirmed
    result and its scoresheet); it is null until results exist. ``entries`` are in seat order:
    every seat of a table of many (``seats``, with ``table_entries``)."""
    data = m.explanation if isinstance(m.explanation, dict) else {}
    why = {k: v for k, v in data.items() if k not in ("overrides", "bye")}
    return {
        "id": m.pk,
        "table": m.table.number if m.table is not None else None,
        "bye": m.is_bye,
        "entries": (
            list(seats)
            if seats
            else [m.entry_a_id]
            if m.entry_b_id is None
            else [m.entry_a_id, m.entry_b_id]
        ),
        "table_entries": m.table_entries,
        "bracket_slot": m.bracket_slot or None,
        "game_no": m.game_no,
        "best_of": m.best_of,
        "target": m.target,
        "why": why,
        "overrides": list(data.get("overrides") or []),
        "result": result,
    }


def _entry_json(entry: Entry, players: list[int]) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "name": entry.name,
        "kind": "partnership" if entry.partnership_id is not None else "single",
        "players": players,
        "seed": entry.seed,
        "status": entry.status,
        "late": entry.late,
        "pinned_table": entry.pinned_table,
    }


def _players_and_members(event: Event) -> tuple[dict[int, Player], dict[int, list[int]]]:
    """The event's players by id and each entry's player ids in the order they joined. One
    query."""
    members = list(
        EntryPlayer.objects.filter(event=event).select_related("player").order_by("entry_id", "pk")
    )
    players = {m.player_id: m.player for m in members}
    by_entry: dict[int, list[int]] = defaultdict(list)
    for m in members:
        by_entry[m.entry_id].append(m.player_id)
    return players, by_entry


def _rounds_json(event: Event, rounds: list[Round]) -> list[dict[str, Any]]:
    """The export's ``rounds``: each round with its matches in table order, their results and
    seats. Two queries (three with tables of many)."""
    results = results_for_export(event)
    matches: dict[int, list[Match]] = defaultdict(list)
    every = list(
        Match.objects.filter(round__event=event)
        .select_related("table")
        .order_by("round_id", "is_bye", "table__number", "game_no", "pk")
    )
    for match in every:
        matches[match.round_id].append(match)
    seats = seats_by_match(every)  # tables of many: every seat (a query only when there are)
    return [
        {
            "number": r.number,
            "kind": r.kind,
            "status": r.status,
            "time_limit_minutes": r.time_limit_minutes,
            "published_at": _iso(r.published_at),
            "closed_at": _iso(r.closed_at),
            "explanation": r.explanation,
            "matches": [
                _match_json(m, results.get(m.pk), tuple(seats.get(m.pk, ())))
                for m in matches.get(r.pk, [])
            ],
        }
        for r in rounds
    ]


def export_event(event: Event) -> dict[str, Any]:
    """The whole event as one JSON-ready document (format ``EXPORT_FORMAT``; see
    ``docs/export.md``): the event and its settings, the players (names, clubs, ratings; never
    contact details), the entries, the tables, and every round with its matches in table order
    (entries in seat order, byes, why each pairing was made, the director's overrides).

    Extension points: each match's ``result`` (issue 6) is null until it exists; the top-level
    ``standings`` (issue 8) is the latest standings snapshot, null before the first; the
    top-level ``placings`` (issue 12) a finished event's final placings, null before;
    ``bracket`` (a seeded play-off's every match, resolved) is null before seeding. Eight
    queries (three more once a play-off is seeded, one more with tables of many).
    """

    players, by_entry = _players_and_members(event)
    entries = list(Entry.objects.filter(event=event).order_by("pk"))
    tables = list(Table.objects.filter(event=event).order_by("number"))
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    return {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now().isoformat(),
        "event": _event_json(event),
        "players": [
            {"id": p.pk, "name": p.name, "club": p.club, "rating": p.rating}
            for p in sorted(players.values(), key=lambda p: p.pk)
        ],
        "entries": [_entry_json(e, by_entry.get(e.pk, [])) for e in entries],
        "tables": [{"number": t.number, "location": t.location} for t in tables],
        # The director's named pairs kept apart (a pairing constraint), lower entry id first.
        "avoidances": [
            {"entries": [a, b], "note": note}
            for a, b, note in EntryAvoidance.objects.filter(event=event)
            .order_by("entry_a_id", "entry_b_id")
            .values_list("entry_a_id", "entry_b_id", "note")
        ],
        "rounds": _rounds_json(event, rounds),
        # The latest standings snapshot, with every tiebreak value (issue 8).
        "standings": standings_for_export(event),
        # A finished event's final placings, best first (issue 12); null before it finishes.
        "placings": placings_for_export(event),
        # The play-off bracket: every bracket match resolved to entries, with its games.
        "bracket": (
            bracket_for_export(event) if any(r.kind == Round.Kind.PLAYOFF for r in rounds) else None
        ),
    }


def placings_for_export(event: Event) -> list[dict[str, Any]] | None:
    """The export's ``placings``: ``[{place, entry, shared}]`` (``entry`` an entry id, as the
    export names entries everywhere), frozen when the event finished; ``None`` before. No
    query."""
    if event.status != Event.Status.FINISHED or event.placings is None:
        return None
    return [
        {"place": row["place"], "entry": row["entry_id"], "shared": bool(row.get("shared"))}
        for row in event.placings
    ]
