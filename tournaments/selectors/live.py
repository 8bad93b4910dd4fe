"""Reads for live standings: the latest snapshot, the pages built on it, the records a recompute
loads, and the ranking the Swiss pairing uses.

No public request computes standings: pages read the latest :class:`StandingsSnapshot` only.
Query counts are fixed (pinned in ``tests/tournaments/test_live_selectors.py``).
"""

from __future__ import annotations

import gc
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from django.db.models import FilteredRelation, Max, Q

from tournaments.models import (
    BackgroundJob,
    Entry,
    Event,
    Match,
    MatchResult,
    Round,
    StandingsRecompute,
    StandingsSnapshot,
    StandingsState,
)
from tournaments.standings import Entry as StandingsEntry
from tournaments.standings import (
    Number,
    PointsConfig,
    RoundKind,
    Standings,
    compute_standings,
    result_points,
    unbroken_ties,
)
from tournaments.standings import Result as StandingsResult
from tournaments.standings.records import normalise
from tournaments.standings.serialise import encode_number, format_number

SNAPSHOT_FORMAT = "spinner-standings/1"

RECORD_COLUMNS = (
    "played",
    "wins",
    "draws",
    "losses",
    "byes",
    "forfeits",
    "points_for",
    "points_against",
    "spread",
)
"""Every row's record, after its rank and tiebreak values (in the page's and the CSV's order)."""

SCORE_COLUMNS = frozenset({"points_for", "points_against", "spread"})
"""Columns (records or tiebreaks) holding game points: raw pips in the snapshot and the CSV; the
pages show them as displayed points (``tournaments.templatetags.live.displayed_points``)."""

TIEBREAK_LABELS = {
    "match_points": "Match points",
    "wins": "Wins",
    "points_for": "Points for",
    "points_against": "Points against",
    "spread": "Spread",
    "buchholz": "Buchholz",
    "median_buchholz": "Median Buchholz",
    "head_to_head": "Head to head",
    "opponents_win_rate": "Opponents' win rate",
}
TIEBREAK_SHORT = {
    "match_points": "MP",
    "wins": "W",
    "points_for": "PF",
    "points_against": "PA",
    "spread": "+/-",
    "buchholz": "Bh",
    "median_buchholz": "MBh",
    "head_to_head": "H2H",
    "opponents_win_rate": "OWR",
}


@dataclass(frozen=True)
class SnapshotMeta:
    """What a conditional request needs: no snapshot bytes are read for it."""

    event: Event
    state: StandingsState | None
    generation: int
    created_at: datetime | None
    digest: str = ""

    @property
    def updating(self) -> bool:
        """True while the standings lag the results (pages say "updating")."""
        return self.state is not None and self.state.dirty

    @property
    def etag(self) -> str:
        """The snapshot's generation, and whether it lags: changes exactly when the page does."""
        return f'"standings-{self.event.pk}-{self.generation}-{"u" if self.updating else "c"}"'


