"""Reads for rounds and pairings: the pairing package's records, the round pages, the checker,
and the event export.

Every function here reads with a fixed number of queries (pinned in the tests), whatever the size
of the event. The writes live in ``tournaments/services/rounds.py``.

Terms: an *active* entry is checked in and not withdrawn (only those are paired); a round is
*public* once published (published, in play or closed), and only where the event makes its
pairings public (``tournaments.permissions.can_see``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from tournaments.models import Entry, EntryPlayer, Event, Match, MatchResult, Round
from tournaments.pairing.checker import check_round
from tournaments.pairing.records import (
    Bye,
    EntryRecord,
    Explanation,
    Number,
    Pairing,
    PastMatch,
    RoundKind,
    RoundPairing,
    Violation,
)
from tournaments.selectors.live import points_config, standings_result
from tournaments.selectors.results import results_for_export
from tournaments.standings import result_points
from tournaments.standings.records import normalise

PAIRED_KINDS = (Round.Kind.SWISS, Round.Kind.ROUND_ROBIN)
"""Round kinds whose byes are real byes (worth ``points_bye``); a play-off bye just advances."""

PUBLIC_STATUSES = (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.CLOSED)
"""Round statuses the public may see (a draft is the director's alone)."""


# --- Results for pairing: the one place issue 6/8 fill in ----------------------------------


@dataclass(frozen=True, slots=True)
class PairingResult:
    """What the pairing needs from the results of one entry: match points and spread so far."""

    match_points: Number = 0
    spread: Number = 0


def results_for_pairing(event: Event) -> dict[int, PairingResult]:
    """Match points and spread per entry id, over every non-draft Swiss or round-robin round.

    Match points are the standings' own (``tournaments.standings.result_points`` with the
    event's ``points_config``: win, draw, loss, bye and the margin bonus), so the pairing's
    records agree with the published standings. A bye is worth the bye points and no spread; a
    played match counts once its result is confirmed (the current ``MatchResult``), and each
    side's spread moves by the raw score difference (exact: halves occur in ``all-fives`` with
    three players). Entries without a result are absent (read them as zero). Two queries.
    """
    points = points_config(event)
    earned: dict[int, Number] = defaultdict(int)
    spread: dict[int, Number] = defaultdict(int)
    byes = Match.objects.filter(
        round__event=event, is_bye=True, round__kind__in=PAIRED_KINDS
    ).exclude(round__status=Round.Status.DRAFT)
    for entry_id in byes.values_list("entry_a_id", flat=True):
        earned[entry_id] += points.bye
    played = (
        MatchResult.objects.filter(
            is_current=True,
            match__round__event=event,
            match__round__kind__in=PAIRED_KINDS,
            match__is_bye=False,
        )
        .exclude(match__round__status=Round.Status.DRAFT)
        .values_list(
            "match_id",
            "match__round__number",
            "match__round__kind",
            "match__entry_a_id",
            "match__entry_b_id",
            "score_a_halves",
            "score_b_halves",
            "winner_side",
        )
    )
    for match_id, number, kind, entry_a, entry_b, halves_a, halves_b, winner in played:
        if entry_b is None:
            continue
        result = standings_result(
            match_id, number, kind, entry_a, entry_b, halves_a, halves_b, winner
        )
        earned[entry_a] += result_points(result, entry_a, points)
        earned[entry_b] += result_points(result, entry_b, points)
        diff = normalise(result.score_a - result.score_b)
        spread[entry_a] += diff
        spread[entry_b] -= diff
    return {
        entry_id: PairingResult(
            match_points=normalise(earned[entry_id]), spread=normalise(spread[entry_id])
        )
        for entry_id in set(earned) | set(spread)
    }


# --- Records for the pairing package ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairingInputs:
    """Everything the pairing algorithms need about an event before round ``round_no``.

    ``entries`` holds every entry of the event (``active`` marks those to pair), ``history``
    every match and bye of the rounds before ``round_no``, and ``names`` the entries' display
    names (for messages).
    """

    round_no: int
    entries: tuple[EntryRecord, ...]
    history: tuple[PastMatch, ...]
    names: dict[int, str] = field(default_factory=dict)

    @property
    def active(self) -> tuple[EntryRecord, ...]:
        return tuple(e for e in self.entries if e.active)


def _rating(ratings: list[int]) -> Number | None:
    """An entry's rating: the mean of its players' known ratings (exact), or None."""
    if not ratings:
        return None
    mean = Fraction(sum(ratings), len(ratings))
    return int(mean) if mean.denominator == 1 else mean


def _members(event: Event) -> dict[int, list[tuple[int, int | None]]]:
    """Entry id -> [(player id, rating)] for every entry of the event. One query."""
    members: dict[int, list[tuple[int, int | None]]] = defaultdict(list)
    rows = EntryPlayer.objects.filter(event=event).values_list(
        "entry_id", "player_id", "player__rating"
    )
    for entry_id, player_id, rating in rows:
        members[entry_id].append((player_id, rating))
    return members


def pairing_inputs(
    event: Event, *, round_no: int, active_ids: frozenset[int] | None = None
) -> PairingInputs:
    """Read the event into the pairing package's records, as they stand before ``round_no``.

    ``active`` is "checked in" unless ``active_ids`` says which entries were active (the checker
    passes the set recorded when the round was generated). Opponent history is per player
    (``EntryPlayer``); ``byes_received`` counts byes in earlier rounds; match points and spread
    come from ``results_for_pairing``. Five queries.
    """
    members = _members(event)
    entries = list(
        Entry.objects.filter(event=event)
        .order_by("pk")
        .values_list("pk", "name", "status", "seed", "pinned_table")
    )
    past = list(
        Match.objects.filter(round__event=event, round__number__lt=round_no)
        .order_by("round__number", "pk")
        .values_list("round__number", "round__kind", "entry_a_id", "entry_b_id")
    )
    results = results_for_pairing(event)
    byes: dict[int, int] = defaultdict(int)
    history: list[PastMatch] = []
    players = {entry_id: frozenset(p for p, _ in rows) for entry_id, rows in members.items()}
    for number, kind, a, b in past:
        if b is None and kind in PAIRED_KINDS:
            byes[a] += 1
        history.append(
            PastMatch(
                round_no=number,
                entry_a=a,
                players_a=players.get(a, frozenset()),
                entry_b=b,
                players_b=players.get(b, frozenset()) if b is not None else frozenset(),
            )
        )
    records: list[EntryRecord] = []
    names: dict[int, str] = {}
    for pk, name, status, seed, pinned in entries:
        result = results.get(pk, PairingResult())
        active = status == Entry.Status.CHECKED_IN if active_ids is None else pk in active_ids
        records.append(
            EntryRecord(
                entry_id=pk,
                player_ids=players.get(pk, frozenset()),
                match_points=result.match_points,
                spread=result.spread,
                byes_received=byes[pk],
                rating=_rating([r for _, r in members.get(pk, []) if r is not None]),
                seed=seed,
                pinned_table=pinned,
                active=active,
            )
        )
        names[pk] = name
    return PairingInputs(
        round_no=round_no, entries=tuple(records), history=tuple(history), names=names
    )


def round_pairing_record(rnd: Round, matches: list[Match] | None = None) -> RoundPairing:
    """A stored round as the pairing package's ``RoundPairing`` (for the checker).

    A match a director edited carries its reason as ``override``. ``matches`` may be given
    (with ``table`` selected) to save the query.
    """
    if matches is None:
        matches = list(rnd.matches.select_related("table").order_by("pk"))
    pairings: list[Pairing] = []
    byes: list[Bye] = []
    for m in matches:
        why = explanation_record(m.explanation)
        override = override_reason(m.explanation)
        if m.is_bye or m.entry_b_id is None:
            byes.append(Bye(entry_id=m.entry_a_id, explanation=why, override=override))
        else:
            pairings.append(
                Pairing(
                    table=m.table.number if m.table is not None else 0,
                    entry_a=m.entry_a_id,
                    entry_b=m.entry_b_id,
                    explanation=why,
                    override=override,
                )
            )
    pairings.sort(key=lambda p: p.table)
    return RoundPairing(
        round_no=rnd.number,
        kind=CHECK_KINDS[rnd.kind],
        pairings=tuple(pairings),
        byes=tuple(byes),
    )


def explanation_record(data: dict[str, Any]) -> Explanation:
    """The ``Explanation`` stored (as JSON) on a match."""
    return Explanation(
        method=str(data.get("method", "")),
        reason=str(data.get("reason", "")),
        score_group=json_number(data.get("score_group")),
        float_points=json_number(data.get("float_points")) or 0,
        rematch=bool(data.get("rematch", False)),
        ranks=tuple(int(r) for r in data.get("ranks", ()) or ()),
        window=data.get("window"),
    )


def override_reason(data: dict[str, Any]) -> str | None:
    """The director's reason when the match was edited by hand, else None."""
    overrides = data.get("overrides") or []
    if not overrides:
        return None
    return "; ".join(str(o.get("reason", "")) for o in overrides) or None


def json_number(value: Any) -> Number | None:
    """Read back a number written by ``tournaments.pairing.export.number`` (int, or "p/q")."""
    if value is None:
        return None
    if isinstance(value, int):
        return value
    fraction = Fraction(str(value))
    return int(fraction) if fraction.denominator == 1 else fraction


# --- The checker ---------------------------------------------------------------------------

CHECK_KINDS: dict[str, RoundKind] = {
    Round.Kind.SWISS: "swiss",
    Round.Kind.ROUND_ROBIN: "round_robin",
    Round.Kind.PLAYOFF: "bracket",
    Round.Kind.TIEBREAK: "bracket",
}


def recorded_active(rnd: Round) -> frozenset[int] | None:
    """The entries that were active when the round was generated (recorded on the round)."""
    ids = rnd.explanation.get("active_entries") if isinstance(rnd.explanation, dict) else None
    return frozenset(int(i) for i in ids) if ids is not None else None


def check_round_record(rnd: Round) -> list[Violation]:
    """Re-check one stored round with the pairing package's independent checker.

    The entries are read as they stood before the round (active: those recorded when it was
    generated, else the checked-in ones); the history is every earlier round. Swiss rounds are
    checked for avoidable rematches; every round for byes, each active entry exactly once, and
    pins. A match a director edited with a reason reports ``override``, not a violation.
    Six queries (the round's event already loaded).
    """
    inputs = pairing_inputs(rnd.event, round_no=rnd.number, active_ids=recorded_active(rnd))
    record = round_pairing_record(rnd)
    return check_round(record, inputs.entries, inputs.history, kind=CHECK_KINDS[rnd.kind])


def check_rounds(event: Event, *, number: int | None = None) -> list[tuple[Round, list[Violation]]]:
    """Re-check the published rounds of ``event`` (or only round ``number``, in any status).

    Raises ``Round.DoesNotExist`` for an unknown round number.
    """
    if number is not None:
        rounds = [Round.objects.select_related("event").get(event=event, number=number)]
    else:
        rounds = list(
            Round.objects.select_related("event")
            .filter(event=event, status__in=PUBLIC_STATUSES)
            .order_by("number")
        )
    return [(rnd, check_round_record(rnd)) for rnd in rounds]


def violation_line(violation: Violation) -> str:
    """``round N table T: CODE message`` (``round N: ...`` when no table is concerned; ``round N
    bye: ...`` for a bye)."""
    if violation.table is not None:
        where = f" table {violation.table}"
    elif violation.code in ("second_bye", "bye_count") or "bye" in violation.message:
        where = " bye"
    else:
        where = ""
    return f"round {violation.round_no}{where}: {violation.code} {violation.message}"


# --- Pages ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EntryView:
    """An entry as a round page shows it: its name and its players' names (no contact details)."""

    entry_id: int
    name: str
    players: tuple[str, ...]

    def matches_query(self, query: str) -> bool:
        q = query.casefold()
        return q in self.name.casefold() or any(q in p.casefold() for p in self.players)


@dataclass(frozen=True, slots=True)
class MatchView:
    """One match (or bye) of a round page, in seat order."""

    match_id: int
    table: int | None
    entry_a: EntryView
    entry_b: EntryView | None
    reason: str
    explanation: dict[str, Any]
    overrides: tuple[dict[str, Any], ...]
    bracket_slot: str
    first_leader: str = ""

    @property
    def is_bye(self) -> bool:
        return self.entry_b is None

    @property
    def entries(self) -> tuple[EntryView, ...]:
        return (self.entry_a,) if self.entry_b is None else (self.entry_a, self.entry_b)


@dataclass(frozen=True, slots=True)
class RoundView:
    """A round with its matches by table and its byes."""

    round: Round
    matches: tuple[MatchView, ...]
    byes: tuple[MatchView, ...]

    def filtered(self, query: str) -> RoundView:
        """Only the tables and byes where an entry or a player name contains ``query``."""
        query = query.strip()
        if not query:
            return self
        keep = [m for m in self.matches if any(e.matches_query(query) for e in m.entries)]
        byes = [m for m in self.byes if m.entry_a.matches_query(query)]
        return RoundView(round=self.round, matches=tuple(keep), byes=tuple(byes))

    @property
    def size(self) -> int:
        """Tables plus byes."""
        return len(self.matches) + len(self.byes)

    @property
    def entries(self) -> list[EntryView]:
        """Every entry of the round, by name."""
        return sorted(
            (e for m in (*self.matches, *self.byes) for e in m.entries),
            key=lambda e: e.name.casefold(),
        )


def list_rounds(event: Event) -> list[Round]:
    """The event's rounds in order, each with ``match_count`` and ``bye_count``. One query."""
    from django.db.models import Count, Q

    return list(
        Round.objects.filter(event=event)
        .annotate(
            match_count=Count("matches", filter=Q(matches__is_bye=False)),
            bye_count=Count("matches", filter=Q(matches__is_bye=True)),
        )
        .order_by("number")
    )


def list_public_rounds(event: Event) -> list[Round]:
    """The rounds the public may see (published, in play or closed). One query."""
    return list(Round.objects.filter(event=event, status__in=PUBLIC_STATUSES).order_by("number"))


def latest_generate_job(event: Event) -> Any:
    """The event's most recent round-generation job, or None. One query."""
    from tournaments.models import BackgroundJob

    return BackgroundJob.objects.filter(event=event, kind="generate_round").order_by("-pk").first()


def get_round(event: Event, number: int, *, public: bool = False) -> Round:
    """Round ``number`` of ``event`` (only a public one when ``public``); raises
    ``Round.DoesNotExist``. One query."""
    rounds = Round.objects.select_related("event").filter(event=event, number=number)
    if public:
        rounds = rounds.filter(status__in=PUBLIC_STATUSES)
    return rounds.get()


def round_view(rnd: Round) -> RoundView:
    """The round's matches by table and its byes, with each entry's players. Two queries."""
    matches = list(
        Match.objects.filter(round=rnd)
        .select_related("table", "entry_a", "entry_b")
        .order_by("table__number", "pk")
    )
    ids = {m.entry_a_id for m in matches} | {m.entry_b_id for m in matches if m.entry_b_id}
    players: dict[int, list[str]] = defaultdict(list)
    player_names: dict[int, str] = {}
    for entry_id, player_id, name in (
        EntryPlayer.objects.filter(entry_id__in=ids)
        .order_by("entry_id", "pk")
        .values_list("entry_id", "player_id", "player__name")
    ):
        players[entry_id].append(name)
        player_names[player_id] = name

    def view(entry: Entry) -> EntryView:
        return EntryView(entry.pk, entry.name, tuple(players.get(entry.pk, ())))

    tables: list[MatchView] = []
    byes: list[MatchView] = []
    for m in matches:
        data = m.explanation if isinstance(m.explanation, dict) else {}
        item = MatchView(
            match_id=m.pk,
            table=m.table.number if m.table is not None else None,
            entry_a=view(m.entry_a),
            entry_b=view(m.entry_b) if m.entry_b is not None else None,
            reason=str(data.get("reason", "")),
            explanation=data,
            overrides=tuple(data.get("overrides") or ()),
            bracket_slot=m.bracket_slot,
            first_leader=player_names.get((data.get("first_leader") or {}).get("player", 0), ""),
        )
        (byes if m.is_bye else tables).append(item)
    tables.sort(key=lambda v: v.table or 0)
    byes.sort(key=lambda v: v.entry_a.name.casefold())
    return RoundView(round=rnd, matches=tuple(tables), byes=tuple(byes))


_ENTRY_ID = re.compile(r"\bentry (\d+)|\bentries (\d+) and (\d+)")


def describe_violation(violation: Violation, names: dict[int, str]) -> str:
    """A violation line with entry ids followed by their names, for people."""

    def named(match: re.Match[str]) -> str:
        if match.group(1):
            n = int(match.group(1))
            return f"entry {n} ({names.get(n, '?')})"
        a, b = int(match.group(2)), int(match.group(3))
        return f"entries {a} ({names.get(a, '?')}) and {b} ({names.get(b, '?')})"

    return _ENTRY_ID.sub(named, violation_line(violation))


def round_conflicts(rnd: Round, *, swap: tuple[int, int] | None = None) -> list[Violation]:
    """The checker's findings on a round, optionally as if entries ``swap`` were exchanged
    (a preview while editing: nothing is written)."""
    inputs = pairing_inputs(rnd.event, round_no=rnd.number, active_ids=recorded_active(rnd))
    record = round_pairing_record(rnd)
    if swap is not None:
        record = swapped(record, *swap)
    return check_round(record, inputs.entries, inputs.history, kind=CHECK_KINDS[rnd.kind])


def swapped(record: RoundPairing, x: int, y: int) -> RoundPairing:
    """``record`` with entries ``x`` and ``y`` exchanged (wherever they sit, byes included)."""

    def swap(e: int) -> int:
        return y if e == x else x if e == y else e

    return replace(
        record,
        pairings=tuple(
            replace(p, entry_a=swap(p.entry_a), entry_b=swap(p.entry_b)) for p in record.pairings
        ),
        byes=tuple(replace(b, entry_id=swap(b.entry_id)) for b in record.byes),
    )


# --- The event export -------------------------------------------------------------------------

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
            "time_policy": event.time_policy,
            "round_minutes": event.round_minutes,
            "allow_final_score_only": event.allow_final_score_only,
            "format": event.format,
            "swiss_rounds": event.swiss_rounds,
            "playoff": event.playoff,
            "playoff_qualifiers": event.playoff_qualifiers,
            "playoff_consolation": event.playoff_consolation,
            "first_round": event.first_round,
            "points": {
                "win": event.points_win,
                "draw": event.points_draw,
                "loss": event.points_loss,
                "bye": event.points_bye,
                "margin_bonus_points": event.margin_bonus_points,
                "margin_bonus_at": event.margin_bonus_at,
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


def _match_json(m: Match, result: dict[str, Any] | None = None) -> dict[str, Any]:
    """One match of the export. ``result`` is the extension point of issue 6 (the confirmed
    result and its scoresheet); it is null until results exist."""
    data = m.explanation if isinstance(m.explanation, dict) else {}
    why = {k: v for k, v in data.items() if k not in ("overrides", "bye")}
    return {
        "table": m.table.number if m.table is not None else None,
        "bye": m.is_bye,
        "entries": [m.entry_a_id] if m.entry_b_id is None else [m.entry_a_id, m.entry_b_id],
        "bracket_slot": m.bracket_slot or None,
        "why": why,
        "overrides": list(data.get("overrides") or []),
        "result": result,
    }


def export_event(event: Event) -> dict[str, Any]:
    """The whole event as one JSON-ready document (format ``EXPORT_FORMAT``; see
    ``docs/export.md``): the event and its settings, the players (names, clubs, ratings; never
    contact details), the entries, the tables, and every round with its matches in table order
    (entries in seat order, byes, why each pairing was made, the director's overrides).

    Extension points: each match's ``result`` (issue 6) is null until it exists; the top-level
    ``standings`` (issue 8) is the latest standings snapshot, null before the first. Seven
    queries.
    """
    from django.utils import timezone

    from tournaments.models import Table
    from tournaments.selectors import live as live_selectors

    members = list(
        EntryPlayer.objects.filter(event=event).select_related("player").order_by("entry_id", "pk")
    )
    players = {m.player_id: m.player for m in members}
    by_entry: dict[int, list[int]] = defaultdict(list)
    for m in members:
        by_entry[m.entry_id].append(m.player_id)
    entries = list(Entry.objects.filter(event=event).order_by("pk"))
    tables = list(Table.objects.filter(event=event).order_by("number"))
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    results = results_for_export(event)
    matches: dict[int, list[Match]] = defaultdict(list)
    for match in (
        Match.objects.filter(round__event=event)
        .select_related("table")
        .order_by("round_id", "is_bye", "table__number", "pk")
    ):
        matches[match.round_id].append(match)
    return {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now().isoformat(),
        "event": _event_json(event),
        "players": [
            {"id": p.pk, "name": p.name, "club": p.club, "rating": p.rating}
            for p in sorted(players.values(), key=lambda p: p.pk)
        ],
        "entries": [
            {
                "id": e.pk,
                "name": e.name,
                "kind": "partnership" if e.partnership_id is not None else "single",
                "players": by_entry.get(e.pk, []),
                "seed": e.seed,
                "status": e.status,
                "late": e.late,
                "pinned_table": e.pinned_table,
            }
            for e in entries
        ],
        "tables": [{"number": t.number, "location": t.location} for t in tables],
        "rounds": [
            {
                "number": r.number,
                "kind": r.kind,
                "status": r.status,
                "time_limit_minutes": r.time_limit_minutes,
                "published_at": _iso(r.published_at),
                "closed_at": _iso(r.closed_at),
                "explanation": r.explanation,
                "matches": [_match_json(m, results.get(m.pk)) for m in matches.get(r.pk, [])],
            }
            for r in rounds
        ],
        # The latest standings snapshot, with every tiebreak value (issue 8).
        "standings": live_selectors.standings_for_export(event),
    }
