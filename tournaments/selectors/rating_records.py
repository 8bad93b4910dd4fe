"""What the re-rate reads: rated games as the rating package's plain records, the stored rating
steps, and each player's rating before a round (``services/ratings.py`` writes them).

What counts (issue 16): the current confirmed result of every played match (not a bye, not a
forfeit: ``MatchResult.forfeit`` empty) of a published round of a rated event
(``Event.rated``, not a draft). Each game of a best-of play-off series is its own ``Match`` row
and its own rated game. A merged player (``Player.merged_into``) is rated as the survivor.

A table of many (issue 13: ``Match.table_entries`` 3 or 4, individual players) is one game of
that many teams: each seat's entry (``RoundSeat.side`` = the seat; seats 0 and 1 are also
``entry_a`` and ``entry_b``) ranked by the result's stored places (``MatchResult.placings``,
1 = first, minus one: equal places are a draw between those seats). Its seats are read by
:func:`seats_of` only when such tables are among the rows, so the reads of an event of two
sides make the queries they always made.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.db.models import F, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from tournaments.models import (
    EntryPlayer,
    Event,
    Match,
    MatchResult,
    Player,
    RatingChange,
    Round,
    RoundSeat,
)
from tournaments.rating import PlayerRating, RatedGame, RatedRound
from tournaments.rating.engine import Position

StoredStep = tuple[int, float, float, int]
"""A stored ``RatingChange``: (pk, mu, sigma, games)."""


def position_of(*, event_id: int, round_number: int) -> Position:
    """The round's place in the season: (event start date, event id, round number)."""
    start_date = Event.objects.values_list("start_date", flat=True).get(pk=event_id)
    return (start_date, event_id, round_number)


def _since(position: Position | None, prefix: str, number: str) -> Q:
    """Rows at ``position`` or after it (``prefix`` leads to the event, ``number`` to the round
    number); every row when ``position`` is None."""
    if position is None:
        return Q()
    start_date, event_id, round_number = position
    return (
        Q(**{f"{prefix}start_date__gt": start_date})
        | Q(**{f"{prefix}start_date": start_date, f"{prefix}id__gt": event_id})
        | Q(**{f"{prefix}id": event_id, f"{number}__gte": round_number})
    )


def survivors() -> dict[int, int]:
    """Merged player id -> the player it was merged into (followed to the end). One query."""
    merged = dict(
        Player.objects.filter(merged_into__isnull=False).values_list("pk", "merged_into_id")
    )
    out: dict[int, int] = {}
    for pk in merged:
        seen = {pk}
        target = merged[pk]
        while target in merged and target not in seen:  # a chain: A -> B -> C
            seen.add(target)
            target = merged[target]
        out[pk] = target
    return out


def rounds_since(since: Position | None) -> tuple[list[int], list[int]]:
    """(rated round ids, every round id) at ``since`` or after: the rounds whose games count
    (published rounds of rated events that are not drafts), and every round whose stored steps
    the re-rate may rewrite. One query, over rounds only (the big tables are then read by
    round id, through their indexes)."""
    rows = Round.objects.filter(_since(since, "event__", "number")).values_list(
        "pk", "status", "event__rated", "event__status"
    )
    rated, every = [], []
    for pk, status, event_rated, event_status in rows:
        every.append(pk)
        if event_rated and event_status != Event.Status.DRAFT and status != Round.Status.DRAFT:
            rated.append(pk)
    return rated, every


ResultRow = tuple[int, int, int, int | None, int | None, int, Any]
"""A rated result as the games are built from it: (match id, game number, entry A, entry B,
winner side, table entries, placings)."""

_RESULT_FIELDS = (
    "match_id",
    "match__game_no",
    "match__entry_a_id",
    "match__entry_b_id",
    "winner_side",
    "match__table_entries",
    "placings",
)


def _rated_results(**where: Any) -> QuerySet[MatchResult]:
    """The current, played (not forfeit, not bye) results of the matches ``where`` says."""
    return MatchResult.objects.filter(is_current=True, forfeit="", match__is_bye=False, **where)


