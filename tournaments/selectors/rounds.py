"""Reads for rounds and pairings: the round pages and lists, the pairing checker's records.

Every function here reads with a fixed number of queries (pinned in the tests), whatever the size
of the event. The writes live in ``tournaments/services/round_*.py``.

Terms: a round is *public* once published (published, in play or closed), and only where the
event makes its pairings public (``tournaments.permissions.can_see``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext

from tournaments import game, job_kinds
from tournaments.models import BackgroundJob, Entry, EntryPlayer, Event, Match, MatchResult, Round
from tournaments.pairing.checker import check_round
from tournaments.pairing.records import (
    Bye,
    Explanation,
    Number,
    Pairing,
    RoundKind,
    RoundPairing,
    Violation,
)
from tournaments.search_keys import name_key
from tournaments.selectors.bracket import check_playoff, stored_bracket
from tournaments.selectors.pairing_inputs import pairing_inputs
from tournaments.selectors.pairing_reasons import (
    match_reason,
    override_what,
    rule_name,
    violation_message,
)
from tournaments.selectors.tables_rounds import (
    check_tables_record,
    is_tables_round,
    seated_entries,
)
from tournaments.stage_names import slot_name

PUBLIC_STATUSES = (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.CLOSED)
"""Round statuses the public may see (a draft is the director's alone)."""


def round_pairing_record(rnd: Round, matches: list[Match] | None = None) -> RoundPairing:
    """A stored round as the pairing package's ``RoundPairing`` (for the checker).

    A match a director edited carries its reason as ``override``. ``matches`` may be given
    (with ``table`` selected) to save the query.
    """
    if matches is None:
        matches = list(rnd.matches.select_related("table").order_by("pk"))
    matches = [m for m in matches if m.game_no == 1]  # a best-of match's later games: one pairing
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
    if is_tables_round(rnd):
        return check_tables_record(rnd, active_ids=recorded_active(rnd))
    inputs = pairing_inputs(rnd.event, round_no=rnd.number, active_ids=recorded_active(rnd))
    record = round_pairing_record(rnd)
    return check_round(record, inputs.entries, inputs.history, kind=CHECK_KINDS[rnd.kind])


def check_rounds(event: Event, *, number: int | None = None) -> list[tuple[Round, list[Violation]]]:
    """Re-check the published rounds of ``event`` (or only round ``number``, in any status);
    play-off rounds also by the bracket checker (``selectors.bracket.check_playoff``).

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
    checked = [(rnd, check_round_record(rnd)) for rnd in rounds]
    if any(rnd.kind == Round.Kind.PLAYOFF for rnd, _ in checked):
        by_number = {rnd.number: findings for rnd, findings in checked}
        for violation in check_playoff(event):  # every bracket match, feeders resolved
            if violation.round_no in by_number:
                by_number[violation.round_no].append(violation)
    return checked


def violation_line(violation: Violation) -> str:
    """``round N table T: CODE message`` (``round N: ...`` when no table is concerned; ``round N
    bye: ...`` for a bye), in English: what ``check_pairings`` prints."""
    if violation.table is not None:
        where = f" table {violation.table}"
    elif _at_bye(violation):
        where = " bye"
    else:
        where = ""
    return f"round {violation.round_no}{where}: {violation.code} {violation.message}"


def _at_bye(violation: Violation) -> bool:
    """Whether a violation without a table concerns a bye."""
    return violation.code in ("second_bye", "bye_count") or "bye" in violation.message


@dataclass(frozen=True, slots=True)
class EntryView:
    """An entry as a round page shows it: its name and its players' names (no contact details)."""

    entry_id: int
    name: str
    players: tuple[str, ...]

    def matches_query(self, query: str) -> bool:
        """Whether ``query`` is in the entry's or a player's name, accents, case and spacing
        ignored ("ramirez" finds "Ramírez")."""
        q = name_key(query)
        return q in name_key(self.name) or any(q in name_key(p) for p in self.players)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat of a table of many (three or four individual players): the seat (0 to 3,
    clockwise from North), the table's size and who sits there."""

    seat: int
    size: int
    entry: EntryView

    @property
    def compass(self) -> str:
        """Where the seat is, in the reader's language (North, East, South, West)."""
        return game.compass_point(self.seat, self.size)


@dataclass(frozen=True, slots=True)
class MatchView:
    """One match (or bye) of a round page, in seat order. At a table of many, ``seats`` holds
    every seat (``entry_a`` and ``entry_b`` are seats 0 and 1); empty at a table of two."""

    match_id: int
    table: int | None
    entry_a: EntryView
    entry_b: EntryView | None
    reason: str
    explanation: dict[str, Any]
    overrides: tuple[dict[str, Any], ...]
    bracket_slot: str
    first_leader: str = ""
    stage: str = ""  # a play-off match's stage ("Final", "Semi-final", ...)
    series: str = ""  # a best-of match's score so far ("Best of 3 · 1–0")
    others: tuple[EntryView, ...] = ()  # a table of many: the entries of seats 2 and 3
    seats: tuple[SeatView, ...] = ()  # a table of many: every seat, with its compass point

    @property
    def is_bye(self) -> bool:
        return self.entry_b is None

    @property
    def many(self) -> bool:
        """A table of three or four players (every seat in ``seats``)."""
        return bool(self.seats)

    @property
    def entries(self) -> tuple[EntryView, ...]:
        """Every entry at the table in seat order (a bye: its one entry)."""
        if self.entry_b is None:
            return (self.entry_a,)
        return (self.entry_a, self.entry_b, *self.others)

    @property
    def at_table_of_many(self) -> bool:
        return bool(self.others)


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


def rounds_with_counts(event: Event) -> QuerySet[Round]:
    """The event's rounds in order, each with ``match_count`` (tables: a best-of match counts
    once) and ``bye_count``; a queryset, for the API's cursor pages. One query when read."""
    return (
        Round.objects.filter(event=event)
        .annotate(
            match_count=Count("matches", filter=Q(matches__is_bye=False, matches__game_no=1)),
            bye_count=Count("matches", filter=Q(matches__is_bye=True)),
        )
        .order_by("number")
    )


def list_rounds(event: Event) -> list[Round]:
    """The event's rounds in order, each with ``match_count`` and ``bye_count``. One query."""
    return list(rounds_with_counts(event))


def list_public_rounds(event: Event) -> list[Round]:
    """The rounds the public may see (published, in play or closed). One query."""
    return list(
        Round.objects.filter(event=event, status__in=PUBLIC_STATUSES)
        .defer("explanation")  # how each round was paired: large, and not what this lists
        .order_by("number")
    )


def latest_generate_job(event: Event) -> Any:
    """The event's most recent round-generation job, or None. One query."""

    return (
        BackgroundJob.objects.filter(event=event, kind=job_kinds.GENERATE_ROUND)
        .order_by("-pk")
        .first()
    )


def tabled_matches(rnd: Round) -> list[Match]:
    """The round's matches at tables (a best-of match: its first game, which holds the seats),
    by table, with their tables and entries. One query."""
    return list(
        Match.objects.filter(round=rnd, table__isnull=False, entry_b__isnull=False, game_no=1)
        .select_related("table", "entry_a", "entry_b")
        .order_by("table__number")
    )


def director_job(event: Event, job_id: int) -> BackgroundJob:
    """A director's job of ``event`` (generate a round, propose a tiebreak round, seed the
    play-off: ``job_kinds.LABELS``); raises ``BackgroundJob.DoesNotExist``. One query."""
    return BackgroundJob.objects.get(pk=job_id, event=event, kind__in=list(job_kinds.LABELS))


def get_round(event: Event, number: int, *, public: bool = False) -> Round:
    """Round ``number`` of ``event`` (only a public one when ``public``); raises
    ``Round.DoesNotExist``. One query."""
    rounds = Round.objects.select_related("event").filter(event=event, number=number)
    if public:
        # the public page does not show how the round was paired (200+ KB of JSON at 500 tables)
        rounds = rounds.filter(status__in=PUBLIC_STATUSES).defer("explanation")
    return rounds.get()


def round_counts(rnd: Round) -> tuple[int, int]:
    """``(tables, byes)`` of the round: a best-of match counts once. One query."""
    counts = Match.objects.filter(round=rnd).aggregate(
        tables=Count("pk", filter=Q(is_bye=False, game_no=1)),
        byes=Count("pk", filter=Q(is_bye=True)),
    )
    return counts["tables"], counts["byes"]


SEATING_FIELDS = (
    "round_id",
    "is_bye",
    "game_no",
    "table_entries",
    "bracket_slot",
    "table__number",
    "entry_a__name",
    "entry_b__name",
)
"""What :func:`round_view` reads of a match and its table and entries when not ``explained``."""


def round_view(
    rnd: Round,
    window: tuple[int, int] | None = None,
    *,
    with_byes: bool = True,
    explained: bool = True,
) -> RoundView:
    """The round's matches by table and its byes, with each entry's players (every seat of a
    table of many). Two queries (three with tables of many, two more for a play-off round's
    labels, one more for a window's byes).

    ``window=(start, stop)`` reads only those tables (0-based, by table number, as
    ``matches[start:stop]`` of the whole view) and ``with_byes=False`` none of the byes: a
    slice of a long round's page reads 50 tables, not 500. A play-off round is always read
    whole (its series count every game) and then cut.

    Not ``explained``: only who sits where (a page that seats people, the projector): no match's
    ``reason``, ``explanation``, ``overrides``, ``first_leader``, ``stage`` or ``series``, and
    only :data:`SEATING_FIELDS` read (at 500 tables about half the cost: the explanations' JSON
    and the models' other fields)."""
    playoff = rnd.kind == Round.Kind.PLAYOFF
    whole = window is None or playoff
    matches = _round_matches(
        rnd, None if whole else window, with_byes=with_byes, explained=explained
    )
    labels = bracket_labels(rnd, matches) if explained and playoff else {}
    matches = [m for m in matches if m.game_no == 1]  # a best-of match shows once
    seated = seated_entries(matches)
    ids = {m.entry_a_id for m in matches} | {m.entry_b_id for m in matches if m.entry_b_id}
    ids |= {e.pk for entries in seated.values() for e in entries}
    players, player_names = _players_of_entries(ids)

    def view(entry: Entry) -> EntryView:
        return EntryView(entry.pk, entry.name, tuple(players.get(entry.pk, ())))

    tables: list[MatchView] = []
    byes: list[MatchView] = []
    for m in matches:
        data = m.explanation if explained and isinstance(m.explanation, dict) else {}
        item = _match_view(
            m,
            data,
            seated.get(m.pk, []),
            view,
            first_leader=player_names.get((data.get("first_leader") or {}).get("player", 0), ""),
            label=labels.get(m.bracket_slot, ("", "")),
        )
        (byes if m.is_bye else tables).append(item)
    tables.sort(key=lambda v: v.table or 0)
    byes.sort(key=lambda v: v.entry_a.name.casefold())
    if whole and window is not None:
        tables = tables[window[0] : window[1]]
        byes = byes if with_byes else []
    return RoundView(round=rnd, matches=tuple(tables), byes=tuple(byes))


def _match_view(
    m: Match,
    data: dict[str, Any],
    seats: list[Entry],
    view: Callable[[Entry], EntryView],
    *,
    first_leader: str,
    label: tuple[str, str],
) -> MatchView:
    """One match of :func:`round_view`: ``data`` its explanation (``{}`` when not explained),
    ``seats`` its entries by seat, ``label`` its play-off stage and series."""
    return MatchView(
        match_id=m.pk,
        table=m.table.number if m.table is not None else None,
        entry_a=view(m.entry_a),
        entry_b=view(m.entry_b) if m.entry_b is not None else None,
        reason=match_reason(data),
        explanation=data,
        overrides=tuple(
            {**o, "what": override_what(o)}
            for o in data.get("overrides") or ()
            if isinstance(o, dict)
        ),
        bracket_slot=m.bracket_slot,
        first_leader=first_leader,
        stage=label[0],
        series=label[1],
        others=tuple(view(e) for e in seats[2:]),
        seats=tuple(SeatView(seat, m.table_entries, view(e)) for seat, e in enumerate(seats)),
    )


def _round_matches(
    rnd: Round, window: tuple[int, int] | None, *, with_byes: bool, explained: bool
) -> list[Match]:
    """The round's matches as :func:`round_view` reads them: all of them (``window`` None, by
    table, game and pk), or a window of its played tables and then (``with_byes``) its byes.
    One query (two for a window's byes)."""
    read = Match.objects.select_related("table", "entry_a", "entry_b")
    if not explained:
        read = read.only(*SEATING_FIELDS)
    if window is None:
        return list(read.filter(round=rnd).order_by("table__number", "game_no", "pk"))
    played = read.filter(round=rnd, is_bye=False, game_no=1).order_by("table__number", "pk")
    matches = list(played[window[0] : window[1]])
    if with_byes:
        matches += read.filter(round=rnd, is_bye=True).order_by("pk")
    return matches


def _players_of_entries(ids: set[int]) -> tuple[dict[int, list[str]], dict[int, str]]:
    """Each entry's players' names (in the order they joined) and each player's name. One
    query."""
    players: dict[int, list[str]] = defaultdict(list)
    player_names: dict[int, str] = {}
    for entry_id, player_id, name in (
        EntryPlayer.objects.filter(entry_id__in=ids)
        .order_by("entry_id", "pk")
        .values_list("entry_id", "player_id", "player__name")
    ):
        players[entry_id].append(name)
        player_names[player_id] = name
    return players, player_names


def bracket_labels(rnd: Round, matches: list[Match]) -> dict[str, tuple[str, str]]:
    """Each bracket match of a play-off round: its stage's name and, for a best-of match, the
    series so far (``"Best of 3 · 1–0"``, games won by the first entry first). Two queries."""
    stored = stored_bracket(rnd.event)
    if stored is None:
        return {}
    bracket = stored[0]
    winners = dict(
        MatchResult.objects.filter(match__in=[m.pk for m in matches], is_current=True).values_list(
            "match_id", "winner_side"
        )
    )
    wins: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    best_of: dict[str, int] = {}
    for m in matches:
        if not m.bracket_slot:
            continue
        best_of[m.bracket_slot] = m.best_of
        side = winners.get(m.pk)
        if side in (0, 1):
            wins[m.bracket_slot][side] += 1
    labels: dict[str, tuple[str, str]] = {}
    for slot, n in best_of.items():
        try:
            stage = slot_name(bracket, slot)
        except KeyError:
            stage = ""
        a, b = wins[slot]
        series = gettext("Best of %(n)s · %(a)s–%(b)s") % {"n": n, "a": a, "b": b}
        labels[slot] = (stage, series if n > 1 else "")
    return labels


def describe_violation(violation: Violation, names: dict[int, str]) -> str:
    """A violation line for people, in the active language: ``violation_line`` with the rule
    by its name and each entry id followed by the entry's name (from the violation's template
    and arguments); the English line as it is for a violation without them."""
    message = violation_message(violation, names)
    if message is None:
        return violation_line(violation)
    args = {"round": violation.round_no, "code": rule_name(violation.code), "message": message}
    if violation.table is not None:
        line = gettext("round %(round)s table %(table)s: %(code)s %(message)s")
        return line % {**args, "table": violation.table}
    if _at_bye(violation):
        return gettext("round %(round)s bye: %(code)s %(message)s") % args
    return gettext("round %(round)s: %(code)s %(message)s") % args


def round_conflicts(rnd: Round, *, swap: tuple[int, int] | None = None) -> list[Violation]:
    """The checker's findings on a round, optionally as if entries ``swap`` were exchanged
    (a preview while editing: nothing is written)."""
    if is_tables_round(rnd):
        return check_tables_record(rnd, active_ids=recorded_active(rnd), swap=swap)
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
