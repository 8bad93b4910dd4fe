"""Reads for results: a round's entry board, one match's state, the export's results.

Each selector runs a fixed number of queries whatever the number of matches (pinned in tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Exists, OuterRef, Prefetch

from tournaments import game
from tournaments.models import Claim, Event, Match, MatchResult, Round, RoundSeat
from tournaments.results_math import divergence, from_halves, state_of
from tournaments.selectors import forfeits as forfeit_reads

STATES = ("missing", "pending", "conflict", "confirmed", "bye")


@dataclass
class MatchBoard:
    """One match as the director's board and the API show it."""

    match: Match
    claims: list[Claim | None]  # each side's current claim
    result: MatchResult | None
    state: str
    history: list[Claim] = field(default_factory=list)  # every claim version, oldest first

    @property
    def table_number(self) -> int | None:
        return self.match.table.number if self.match.table_id and self.match.table else None

    @property
    def seat_entries(self) -> list[Any]:
        """At a table of many, its entries in seat order (empty for a match of two sides)."""
        if self.match.table_entries <= 2:
            return []
        rows = getattr(self.match, "seat_rows", None)
        if rows is None:  # a board made without ``_with_seats``: its seats read once here
            rows = list(
                RoundSeat.objects.filter(match=self.match).select_related("entry").order_by("side")
            )
            self.match.seat_rows = rows  # type: ignore[attr-defined]
        return [seat.entry for seat in rows]

    @property
    def side_names(self) -> list[str]:
        """The two sides' names, side A first ("" for a bye's missing side); at a table of
        many, every seat's player, seat order."""
        if self.match.table_entries > 2:
            return [entry.name for entry in self.seat_entries]
        a, b = self.match.entry_a, self.match.entry_b
        return [a.name, b.name if b is not None else ""]

    @property
    def score_text(self) -> str:
        """The confirmed score as people read it, side 0 first ("95 – 100"), or ""."""
        if self.result is None:
            return ""
        if self.result.scores_halves is not None:  # a table of many: every seat's
            return " – ".join(str(from_halves(h)) for h in self.result.scores_halves)
        a = from_halves(self.result.score_a_halves)
        b = from_halves(self.result.score_b_halves)
        return f"{a} – {b}"

    @property
    def sides(self) -> list[dict[str, Any]]:
        """Per side: its number, entry name, current claim and that claim's score as text."""
        names = self.side_names
        out = []
        for side, claim in enumerate(self.claims):
            text = ""
            if claim is not None and claim.scores_halves:  # a table of many: every seat's
                text = " – ".join(str(from_halves(h)) for h in claim.scores_halves)
            elif claim is not None and claim.score_a_halves is not None:
                a = from_halves(claim.score_a_halves)
                text = f"{a} – {from_halves(claim.score_b_halves)}"
            place = None
            if self.result is not None and self.result.placings:  # a table of many's places
                place = self.result.placings[side]
            confirmed = self._confirmed_side(claim)
            out.append(
                {
                    "side": side,
                    "name": names[side],
                    "claim": claim,
                    "score_text": text,
                    "place": place,
                    # a confirmation: whose sheet it confirmed ("" when that is not known)
                    "seat": self.seat_label(side),
                    # at a table of many a seat reads "Ann Lee (North)"; a side its name
                    "label": (
                        f"{names[side]} ({self.seat_label(side)})"
                        if self.match.table_entries > 2 and self.seat_label(side)
                        else names[side]
                    ),
                    "confirms": claim is not None and claim.confirms_id is not None,
                    "confirms_name": (
                        names[confirmed] if confirmed is not None and confirmed < len(names) else ""
                    ),
                }
            )
        return out

    def seat_label(self, side: int) -> str:
        """How a side is named in an individual event: its compass point at the table (North,
        East, ...); "" in a partnership event (its team's name says it)."""
        event = self.match.round.event
        if game.plays_in_partnerships(event.entry_kind):
            return ""
        return game.compass_point(
            side, game.seats_per_table(event.entry_kind, self.match.table_entries)
        )

    def _confirmed_side(self, claim: Claim | None) -> int | None:
        """The side whose claim ``claim`` confirmed, read from the claims already loaded (the
        current ones, the history, or the prefetched ``confirms``), never a query."""
        if claim is None or claim.confirms_id is None:
            return None
        for other in [*self.claims, *self.history]:
            if other is not None and other.pk == claim.confirms_id:
                return other.side
        cached = claim._state.fields_cache.get("confirms")
        return cached.side if cached is not None else None

    @property
    def named_history(self) -> list[tuple[str, Claim]]:
        """Every claim version with the name of the side (or seat) that sent it."""
        names = self.side_names
        return [(names[c.side] if c.side < len(names) else "", c) for c in self.history]

    def divergence(self) -> dict[str, Any] | None:
        """Where the two sides' sheets first differ (a conflict between two sheets), else None.
        At a table of many: the first two submitted claims that differ, in seat order."""
        if self.state != "conflict":
            return None
        a, b = self.claims[0], self.claims[1]
        if self.match.table_entries > 2:
            sent = [c for c in self.claims if c is not None and c.status == Claim.Status.SUBMITTED]
            a = sent[0] if sent else None
            b = next((c for c in sent if a is not None and c.digest != a.digest), None)
        if a is None or b is None:
            return None
        if a.kind != Claim.Kind.SHEET or b.kind != Claim.Kind.SHEET:
            return {"hand": None, "move": None, "note": "one side sent only a final score"}
        found = divergence(a.sheet, b.sheet)
        return found if found is not None else {"hand": None, "move": None}