def seats_of(match_ids: Iterable[int]) -> dict[int, tuple[int, ...]]:
    """Match id -> its seats' entries in seat order (``RoundSeat``): for tables of many. One
    query per 5,000 matches, none for none."""
    ids = sorted(set(match_ids))
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for start in range(0, len(ids), 5000):
        rows = RoundSeat.objects.filter(match_id__in=ids[start : start + 5000]).values_list(
            "match_id", "side", "entry_id"
        )
        for match_id, side, entry_id in rows:
            seats[match_id][side] = entry_id
    return {match: tuple(by_side[s] for s in sorted(by_side)) for match, by_side in seats.items()}


def _game(
    row: ResultRow,
    seats: dict[int, tuple[int, ...]],
    members: dict[int, tuple[int, ...]],
) -> RatedGame | None:
    """The rated game of one result: two sides by the winner, a table of many by its stored
    places (None: a result that cannot be rated: no second side, or places that do not match
    the seats)."""
    match_id, game_no, a, b, winner, table_entries, placings = row
    if b is None:  # pragma: no cover - a played match has two entries
        return None
    if table_entries <= 2:
        return RatedGame.two_sides(
            (game_no, match_id), members.get(a, ()), members.get(b, ()), winner
        )
    entries = seats.get(match_id, ())
    if not isinstance(placings, list) or len(placings) != len(entries) or len(entries) < 3:
        return None  # pragma: no cover - a confirmed table of many has a place per seat
    return RatedGame(
        key=(game_no, match_id),
        teams=tuple(members.get(entry, ()) for entry in entries),
        ranks=tuple(int(place) - 1 for place in placings),
    )


def rated_rounds(round_ids: list[int]) -> list[RatedRound]:
    """The rounds ``round_ids`` (see :func:`rounds_since`) with their rated games as
    ``RatedGame`` records (players as survivors), in position order. Three queries, and one per
    5,000 tables of many among them (their seats)."""
    rows = list(
        _rated_results(match__round_id__in=round_ids).values_list(
            *_RESULT_FIELDS,
            "match__round_id",
            "match__round__number",
            "match__round__event_id",
            "match__round__event__start_date",
        )
    )
    seats = seats_of(row[0] for row in rows if row[5] > 2)
    members = _members({row[9] for row in rows})
    by_round: dict[int, tuple[Position, list[RatedGame]]] = {}
    for row in rows:
        round_id, number, event_id, start = row[7:]
        game = _game(row[:7], seats, members)
        if game is not None:
            by_round.setdefault(round_id, ((start, event_id, number), []))[1].append(game)
    rounds = [
        RatedRound(position=position, round_id=round_id, games=tuple(games))
        for round_id, (position, games) in by_round.items()
    ]
    return sorted(rounds, key=lambda r: (r.position, r.round_id))


def _members(event_ids: set[int]) -> dict[int, tuple[int, ...]]:
    """Entry id -> its players (survivors of merges), in player id order. Two queries."""
    merged = survivors()
    members: dict[int, list[int]] = defaultdict(list)
    rows = EntryPlayer.objects.filter(event_id__in=event_ids).values_list("entry_id", "player_id")
    for entry_id, player_id in rows:
        members[entry_id].append(merged.get(player_id, player_id))
    return {entry: tuple(sorted(players)) for entry, players in members.items()}


def steps_since(round_ids: list[int]) -> dict[tuple[int, int], StoredStep]:
    """The stored rating steps of the rounds ``round_ids``: (player, round) -> (pk, mu, sigma,
    games). One query."""
    rows = RatingChange.objects.filter(round_id__in=round_ids).values_list(
        "player_id", "round_id", "pk", "mu", "sigma", "games"
    )
    return {(player, rnd): (pk, mu, sigma, games) for player, rnd, pk, mu, sigma, games in rows}


