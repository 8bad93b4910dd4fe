"""What the pairing package is fed: the event read into its plain records (entries, per-player
history, byes) and each entry's match points and spread so far.

Match points are the standings package's arithmetic (``tournaments.standings.result_points``
with the event's ``points_config``), margin bonus included: the pairing's records and the
published standings agree. Every read has a fixed number of queries (pinned in the tests).

Terms: an *active* entry is checked in and not withdrawn (only those are paired).

The director's constraints (every format): with ``Event.avoid_same_club`` each entry's ``club``
is its players' club (``Player.club``, compared without case or surrounding spaces); a
partnership's club is the club *both* its players belong to, so a partnership of two clubs is kept
apart from neither (no club at all: no constraint). Every ``EntryAvoidance`` of the event fills
``avoid`` on both of its entries.

Tables of many (an individual event at tables of 3 or 4): a played table is a ``PastTable`` of
every seat (``RoundSeat`` rows, ``side`` = the seat) in ``PairingInputs.tables``; its match points
are the event's placing points (``game.placing_points``) by the confirmed scores at the table and
its spread the entry's own score minus the mean of its tablemates' (``standings.multiplayer``).

Forfeits and pairing (decided for issue 12): a forfeited match, by one side or both, counts as
**met** in the history, like any match that was paired: the two entries are not paired again
(no rematch), as the pairing of that round already spent the meeting. A no-show's entry is
withdrawn, so it is not active and never paired again anyway.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import QuerySet

from tournaments import game
from tournaments.models import (
    Entry,
    EntryAvoidance,
    EntryPlayer,
    Event,
    Match,
    MatchResult,
    Round,
    RoundSeat,
)
from tournaments.pairing.records import (
    EntryRecord,
    Number,
    PastMatch,
)
from tournaments.pairing.tables_records import PastTable
from tournaments.ratings_scale import display_rating
from tournaments.selectors.standings_input import points_config, standings_result
from tournaments.standings import result_points
from tournaments.standings.multiplayer import TableResult, table_points
from tournaments.standings.records import RoundKind, normalise

PAIRED_KINDS = (Round.Kind.SWISS, Round.Kind.ROUND_ROBIN)
"""Round kinds whose byes are real byes (worth ``points_bye``); a play-off bye just advances."""


@dataclass(frozen=True, slots=True)
class PairingResult:
    """What the pairing needs from the results of one entry: match points and spread so far."""

    match_points: Number = 0
    spread: Number = 0


def results_for_pairing(event: Event, before: int | None = None) -> dict[int, PairingResult]:
    """Match points and spread per entry id, over every non-draft Swiss or round-robin round
    (numbered below ``before`` when given: as they stood when that round was paired, for the
    checker's score tier of a past round).

    Match points are the standings' own (``tournaments.standings.result_points`` with the
    event's ``points_config``: win, draw, loss, bye and the margin bonus), so the pairing's
    records agree with the published standings. A bye is worth the bye points and no spread; a
    played match counts once its result is confirmed (the current ``MatchResult``), and each
    side's spread moves by the raw score difference (exact: halves occur in ``all-fives`` with
    three players). A forfeit is worth what the event's forfeit settings say, and its score
    moves the spread only when ``forfeit_spread`` is set, as in the standings. Entries without a
    result are absent (read them as zero). Two queries.
    """
    points = points_config(event)
    earned: dict[int, Number] = defaultdict(int)
    spread: dict[int, Number] = defaultdict(int)
    for entry_id in _bye_entries(event, before):
        earned[entry_id] += points.bye
    played = _played_results(event, before)
    many: list[tuple[int, int, str, list[Any]]] = []
    for row in played:
        match_id, number, kind, entry_a, entry_b, halves_a, halves_b, winner, forfeit = row[:9]
        if entry_b is None:
            continue
        if row[9] > 2:  # a table of many: every seat's score, read below
            many.append((match_id, number, kind, row[10] if isinstance(row[10], list) else []))
            continue
        result = standings_result(
            match_id, number, kind, entry_a, entry_b, halves_a, halves_b, winner, forfeit
        )
        earned[entry_a] += result_points(result, entry_a, points)
        earned[entry_b] += result_points(result, entry_b, points)
        if not points.scores_count(forfeit=result.forfeit):
            continue  # as in the standings: this forfeit's score adds nothing to the spread
        diff = normalise(result.score_a - result.score_b)
        spread[entry_a] += diff
        spread[entry_b] -= diff
    if many:
        _tables_of_many(event, many, earned, spread)
    return {
        entry_id: PairingResult(
            match_points=normalise(earned[entry_id]), spread=normalise(spread[entry_id])
        )
        for entry_id in set(earned) | set(spread)
    }


def _bye_entries(event: Event, before: int | None) -> QuerySet[Match, int]:
    """The entry of every bye of the event's public Swiss or round-robin rounds (below
    ``before``), once a bye."""
    byes = Match.objects.filter(
        round__event=event, is_bye=True, round__kind__in=PAIRED_KINDS
    ).exclude(round__status=Round.Status.DRAFT)
    if before is not None:
        byes = byes.filter(round__number__lt=before)
    return byes.values_list("entry_a_id", flat=True)


PLAYED_FIELDS = (
    "match_id",
    "match__round__number",
    "match__round__kind",
    "match__entry_a_id",
    "match__entry_b_id",
    "score_a_halves",
    "score_b_halves",
    "winner_side",
    "forfeit",
    "match__table_entries",
    "scores_halves",
)
"""What :func:`results_for_pairing` reads of each current result of a played match."""


def _played_results(event: Event, before: int | None) -> QuerySet[MatchResult, tuple[Any, ...]]:
    """The current results of the played matches of the event's public Swiss or round-robin
    rounds (below ``before``), as :data:`PLAYED_FIELDS`."""
    return (
        MatchResult.objects.filter(
            is_current=True,
            match__round__event=event,
            match__round__kind__in=PAIRED_KINDS,
            match__is_bye=False,
        )
        .exclude(match__round__status=Round.Status.DRAFT)
        .filter(**({"match__round__number__lt": before} if before is not None else {}))
        .values_list(*PLAYED_FIELDS)
    )


def _tables_of_many(
    event: Event,
    tables: list[tuple[int, int, str, list[Any]]],
    earned: dict[int, Number],
    spread: dict[int, Number],
) -> None:
    """Add the match points (the event's placing points) and spread (own score minus the
    tablemates' mean) of confirmed tables of many. A table whose scores are not one per seat
    (a forfeit at a table of many, settled otherwise) adds nothing here. One query."""
    seats: dict[int, list[int]] = defaultdict(list)
    for match_id, entry_id in (
        RoundSeat.objects.filter(match_id__in=[t[0] for t in tables])
        .order_by("match_id", "side")
        .values_list("match_id", "entry_id")
    ):
        seats[match_id].append(entry_id)
    placing = game.placing_points(event)
    for match_id, number, kind, halves in tables:
        at_table = seats.get(match_id, [])
        if len(halves) != len(at_table) or len(at_table) < 2:
            continue
        scores = tuple(normalise(Fraction(int(h), 2)) for h in halves)
        result = TableResult(match_id, number, RoundKind(kind), tuple(at_table), scores)
        for seated, points in table_points(result, placing).items():
            earned[int(seated)] += points
        total = sum(scores)
        for entry_id, own in zip(at_table, scores, strict=True):
            others = Fraction(total - own, len(scores) - 1)
            spread[entry_id] += normalise(own - others)


@dataclass(frozen=True, slots=True)
class PairingInputs:
    """Everything the pairing algorithms need about an event before round ``round_no``.

    ``entries`` holds every entry of the event (``active`` marks those to pair), ``history``
    every two-entry match and bye of the rounds before ``round_no``, ``tables`` every table of
    many (three or four entries) of those rounds, and ``names`` the entries' display names (for
    messages).
    """

    round_no: int
    entries: tuple[EntryRecord, ...]
    history: tuple[PastMatch, ...]
    names: dict[int, str] = field(default_factory=dict)
    tables: tuple[PastTable, ...] = ()

    @property
    def every_table(self) -> list[PastMatch | PastTable]:
        """The history and the tables of many together (what ``pair_tables`` reads)."""
        return [*self.history, *self.tables]

    @property
    def active(self) -> tuple[EntryRecord, ...]:
        return tuple(e for e in self.entries if e.active)


def _rating(ratings: list[int]) -> Number | None:
    """An entry's rating: the mean of its players' known ratings (exact), or None."""
    if not ratings:
        return None
    mean = Fraction(sum(ratings), len(ratings))
    return int(mean) if mean.denominator == 1 else mean


def _members(event: Event) -> dict[int, list[tuple[int, int | None, str]]]:
    """Entry id -> [(player id, seeding rating, club)] for every entry of the event. One query.

    A player's seeding rating (``first_round == "rating"``) is their openskill rating on the
    display scale (``ratings_scale.display_rating``, the survivor's for a merged row) once they
    have rated games, else the rating given at registration (``Player.rating``), else None.
    """
    members: dict[int, list[tuple[int, int | None, str]]] = defaultdict(list)
    rows = EntryPlayer.objects.filter(event=event).values_list(
        "entry_id",
        "player_id",
        "player__rating",
        "player__rating_mu",
        "player__rating_sigma",
        "player__merged_into__rating_mu",
        "player__merged_into__rating_sigma",
        "player__club",
    )
    for entry_id, player_id, given, mu, sigma, merged_mu, merged_sigma, club in rows:
        if merged_mu is not None and merged_sigma is not None:
            mu, sigma = merged_mu, merged_sigma
        rating = given if mu is None or sigma is None else display_rating(mu, sigma)[0]
        members[entry_id].append((player_id, rating, club or ""))
    return members


def entry_club(clubs: list[str]) -> str | None:
    """An entry's club for the director's "avoid the same club": the club every one of its
    players belongs to (compared without case or surrounding spaces), None when a player has no
    club or the players' clubs differ (a partnership of two clubs is of neither)."""
    keys = {c.strip().casefold() for c in clubs}
    if len(keys) != 1 or not clubs:
        return None
    key = keys.pop()
    return key or None


def avoidances(event: Event) -> dict[int, frozenset[int]]:
    """Entry id -> the entries the director named to keep it apart from (``EntryAvoidance``, both
    ways). One query."""
    out: dict[int, set[int]] = defaultdict(set)
    for a, b in EntryAvoidance.objects.filter(event=event).values_list("entry_a_id", "entry_b_id"):
        out[a].add(b)
        out[b].add(a)
    return {entry_id: frozenset(ids) for entry_id, ids in out.items()}


def past_tables(
    event: Event, round_no: int, players: dict[int, frozenset[int]]
) -> tuple[PastTable, ...]:
    """Every table of many (``Match.table_entries`` 3 or 4) of the rounds before ``round_no``,
    its seats in order from ``RoundSeat``. One query."""
    seats: dict[tuple[int, int], list[int]] = defaultdict(list)
    for number, match_id, entry_id in (
        RoundSeat.objects.filter(
            round__event=event,
            round__number__lt=round_no,
            match__table_entries__gt=2,
            match__game_no=1,
        )
        .order_by("round__number", "match_id", "side")
        .values_list("round__number", "match_id", "entry_id")
    ):
        seats[(number, match_id)].append(entry_id)
    return tuple(
        PastTable(
            round_no=number,
            entries=tuple(ids),
            players=tuple(players.get(e, frozenset()) for e in ids),
        )
        for (number, _), ids in seats.items()
    )


def _two_sided_history(
    past: Sequence[tuple[int, str, int, int | None, int]], players: dict[int, frozenset[int]]
) -> tuple[list[PastMatch], dict[int, int]]:
    """The past two-sided matches (``past``: round, kind, entries and table size of each first
    game) as the pairing's records, and each entry's byes of Swiss or round-robin rounds."""
    byes: dict[int, int] = defaultdict(int)
    history: list[PastMatch] = []
    for number, kind, a, b, at_table in past:
        if at_table > 2:
            continue  # a table of many: in ``tables``
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
    return history, byes


def pairing_inputs(
    event: Event, *, round_no: int, active_ids: frozenset[int] | None = None
) -> PairingInputs:
    """Read the event into the pairing package's records, as they stand before ``round_no``.

    ``active`` is "checked in" unless ``active_ids`` says which entries were active (the checker
    passes the set recorded when the round was generated). Opponent history is per player
    (``EntryPlayer``); ``byes_received`` counts byes in earlier rounds; match points and spread
    come from ``results_for_pairing``; ``club`` (with ``Event.avoid_same_club``) and ``avoid``
    are the director's constraints (see the module docstring). Six queries, seven for an event at
    tables of many (and one more once a table of many has a confirmed result).
    """
    members = _members(event)
    entries = list(
        Entry.objects.filter(event=event)
        .order_by("pk")
        .values_list("pk", "name", "status", "seed", "pinned_table")
    )
    past = list(
        Match.objects.filter(round__event=event, round__number__lt=round_no, game_no=1)
        .order_by("round__number", "pk")
        .values_list("round__number", "round__kind", "entry_a_id", "entry_b_id", "table_entries")
    )
    results = results_for_pairing(event, before=round_no)
    players = {entry_id: frozenset(p for p, _, _ in rows) for entry_id, rows in members.items()}
    tables = past_tables(event, round_no, players) if game.seats_tables_of_many(event) else ()
    avoid = avoidances(event)
    history, byes = _two_sided_history(past, players)
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
                rating=_rating([r for _, r, _ in members.get(pk, []) if r is not None]),
                seed=seed,
                pinned_table=pinned,
                active=active,
                club=(
                    entry_club([c for _, _, c in members.get(pk, [])])
                    if event.avoid_same_club
                    else None
                ),
                avoid=avoid.get(pk, frozenset()),
            )
        )
        names[pk] = name
    return PairingInputs(
        round_no=round_no,
        entries=tuple(records),
        history=tuple(history),
        names=names,
        tables=tables,
    )