@dataclass(frozen=True)
class LiveStandings:
    """The latest snapshot, parsed: ``document`` is empty when none was computed yet."""

    meta: SnapshotMeta
    document: dict[str, Any] = field(default_factory=dict)

    @property
    def tiebreaks(self) -> list[str]:
        names: list[str] = self.document.get("standings", {}).get("tiebreaks", [])
        return names

    @property
    def columns(self) -> list[dict[str, Any]]:
        """The tiebreak columns, in order: name, label, short label and ``score`` (game points)."""
        return tiebreak_columns(self.tiebreaks)

    @property
    def shows_scores(self) -> bool:
        """True when a tiebreak column holds game points (the page then says how it counts)."""
        return any(name in SCORE_COLUMNS for name in self.tiebreaks)

    @property
    def rows(self) -> list[dict[str, Any]]:
        """Display rows, best first: rank, entry_id, name, ``tied`` (shares its rank), ``values``
        (aligned with :attr:`tiebreaks`, as exact text, "" where a group tiebreak did not apply),
        every :data:`RECORD_COLUMNS` value, ``settlement``, ``match_ids``, ``progress``,
        ``withdrawn``, and ``cells``: the ``values`` again as ``{"value", "score"}`` (``score``:
        a game-points column, raw, for the page to show as displayed points)."""
        raw = self.document.get("standings", {}).get("rows", [])
        extra = self.document.get("extra", {})
        ranks: dict[int, int] = {}
        for r in raw:
            ranks[r["rank"]] = ranks.get(r["rank"], 0) + 1
        scores = [name in SCORE_COLUMNS for name in self.tiebreaks]
        rows = []
        for r in raw:
            more = extra.get(str(r["entry_id"]), {})
            values = [_text(v) for v in r["values"]]
            rows.append(
                {
                    "rank": r["rank"],
                    "entry_id": r["entry_id"],
                    "name": r["name"],
                    "tied": ranks[r["rank"]] > 1,
                    "match_points": _text(r["match_points"]),
                    "values": values,
                    "cells": [
                        {"value": v, "score": score}
                        for v, score in zip(values, scores, strict=True)
                    ],
                    "played": r["played"],
                    "wins": r["wins"],
                    "draws": r["draws"],
                    "losses": r["losses"],
                    "byes": r["byes"],
                    "forfeits": r["forfeits"],
                    "points_for": _text(more.get("points_for", 0)),
                    "points_against": _text(more.get("points_against", 0)),
                    "spread": _text(more.get("spread", 0)),
                    "settlement": _settlement_text(r.get("settlement")),
                    "match_ids": r["match_ids"],
                    "settlement_match_ids": r.get("settlement_match_ids", []),
                    "progress": more.get("progress", []),
                    "withdrawn": bool(more.get("withdrawn")),
                }
            )
        return rows

    @property
    def unbroken_ties(self) -> list[list[int]]:
        ties: list[list[int]] = self.document.get("unbroken_ties", [])
        return ties


def tiebreak_columns(names: list[str]) -> list[dict[str, Any]]:
    """Tiebreak columns, in order: name, label, short label and ``score`` (a game-points column)."""
    return [
        {
            "name": n,
            "label": TIEBREAK_LABELS.get(n, n),
            "short": TIEBREAK_SHORT.get(n, n),
            "score": n in SCORE_COLUMNS,
        }
        for n in names
    ]


def csv_column(name: str) -> str:
    """A CSV column's name: game-points columns say they are raw pips (``points_for_raw``)."""
    return f"{name}_raw" if name in SCORE_COLUMNS else name


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _settlement_text(value: Any) -> str:
    """Match points from each tiebreak round that applied, in round order: ``"2 0"``."""
    if value is None:
        return ""
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def event_with_state(slug: str) -> Event:
    """The event and its standings state in one query (``Event.DoesNotExist`` when unknown)."""
    return Event.objects.select_related("standings_state").get(slug=slug)


def _state_of(event: Event) -> StandingsState | None:
    try:
        return event.standings_state
    except StandingsState.DoesNotExist:
        return None


def snapshot_meta(event: Event) -> SnapshotMeta:
    """The latest generation (one query; the event comes from :func:`event_with_state`)."""
    row = (
        StandingsSnapshot.objects.filter(event_id=event.pk)
        .order_by("-generation")
        .values_list("generation", "created_at", "digest")
        .first()
    )
    generation, created_at, digest = row if row is not None else (0, None, "")
    return SnapshotMeta(
        event=event,
        state=_state_of(event),
        generation=generation,
        created_at=created_at,
        digest=digest,
    )


def latest_standings(event: Event) -> LiveStandings:
    """The latest snapshot, parsed (one query)."""
    row = (
        StandingsSnapshot.objects.filter(event_id=event.pk)
        .order_by("-generation")
        .values_list("generation", "created_at", "digest", "data")
        .first()
    )
    state = _state_of(event)
    if row is None:
        return LiveStandings(SnapshotMeta(event=event, state=state, generation=0, created_at=None))
    generation, created_at, digest, data = row
    meta = SnapshotMeta(
        event=event, state=state, generation=generation, created_at=created_at, digest=digest
    )
    return LiveStandings(meta, json.loads(data))