def _current_claims() -> Any:
    """Each side's latest claim version only: what a board shows, whatever the drafts before."""
    newer = Claim.objects.filter(
        match=OuterRef("match"), side=OuterRef("side"), version__gt=OuterRef("version")
    )
    return Claim.objects.filter(~Exists(newer))


def _matches(queryset: Any, *, history: bool) -> Any:
    claims = Claim.objects.all() if history else _current_claims()
    return queryset.select_related("table", "entry_a", "entry_b", "round__event").prefetch_related(
        Prefetch(  # a confirmation's confirmed claim joined in: the board names whose sheet it was
            "claims",
            queryset=claims.select_related("confirms").order_by("side", "version"),
            to_attr="all_claims",
        ),
        Prefetch(  # one current result per match: by key (the default ordering joins the event)
            "results",
            queryset=MatchResult.objects.filter(is_current=True).order_by("pk"),
            to_attr="current",
        ),
    )


def _with_seats(matches: list[Match]) -> list[Match]:
    """Every seat of the tables of many among ``matches`` as ``seat_rows`` (one query, and only
    when there is one: a match of two sides reads ``entry_a`` and ``entry_b``)."""
    many = [m for m in matches if m.table_entries > 2]
    if not many:
        return matches
    by_match: dict[int, list[RoundSeat]] = {}
    rows = RoundSeat.objects.filter(match__in=many).select_related("entry").order_by("side")
    for seat in rows:
        by_match.setdefault(seat.match_id, []).append(seat)
    for m in many:
        m.seat_rows = by_match.get(m.pk, [])  # type: ignore[attr-defined]
    return matches


def _board(match: Match) -> MatchBoard:
    history: list[Claim] = list(getattr(match, "all_claims", []))
    claims: list[Claim | None] = [None] * max(2, match.table_entries)
    for claim in history:  # ordered by side, version: the last one per side wins
        claims[claim.side] = claim
    current: list[MatchResult] = list(getattr(match, "current", []))
    result = current[0] if current else None
    return MatchBoard(match, claims, result, state_of(match, claims, result), history)