FEW_PLAYERS = 500
"""Up to this many players, :func:`ratings_before` reads their rows by player, not the whole
round before."""


def ratings_before(position: Position, players: Iterable[int]) -> dict[int, PlayerRating]:
    """Each of ``players``' rating just before ``position`` (their latest stored step before
    it); players with none are absent (new). Two queries.

    First the round just before, in the same event (in a Swiss event nearly everyone played
    it: one round's rows, by the round's index), then, for the players not found there, their
    latest step before ``position`` (a window over their history).
    """
    wanted = set(players)
    _, event_id, round_number = position
    found: dict[int, PlayerRating] = {}
    just_before = RatingChange.objects.filter(event_id=event_id, round__number=round_number - 1)
    if len(wanted) <= FEW_PLAYERS:  # a few players (an incremental re-rate): by their index
        just_before = just_before.filter(player_id__in=sorted(wanted))
    rows = just_before.values_list("player_id", "mu", "sigma", "games")
    for player, mu, sigma, games in rows:
        if player in wanted:
            found[player] = PlayerRating(mu=mu, sigma=sigma, games=games)
    rest = wanted - set(found)
    if not rest:
        return found
    earlier = RatingChange.objects.filter(player_id__in=sorted(rest)).exclude(
        _since(position, "event__", "round__number")
    )
    latest = earlier.annotate(
        nth=Window(
            RowNumber(),
            partition_by=[F("player_id")],
            order_by=[
                F("event__start_date").desc(),
                F("event_id").desc(),
                F("round__number").desc(),
            ],
        )
    ).filter(nth=1)
    for player, mu, sigma, games in latest.values_list("player_id", "mu", "sigma", "games"):
        found[player] = PlayerRating(mu=mu, sigma=sigma, games=games)
    return found


def stored_player_ratings(players: Iterable[int] | None) -> dict[int, tuple[float | None, ...]]:
    """Player id -> (rating_mu, rating_sigma, rated_games) as stored; ``None``: every player
    with a rating. One query per 5,000 players."""
    fields = ("pk", "rating_mu", "rating_sigma", "rated_games")
    if players is None:
        rows = list(Player.objects.filter(rating_mu__isnull=False).values_list(*fields))
    else:
        ids = sorted(players)
        rows = []
        for start in range(0, len(ids), 5000):
            chunk = Player.objects.filter(pk__in=ids[start : start + 5000])
            rows.extend(chunk.values_list(*fields))
    return {pk: (mu, sigma, float(games)) for pk, mu, sigma, games in rows}


# --- The incremental re-rate's reads (``services/rating_increments.py``) ----------------------

RoundAt = tuple[Position, int, int]
"""A rated round: (position, round id, event id)."""


def rated_rounds_at(since: Position) -> list[RoundAt]:
    """The rated rounds (see :func:`rounds_since`) at ``since`` or after, in position order.
    One query, over rounds only."""
    rows = (
        Round.objects.filter(_since(since, "event__", "number"))
        .filter(event__rated=True)
        .exclude(event__status=Event.Status.DRAFT)
        .exclude(status=Round.Status.DRAFT)
        .values_list("pk", "number", "event_id", "event__start_date")
    )
    return sorted(((start, event_id, number), pk, event_id) for pk, number, event_id, start in rows)


def seeds_of_matches(
    match_ids: Iterable[int], merged: dict[int, int]
) -> dict[int, tuple[Position, set[int]]]:
    """Round id -> (its position, the players of ``match_ids`` in it, as survivors): every
    seat's at a table of many. Two queries, and one more when tables of many are among them."""
    rows = list(
        Match.objects.filter(pk__in=sorted(set(match_ids))).values_list(
            "round_id",
            "round__number",
            "round__event_id",
            "round__event__start_date",
            "entry_a_id",
            "entry_b_id",
            "pk",
            "table_entries",
        )
    )
    seats = seats_of(row[6] for row in rows if row[7] > 2)
    entries_of = {row[6]: (row[4], row[5], *seats.get(row[6], ())) for row in rows}
    members = members_of_entries(
        {e for entries in entries_of.values() for e in entries if e is not None}, merged
    )
    out: dict[int, tuple[Position, set[int]]] = {}
    for round_id, number, event_id, start, _, _, pk, _ in rows:
        players = out.setdefault(round_id, ((start, event_id, number), set()))[1]
        for entry in entries_of[pk]:
            players.update(members.get(entry, ()) if entry is not None else ())
    return out