def standings_row(standings: LiveStandings, entry_id: int) -> dict[str, Any] | None:
    """One entry's display row, or None."""
    for row in standings.rows:
        if row["entry_id"] == entry_id:
            return row
    return None


def csv_header(standings: LiveStandings) -> list[str]:
    """The CSV's columns: rank, entry, name, every tiebreak value, the record, the settlement.

    Game points stay raw pips (as everywhere in data), and their columns say so: ``*_raw``.
    """
    return [
        "rank",
        "entry_id",
        "name",
        *(csv_column(name) for name in standings.tiebreaks),
        *(csv_column(name) for name in RECORD_COLUMNS),
        "tiebreak_rounds",
        "tied",
        "withdrawn",
    ]


def csv_rows(standings: LiveStandings) -> list[list[str]]:
    """The CSV's rows, best first; every value exact as the snapshot holds it (``2.5``, ``1/3``)."""
    out = []
    for row in standings.rows:
        out.append(
            [
                str(row["rank"]),
                str(row["entry_id"]),
                row["name"],
                *row["values"],
                *(str(row[name]) for name in RECORD_COLUMNS),
                row["settlement"],
                "yes" if row["tied"] else "",
                "yes" if row["withdrawn"] else "",
            ]
        )
    return out


def event_entry(event: Event, entry_id: int) -> Entry:
    return Entry.objects.get(event_id=event.pk, pk=entry_id)


def _score_text(halves: int | None) -> str:
    if halves is None:
        return ""
    return format_number(normalise(Fraction(halves, 2)))


def team_history(event: Event, entry_id: int) -> list[dict[str, Any]]:
    """Every match of an entry in the event, in round order, with its confirmed result from the
    entry's side (one query). Draft rounds are left out (not public yet)."""
    rows = (
        Match.objects.filter(round__event_id=event.pk)
        .exclude(round__status=Round.Status.DRAFT)
        .filter(Q(entry_a_id=entry_id) | Q(entry_b_id=entry_id))
        .annotate(current=FilteredRelation("results", condition=Q(results__is_current=True)))
        .order_by("round__number", "pk")
        .values_list(
            "pk",
            "round__number",
            "round__kind",
            "table__number",
            "is_bye",
            "entry_a_id",
            "entry_a__name",
            "entry_b_id",
            "entry_b__name",
            "current__score_a_halves",
            "current__score_b_halves",
            "current__winner_side",
            "current__verified",
        )
    )
    history = []
    for pk, number, kind, table, is_bye, a, a_name, b, b_name, sa, sb, winner, verified in rows:
        side = 0 if a == entry_id else 1
        item: dict[str, Any] = {
            "match_id": pk,
            "round": number,
            "kind": kind,
            "table": table,
            "bye": is_bye,
            "opponent_id": b if side == 0 else a,
            "opponent": b_name if side == 0 else a_name,
            "confirmed": sa is not None,
            "verified": bool(verified),
            "own": _score_text(sa if side == 0 else sb),
            "other": _score_text(sb if side == 0 else sa),
            "outcome": "",
        }
        if is_bye:
            item["outcome"] = "bye"
        elif sa is not None:
            item["outcome"] = "draw" if winner is None else ("won" if winner == side else "lost")
        history.append(item)
    return history


def match_detail(event: Event, match_id: int) -> dict[str, Any] | None:
    """A match of the event with its round, table, entries and current confirmed result (two
    queries), and its hands summarised from the result's scoresheet."""
    match = (
        Match.objects.filter(round__event_id=event.pk, pk=match_id)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round", "table", "entry_a", "entry_b")
        .first()
    )
    if match is None:
        return None
    result = MatchResult.objects.filter(match_id=match.pk, is_current=True).first()
    sheet = result.sheet if result is not None and isinstance(result.sheet, dict) else None
    return {
        "match": match,
        "result": result,
        "score_a": _score_text(result.score_a_halves) if result else "",
        "score_b": _score_text(result.score_b_halves) if result else "",
        "winner": (
            None
            if result is None or result.winner_side is None
            else (match.entry_a if result.winner_side == 0 else match.entry_b)
        ),
        "hands": hands_of(sheet) if sheet is not None else [],
        "sheet": sheet,
    }


