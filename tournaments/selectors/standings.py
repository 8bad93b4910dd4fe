"""Reads of the published standings: the latest snapshot, the pages and CSV built on it, the
final standings the tiebreak rounds and the play-off start from, and the ranking the Swiss
pairing uses.

No public request computes standings: pages read the latest :class:`StandingsSnapshot` only.
Query counts are fixed (pinned in the tests).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext

from tournaments import game
from tournaments.errors import Conflict
from tournaments.models import (
    Event,
    Round,
    StandingsSnapshot,
    StandingsState,
)
from tournaments.standings import tiebreak_label, tiebreak_short

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
                    # tables of many: [[round, place, players], ...] (empty elsewhere)
                    "placings": more.get("placings", []),
                }
            )
        return rows

    @property
    def has_tables(self) -> bool:
        """True for an individual event with tables of three or four (rows carry placings)."""
        return bool(self.document.get("tables"))

    @property
    def unbroken_ties(self) -> list[list[int]]:
        ties: list[list[int]] = self.document.get("unbroken_ties", [])
        return ties


def tiebreak_columns(names: list[str]) -> list[dict[str, Any]]:
    """Tiebreak columns, in order: name, label, short label and ``score`` (a game-points column)."""
    return [
        {
            "name": n,
            # the standings package marks its labels; a page shows them in the reader's language
            "label": gettext(tiebreak_label(n)),
            "short": gettext(tiebreak_short(n)),
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
    """The CSV's columns: rank, entry, name, every tiebreak value, the record, the settlement,
    then the game-points columns again in raw pips (``*_raw``).

    Game points are in displayed points, as every page shows them
    (:func:`tournaments.game.format_displayed`); the raw pips only as those extra columns.
    """
    return [
        "rank",
        "entry_id",
        "name",
        *standings.tiebreaks,
        *RECORD_COLUMNS,
        "tiebreak_rounds",
        "tied",
        "withdrawn",
        *(["placings"] if standings.has_tables else []),
        *(csv_column(name) for name in RECORD_COLUMNS if name in SCORE_COLUMNS),
    ]


def placings_text(placings: list[list[int]]) -> str:
    """An entry's places at tables of many for the CSV: ``"1:2/4 2:1/3"`` (round: place / players
    at the table), round order."""
    return " ".join(f"{rnd}:{place}/{size}" for rnd, place, size in placings)


def csv_rows(standings: LiveStandings, event: Event) -> list[list[str]]:
    """The CSV's rows, best first (see :func:`csv_header`): game points displayed as the
    event's players count them, every other value exact as the snapshot holds it (``2.5``,
    ``1/3``), and the raw pips at the end."""

    def shown(name: str, value: Any) -> str:
        return game.format_displayed(value, event) if name in SCORE_COLUMNS else str(value)

    out = []
    tables = standings.has_tables
    raw_columns = [name for name in RECORD_COLUMNS if name in SCORE_COLUMNS]
    for row in standings.rows:
        out.append(
            [
                str(row["rank"]),
                str(row["entry_id"]),
                row["name"],
                *(shown(n, v) for n, v in zip(standings.tiebreaks, row["values"], strict=True)),
                *(shown(name, row[name]) for name in RECORD_COLUMNS),
                row["settlement"],
                "yes" if row["tied"] else "",
                "yes" if row["withdrawn"] else "",
                *([placings_text(row["placings"])] if tables else []),
                *(str(row[name]) for name in raw_columns),
            ]
        )
    return out


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


def final_standings(event: Event) -> LiveStandings:
    """The latest standings, refusing while they lag the results or the main rounds go on."""
    progress = main_rounds_progress(event)
    if not progress.complete:
        raise Conflict(
            gettext("The main rounds are not over (%(closed)s of %(expected)s closed).")
            % {"closed": progress.closed, "expected": progress.expected},
            code="main_rounds_open",
            details={"closed": progress.closed, "expected": progress.expected},
        )
    standings = latest_standings(Event.objects.select_related("standings_state").get(pk=event.pk))
    if standings.meta.updating or not standings.meta.generation:
        raise Conflict(
            gettext("The standings are being updated: try again in a few seconds."),
            code="standings_updating",
        )
    return standings