def board_of(match: Match, claims: list[Claim | None], result: MatchResult | None) -> MatchBoard:
    """A match's board from rows the caller has just read or written (each side's current
    claim, the current result), with no query: what a write answers with. ``match`` has its
    round, event, entries and table loaded (``services.results.lock_match``)."""
    return MatchBoard(match, list(claims), result, state_of(match, claims, result))


def round_board(round_: Round) -> list[MatchBoard]:
    """Every match of the round with each side's current claim, its result and state, by table.
    Three queries, and its cost is independent of the drafts kept: only the latest version of
    each side is read (``history`` stays the current claims)."""
    matches = _matches(Match.objects.filter(round=round_), history=False).order_by(
        "is_bye", "table__number", "game_no", "pk"
    )
    return [_board(m) for m in _with_seats(list(matches))]


def round_claims(round_: Round) -> list[Claim]:
    """Every claim version of the round's matches, by table, side and version. One query
    (bounded per side by the claims' caps, ``services.claims.MAX_VERSIONS_PER_SIDE``)."""
    return list(
        Claim.objects.filter(match__round=round_).order_by(
            "match__is_bye", "match__table__number", "match_id", "side", "version"
        )
    )


def match_board(match_id: int) -> MatchBoard | None:
    """One match's board (None if there is no such match). Three queries (four at a table of
    many: its seats)."""
    match = _matches(Match.objects.filter(pk=match_id), history=True).order_by("pk").first()
    return _board(_with_seats([match])[0]) if match is not None else None


URGENCY = ("conflict", "missing", "pending", "confirmed", "bye")
"""The board's order: what needs the director first."""


def by_urgency(boards: list[MatchBoard], state: str = "") -> list[MatchBoard]:
    """The boards sorted by urgency (conflicts, missing, pending, confirmed, byes), then by table;
    only those in ``state`` when one is given."""
    shown = [b for b in boards if not state or b.state == state]
    return sorted(shown, key=lambda b: (URGENCY.index(b.state), b.table_number or 0, b.match.pk))


def count_states(boards: list[MatchBoard]) -> dict[str, int]:
    counts = dict.fromkeys(STATES, 0)
    for board in boards:
        counts[board.state] += 1
    return counts


def _table_of_many(result: MatchResult) -> dict[str, Any]:
    """A table of many's result in the export: every seat's score (``scores``, seat order) and
    place (``placings``). Nothing more for a match of two sides."""
    if result.scores_halves is None:
        return {}
    return {
        "scores": [from_halves(h) for h in result.scores_halves],
        "placings": result.placings,
    }


def results_for_export(event: Event) -> dict[int, dict[str, Any]]:
    """Each confirmed match of the event: its current result and scoresheet, by match id. One query.

    ``{"version", "source", "kind", "verified", "scores": [side 0, side 1] (raw; halves as
    x.5), "winner_side" (0, 1 or None: drawn), "sheet" (None for a final score only),
    "confirmed_at", "forfeit"}``: ``forfeit`` is None for a played match, else ``{"by": "a",
    "b" or "both", "no_show": bool, "mark": "forfeit", "no-show" or "double forfeit"}`` (a
    second query, for the no-shows, only when the event has a forfeit).
    """
    rows = list(
        MatchResult.objects.filter(match__round__event=event, is_current=True).order_by("match_id")
    )
    marks = forfeit_reads.marks_of(event.pk, [(r.pk, r.forfeit) for r in rows if r.forfeit])
    return {
        r.match_id: {
            "version": r.version,
            "source": r.source,
            "kind": r.kind,
            "verified": r.verified,
            "scores": [from_halves(r.score_a_halves), from_halves(r.score_b_halves)],
            "winner_side": r.winner_side,
            "sheet": r.sheet,
            "confirmed_at": r.created_at.isoformat(),
            "forfeit": {"by": r.forfeit, "no_show": marks[r.pk] == "no-show", "mark": marks[r.pk]}
            if r.forfeit
            else None,
            **_table_of_many(r),
        }
        for r in rows
    }