def hands_of(sheet: dict[str, Any]) -> list[dict[str, Any]]:
    """Each hand of a ``fives-scoresheet/1`` sheet, for display: its number, leader, how it
    ended, the scores made (move or tally form), the settlement, and, for a hand in move form, the
    table drawn from the engine's geometry (``scoring.position_after``) when the engine has it."""
    hands = []
    for index, hand in enumerate(sheet.get("hands") or []):
        if not isinstance(hand, dict):
            continue
        moves = hand.get("moves")
        tally = hand.get("tally")
        scores: list[dict[str, Any]] = []
        if isinstance(moves, list):
            for move in moves:
                if isinstance(move, dict) and move.get("play") and move.get("score"):
                    scores.append({"who": f"seat {move.get('seat')}", "score": move["score"]})
        elif isinstance(tally, list):
            for item in tally:
                if isinstance(item, dict):
                    who = f"seat {item['seat']}" if "seat" in item else f"side {item.get('entity')}"
                    scores.append({"who": who, "score": item.get("score")})
        hands.append(
            {
                "number": index + 1,
                "index": index,
                "leader": hand.get("leader"),
                "end": hand.get("end") or "in play",
                "finisher": hand.get("finisher"),
                "form": "moves" if isinstance(moves, list) else "tally",
                "plays": sum(1 for m in moves or [] if isinstance(m, dict) and m.get("play")),
                "scores": scores,
                "settlement": hand.get("settlement"),
                "drawing": hand_drawing(sheet, index) if isinstance(moves, list) else None,
            }
        )
    return hands


def hand_drawing(sheet: dict[str, Any], index: int) -> dict[str, Any] | None:
    """The table at the end of hand ``index`` (move form), laid out by the engine's geometry
    (``scoring.geometry.position_after`` and ``picture``), as coordinates for an inline SVG:
    grid units (a tile is 4 x 2), each tile's rectangle, its two halves' values and where to write
    them, the open ports (counted ends filled) and the end total. None when the engine cannot
    replay the hand (an invalid sheet)."""
    from scoring.geometry import picture, position_after

    try:
        layout = position_after(sheet, index, None)
    except ValueError:
        return None
    pic = picture(layout)
    tiles = []
    for t in pic.tiles:
        divider: tuple[float, float, float, float]
        if t.horizontal:
            divider = (t.x + t.w / 2, t.y, t.x + t.w / 2, t.y + t.h)
            spots = ((t.x + t.w / 4, t.y + t.h / 2), (t.x + 3 * t.w / 4, t.y + t.h / 2))
        else:
            divider = (t.x, t.y + t.h / 2, t.x + t.w, t.y + t.h / 2)
            spots = ((t.x + t.w / 2, t.y + t.h / 4), (t.x + t.w / 2, t.y + 3 * t.h / 4))
        tiles.append(
            {
                "tile": t.tile,
                "x": t.x,
                "y": t.y,
                "w": t.w,
                "h": t.h,
                "divider": divider,
                "values": [
                    {"x": spots[0][0], "y": spots[0][1], "value": t.first},
                    {"x": spots[1][0], "y": spots[1][1], "value": t.second},
                ],
                "spinner": t.spinner,
                "order": t.order + 1,
            }
        )
    b = pic.bounds
    return {
        "viewbox": f"{b.x - 1} {b.y - 1} {b.w + 2} {b.h + 2}",
        # At least 8 px a grid unit (a tile's number stays readable): a long line scrolls.
        "min_width": (b.w + 2) * 8,
        "tiles": tiles,
        "ports": [{"x": p.x, "y": p.y, "counted": p.counted} for p in pic.ports],
        "total": pic.total,
        "count": len(tiles),
    }


# --- What a recompute loads and computes ----------------------------------------------------