def members_of_entries(
    entry_ids: Iterable[int], merged: dict[int, int]
) -> dict[int, tuple[int, ...]]:
    """Entry id -> its players (survivors of merges, ``merged`` from :func:`survivors`), in
    player id order. One query."""
    members: dict[int, list[int]] = defaultdict(list)
    rows = EntryPlayer.objects.filter(entry_id__in=sorted(set(entry_ids))).values_list(
        "entry_id", "player_id"
    )
    for entry_id, player_id in rows:
        members[entry_id].append(merged.get(player_id, player_id))
    return {entry: tuple(sorted(players)) for entry, players in members.items()}


def round_games_with(
    round_id: int, event_id: int, players: set[int], merged: dict[int, int]
) -> list[RatedGame]:
    """The rated games of one round that hold any of ``players`` (survivors), closed over
    shared players: a game of the round sharing a player with one taken is taken too (a
    player's games in one round are rated in passes, each after the last, so a game needs all
    of its players' games of the round). Four queries where each entry plays one opponent in
    the round (Swiss, a best-of series), more otherwise; a table of many also reads its seats
    (an entry at seat 2 or 3 is neither ``entry_a`` nor ``entry_b``: found through
    ``RoundSeat``)."""
    originals = set(players) | {pk for pk, survivor in merged.items() if survivor in players}
    entries = set(
        EntryPlayer.objects.filter(event_id=event_id, player_id__in=sorted(originals)).values_list(
            "entry_id", flat=True
        )
    )
    found: dict[int, ResultRow] = {}
    seats: dict[int, tuple[int, ...]] = {}
    asked: set[int] = set()
    while entries - asked:
        ask = sorted(entries - asked)
        asked |= entries
        at_seats_of_many = RoundSeat.objects.filter(
            round_id=round_id, entry_id__in=ask, side__gte=2
        ).values("match_id")
        rows = (
            _rated_results(match__round_id=round_id)
            .filter(
                Q(match__entry_a_id__in=ask)
                | Q(match__entry_b_id__in=ask)
                | Q(match_id__in=at_seats_of_many)
            )
            .exclude(match_id__in=sorted(found))
            .values_list(*_RESULT_FIELDS)
        )
        new = {row[0]: row for row in rows if row[3] is not None}
        found.update(new)
        seats.update(seats_of(pk for pk, row in new.items() if row[5] > 2))
        entries |= {e for row in found.values() for e in _entries(row, seats)}
    members = members_of_entries(
        {e for row in found.values() for e in _entries(row, seats)}, merged
    )
    games = (_game(row, seats, members) for _, row in sorted(found.items()))
    return [game for game in games if game is not None]


def _entries(row: ResultRow, seats: dict[int, tuple[int, ...]]) -> tuple[int, ...]:
    """The entries of a result's match: its two sides, or every seat at a table of many."""
    if row[5] > 2:
        return seats.get(row[0], ())
    return tuple(e for e in row[2:4] if e is not None)


def steps_of_round(round_id: int, players: Iterable[int]) -> dict[tuple[int, int], StoredStep]:
    """The stored steps of ``players`` in one round: (player, round) -> (pk, mu, sigma, games).
    One query."""
    rows = RatingChange.objects.filter(round_id=round_id, player_id__in=sorted(set(players)))
    return {
        (player, round_id): (pk, mu, sigma, games)
        for player, pk, mu, sigma, games in rows.values_list(
            "player_id", "pk", "mu", "sigma", "games"
        )
    }