COUNTED_KINDS = ("swiss", "round_robin", "tiebreak")
"""Round kinds whose results a recompute loads (play-off results belong to the bracket)."""

PLAYED_STATUSES = (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.CLOSED)
"""A bye counts once its round is published."""


def points_config(event: Event) -> PointsConfig:
    """The event's match points as the standings package takes them."""
    return PointsConfig(
        win=event.points_win,
        draw=event.points_draw,
        loss=event.points_loss,
        bye=event.points_bye,
        margin_bonus=event.margin_bonus_points,
        margin_threshold=event.margin_bonus_at or None,
    )


def tiebreak_list(event: Event) -> list[str]:
    """The event's ordered tiebreak names, match points first (the event lists what follows)."""
    names = [str(name) for name in (event.tiebreaks or [])]
    return names if names[:1] == ["match_points"] else ["match_points", *names]


def places_that_matter(event: Event) -> list[int]:
    """Places where a tie must be broken: the play-off cut when the event has a play-off, else
    the podium (with a play-off, the bracket decides the podium)."""
    if event.playoff != Event.Playoff.NONE:
        return [event.playoff_qualifiers] if event.playoff_qualifiers >= 1 else []
    return [1, 2, 3]


@dataclass(frozen=True)
class StandingsInput:
    """Everything a recompute reads, as plain records."""

    event: Event
    entries: list[StandingsEntry]
    withdrawn: frozenset[int]
    results: list[StandingsResult]


def _exact(halves: int | None) -> Number:
    """Raw points from stored half-points: an ``int`` when whole (almost always), else exact."""
    if halves is None:
        return 0
    if halves % 2 == 0:
        return halves // 2
    return Fraction(halves, 2)


def standings_result(
    match_id: int,
    round_number: int,
    kind: str,
    entry_a: int,
    entry_b: int,
    score_a_halves: int | None,
    score_b_halves: int | None,
    winner_side: int | None,
) -> StandingsResult:
    """A played match's confirmed result as the standings package's record (scores exact, from
    the stored half-points; ``winner_side`` 0 or 1 as the seat order has it, None for a draw)."""
    winner = entry_a if winner_side == 0 else entry_b if winner_side == 1 else None
    return StandingsResult(
        match_id,
        round_number,
        RoundKind(kind),
        entry_a,
        entry_b,
        _exact(score_a_halves),
        _exact(score_b_halves),
        winner,
    )


def load_standings_input(*, event_id: int) -> StandingsInput:
    """Read the event, its entries and every counted result or bye (three queries).

    A result is a match's current confirmed ``MatchResult``; a bye counts once its round is
    published. Scores are exact (stored as half-points).
    """
    event = Event.objects.get(pk=event_id)
    entries: list[StandingsEntry] = []
    withdrawn: set[int] = set()
    for pk, name, status in Entry.objects.filter(event_id=event_id).values_list(
        "pk", "name", "status"
    ):
        entries.append(StandingsEntry(pk, name))
        if status == Entry.Status.WITHDRAWN:
            withdrawn.add(pk)
    rows = (
        Match.objects.filter(round__event_id=event_id, round__kind__in=COUNTED_KINDS)
        .annotate(current=FilteredRelation("results", condition=Q(results__is_current=True)))
        .filter(Q(is_bye=True, round__status__in=PLAYED_STATUSES) | Q(current__isnull=False))
        .values_list(
            "pk",
            "round__number",
            "round__kind",
            "entry_a_id",
            "entry_b_id",
            "is_bye",
            "current__score_a_halves",
            "current__score_b_halves",
            "current__winner_side",
        )
    )
    results: list[StandingsResult] = []
    for pk, number, kind, a, b, is_bye, score_a, score_b, winner_side in rows:
        if is_bye:
            results.append(StandingsResult(pk, number, RoundKind(kind), a, None, 0, 0, None))
            continue
        results.append(standings_result(pk, number, kind, a, b, score_a, score_b, winner_side))
    return StandingsInput(
        event=event, entries=entries, withdrawn=frozenset(withdrawn), results=results
    )


def _progress(
    data: StandingsInput, points: PointsConfig
) -> tuple[dict[int, list[list[Any]]], dict[int, tuple[Number, Number]]]:
    """Per entry: cumulative match points after each counted round ``[[round, points], ...]``,
    and raw points for and against (byes count nothing). One pass, match points as the
    standings package awards them (margin bonus, forfeits)."""
    per_round: dict[int, dict[int, Number]] = defaultdict(dict)
    points_for: dict[int, Number] = defaultdict(int)
    points_against: dict[int, Number] = defaultdict(int)
    counted = (RoundKind.SWISS, RoundKind.ROUND_ROBIN)
    for r in data.results:
        if r.kind not in counted:
            continue
        a, number = int(r.entry_a), r.round_number
        earned_a = result_points(r, r.entry_a, points)
        if r.entry_b is None:
            line = per_round[a]
            line[number] = line.get(number, 0) + earned_a
            continue
        b = int(r.entry_b)
        earned_b = result_points(r, r.entry_b, points)
        line = per_round[a]
        line[number] = line.get(number, 0) + earned_a
        line = per_round[b]
        line[number] = line.get(number, 0) + earned_b
        points_for[a] += r.score_a
        points_against[a] += r.score_b
        points_for[b] += r.score_b
        points_against[b] += r.score_a
    progress: dict[int, list[list[Any]]] = {}
    for entry_id, rounds in per_round.items():
        total: Number = 0
        cumulative: list[list[Any]] = []
        for number in sorted(rounds):
            total = total + rounds[number]
            cumulative.append([number, total if type(total) is int else encode_number(total)])
        progress[entry_id] = cumulative
    scored = {e: (points_for[e], points_against[e]) for e in points_for}
    return progress, scored


def build_document(data: StandingsInput) -> tuple[dict[str, Any], Standings]:
    """The snapshot document: the standings package's canonical JSON under ``standings``, and
    per row what the pages and the CSV show beside it (points for and against, spread, the
    match-points progression, withdrawn), the places that matter and the ties across them."""
    event = data.event
    points = points_config(event)
    standings = compute_standings(
        data.entries, data.results, points=points, tiebreaks=tiebreak_list(event)
    )
    progress, scored = _progress(data, points)
    places = places_that_matter(event)
    extra = {}
    for row in standings.rows:
        entry_id = int(row.entry_id)
        pf, pa = scored.get(entry_id, (0, 0))
        extra[str(entry_id)] = {
            "points_for": encode_number(pf),
            "points_against": encode_number(pa),
            "spread": encode_number(normalise(pf - pa)),
            "progress": progress.get(entry_id, []),
            "withdrawn": entry_id in data.withdrawn,
        }
    document = {
        "format": SNAPSHOT_FORMAT,
        "event": event.slug,
        "standings": standings.to_json(),
        "extra": extra,
        "places_that_matter": places,
        "unbroken_ties": unbroken_ties(standings, places) if places else [],
        "rounds": sorted({r.round_number for r in data.results if r.kind != "tiebreak"}),
        "tiebreak_rounds": sorted({r.round_number for r in data.results if r.kind == "tiebreak"}),
    }
    return document, standings


def canonical_bytes(document: dict[str, Any]) -> bytes:
    """Canonical JSON (sorted keys, no whitespace, no floats): equal documents, equal bytes."""
    return json.dumps(
        document, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def input_fingerprint(data: StandingsInput) -> str:
    """SHA-256 of the records a recompute read, order-independent: ``computed_from``."""
    event = data.event
    digest = hashlib.sha256()
    settings = {
        "points": Standings(points_config(event), (), ()).to_json()["points"],
        "tiebreaks": tiebreak_list(event),
        "places": places_that_matter(event),
        "withdrawn": sorted(data.withdrawn),
    }
    digest.update(canonical_bytes(settings))
    for entry in sorted(data.entries, key=lambda e: str(e.entry_id).zfill(20)):
        digest.update(f"\ne{entry.entry_id}\t{entry.name}".encode())
    lines = sorted(
        f"\nr{r.match_id}\t{r.round_number}\t{r.kind}\t{r.entry_a}\t{r.entry_b}"
        f"\t{r.score_a}\t{r.score_b}\t{r.winner}\t{r.forfeit}"
        for r in data.results
    )
    digest.update("".join(lines).encode())
    return digest.hexdigest()


def compute_snapshot_bytes(*, event_id: int) -> tuple[bytes, str]:
    """Load the event's records and compute its snapshot: ``(canonical bytes, fingerprint)``.

    The cyclic garbage collector is paused meanwhile: the records and the document are tens of
    thousands of short-lived, acyclic objects (reference counting frees them), and collections
    passing over them took about a third of the time (benchmarks/standings/RESULTS.md).
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        data = load_standings_input(event_id=event_id)
        document, _ = build_document(data)
        return canonical_bytes(document), input_fingerprint(data)
    finally:
        if paused:
            gc.enable()


def events_with_results_newer_than_snapshot(margin_seconds: float = 0.0) -> list[int]:
    """Events with a current confirmed result created after their latest recompute started (less
    ``margin_seconds``), or never recomputed: results written without a dirty mark (the results
    service marks in the same transaction, so this catches writers that bypass it). Two queries.
    """
    newest = dict(
        MatchResult.objects.filter(is_current=True)
        .values_list("match__round__event_id")
        .annotate(newest=Max("created_at"))
        .values_list("match__round__event_id", "newest")
    )
    started = dict(
        StandingsRecompute.objects.filter(event_id__in=list(newest)).values_list(
            "event_id", "last_started_at"
        )
    )
    margin = timedelta(seconds=margin_seconds)
    return sorted(
        event_id
        for event_id, at in newest.items()
        if (last := started.get(event_id)) is None or at > last - margin
    )


# --- The director's standings page, and the ranking the Swiss pairing uses --------------------


@dataclass(frozen=True)
class MainRoundsProgress:
    """How far the main (Swiss or round-robin) rounds are: ``complete`` once every one is
    closed and (Swiss) the event's number of Swiss rounds has been played."""

    closed: int
    total: int
    expected: int

    @property
    def complete(self) -> bool:
        return self.total > 0 and self.closed == self.total and self.closed >= self.expected


def main_rounds_progress(event: Event) -> MainRoundsProgress:
    """One query."""
    statuses = list(
        Round.objects.filter(
            event_id=event.pk, kind__in=(Round.Kind.SWISS, Round.Kind.ROUND_ROBIN)
        ).values_list("status", flat=True)
    )
    closed = sum(1 for s in statuses if s == Round.Status.CLOSED)
    expected = event.swiss_rounds if event.format == Event.Format.SWISS else len(statuses)
    return MainRoundsProgress(closed=closed, total=len(statuses), expected=expected)


def director_standings(event: Event) -> dict[str, Any]:
    """Everything the director's standings page shows (a fixed handful of queries)."""
    from tournaments.errors import SpinnerError
    from tournaments.services import live as services

    event = Event.objects.select_related("standings_state", "standings_recompute").get(pk=event.pk)
    standings = latest_standings(event)
    names = {row["entry_id"]: row for row in standings.rows}
    ties = [
        {
            "rank": names[group[0]]["rank"] if group and group[0] in names else None,
            "entries": [{"id": e, "name": names[e]["name"] if e in names else e} for e in group],
        }
        for group in standings.unbroken_ties
    ]
    progress = main_rounds_progress(event)
    propose_blocked = seed_blocked = ""
    try:
        services.check_can_propose_tiebreak(event)
    except SpinnerError as exc:
        propose_blocked = exc.message
    try:
        services.check_can_seed(event)
    except SpinnerError as exc:
        seed_blocked = exc.message
    try:
        recompute: StandingsRecompute | None = event.standings_recompute
    except StandingsRecompute.DoesNotExist:
        recompute = None
    return {
        "event": event,
        "standings": standings,
        "meta": standings.meta,
        "recompute": recompute,
        "ties": ties,
        "places": standings.document.get("places_that_matter", places_that_matter(event)),
        "main_closed": progress.closed,
        "main_expected": progress.expected,
        "main_complete": progress.complete,
        "can_propose": not propose_blocked,
        "propose_blocked": propose_blocked,
        "can_seed": not seed_blocked,
        "seed_blocked": seed_blocked,
        "playoff_exists": Round.objects.filter(event=event, kind=Round.Kind.PLAYOFF).exists(),
        "tiebreak_rounds": list(
            Round.objects.filter(event=event, kind=Round.Kind.TIEBREAK)
            .order_by("-number")
            .prefetch_related("matches__entry_a", "matches__entry_b", "matches__table")
        ),
        "jobs": list(
            BackgroundJob.objects.filter(
                event=event, kind__in=(services.PROPOSE_JOB, services.SEED_JOB)
            ).order_by("-created_at")[:5]
        ),
    }


def standings_lag(event: Event) -> bool:
    """True while the event's standings lag its confirmed results: marked dirty, or a results
    generation newer than the last one computed (one query)."""
    row = (
        StandingsState.objects.filter(pk=event.pk)
        .values_list(
            "dirty", "results_generation", "event__standings_recompute__computed_generation"
        )
        .first()
    )
    if row is None:
        return False
    dirty, generation, computed = row
    return bool(dirty) or generation > (computed or 0)


def ranking_for_pairing(event: Event) -> dict[int, int]:
    """Each entry's rank in the latest standings snapshot (tied entries share it); one query.

    For the Swiss pairing of round n+1 (issue 5): rank entries by
    ``pairing.rank(records, key=pairing_rank_key(event), ...)``: this order (match points, then
    the event's whole tiebreak list) with the salted lot breaking what stays tied. Entries not in
    the snapshot (registered late) rank after everyone. Empty when no snapshot exists.
    """
    row = (
        StandingsSnapshot.objects.filter(event_id=event.pk)
        .order_by("-generation")
        .values_list("data", flat=True)
        .first()
    )
    if row is None:
        return {}
    document = json.loads(row)
    return {
        int(r["entry_id"]): int(r["rank"]) for r in document.get("standings", {}).get("rows", [])
    }


def pairing_rank_key(event: Event) -> Any:
    """A ``key`` for ``tournaments.pairing.rank``: the entry's rank in the latest standings (see
    :func:`ranking_for_pairing`), then match points and spread as the pairing records hold them
    (which only matters for entries the snapshot does not know)."""
    ranks = ranking_for_pairing(event)
    last = len(ranks) + 1

    def key(entry: Any) -> tuple[Any, ...]:
        return (ranks.get(entry.entry_id, last), -entry.match_points, -entry.spread)

    return key


# --- Other areas' pages and documents -----------------------------------------------------------


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
            {
                "rank": r["rank"],
                "entry_id": r["entry_id"],
                "name": r["name"],
                "values": dict(zip(names, r["values"], strict=True)),
                "record": {
                    **{
                        key: r[key]
                        for key in ("played", "wins", "draws", "losses", "byes", "forfeits")
                    },
                    **{
                        key: extra.get(str(r["entry_id"]), {}).get(key)
                        for key in ("points_for", "points_against", "spread")
                    },
                },
                "tiebreak_rounds": r["settlement"],
                "matches": r["match_ids"],
                "tiebreak_matches": r["settlement_match_ids"],
                "withdrawn": bool(extra.get(str(r["entry_id"]), {}).get("withdrawn")),
            }
            for r in standings["rows"]
        ],
    }


def round_results(round_id: int) -> dict[int, dict[str, Any]]:
    """The confirmed result of each match of a round, by match id (one query), for the public
    round page: scores in seat order as exact text, the winning side, verified or not."""
    return {
        match_id: {
            "score_a": _score_text(a),
            "score_b": _score_text(b),
            "winner_side": winner,
            "verified": verified,
        }
        for match_id, a, b, winner, verified in MatchResult.objects.filter(
            match__round_id=round_id, is_current=True
        ).values_list("match_id", "score_a_halves", "score_b_halves", "winner_side", "verified")
    }
