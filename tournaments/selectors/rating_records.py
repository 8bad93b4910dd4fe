"""What the re-rate reads: rated games as the rating package's plain records, the stored rating
steps, and each player's rating before a round (``services/ratings.py`` writes them).

What counts (issue 16): the current confirmed result of every played match (not a bye, not a
forfeit: ``MatchResult.forfeit`` empty) of a published round of a rated event
(``Event.rated``, not a draft). Each game of a best-of play-off series is its own ``Match`` row
and its own rated game. A merged player (``Player.merged_into``) is rated as the survivor.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber

from tournaments.models import (
    EntryPlayer,
    Event,
    Match,
    MatchResult,
    Player,
    RatingChange,
    Round,
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


def rated_rounds(round_ids: list[int]) -> list[RatedRound]:
    """The rounds ``round_ids`` (see :func:`rounds_since`) with their rated games as
    ``RatedGame`` records (players as survivors), in position order. Three queries."""
    rows = list(
        MatchResult.objects.filter(
            match__round_id__in=round_ids,
            is_current=True,
            forfeit="",
            match__is_bye=False,
            match__table_entries=2,  # tables of many are not rated yet (two sides only)
        ).values_list(
            "match_id",
            "match__game_no",
            "match__round_id",
            "match__round__number",
            "match__round__event_id",
            "match__round__event__start_date",
            "match__entry_a_id",
            "match__entry_b_id",
            "winner_side",
        )
    )
    members = _members({row[4] for row in rows})
    by_round: dict[int, tuple[Position, list[RatedGame]]] = {}
    for match_id, game_no, round_id, number, event_id, start, a, b, winner in rows:
        if b is None:  # pragma: no cover - a played match has two entries
            continue
        game = RatedGame.two_sides(
            (game_no, match_id), members.get(a, ()), members.get(b, ()), winner
        )
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
    """Round id -> (its position, the players of ``match_ids`` in it, as survivors). Two
    queries."""
    rows = list(
        Match.objects.filter(pk__in=sorted(set(match_ids))).values_list(
            "round_id",
            "round__number",
            "round__event_id",
            "round__event__start_date",
            "entry_a_id",
            "entry_b_id",
        )
    )
    members = members_of_entries({e for row in rows for e in row[4:] if e is not None}, merged)
    out: dict[int, tuple[Position, set[int]]] = {}
    for round_id, number, event_id, start, a, b in rows:
        players = out.setdefault(round_id, ((start, event_id, number), set()))[1]
        for entry in (a, b):
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
    the round (Swiss, a best-of series), more otherwise."""
    originals = set(players) | {pk for pk, survivor in merged.items() if survivor in players}
    entries = set(
        EntryPlayer.objects.filter(event_id=event_id, player_id__in=sorted(originals)).values_list(
            "entry_id", flat=True
        )
    )
    found: dict[int, tuple[int, int, int, int | None]] = {}
    asked: set[int] = set()
    while entries - asked:
        ask = sorted(entries - asked)
        asked |= entries
        rows = (
            MatchResult.objects.filter(
                match__round_id=round_id,
                is_current=True,
                forfeit="",
                match__is_bye=False,
                match__table_entries=2,  # as rated_rounds: two sides only
            )
            .filter(Q(match__entry_a_id__in=ask) | Q(match__entry_b_id__in=ask))
            .exclude(match_id__in=sorted(found))
            .values_list(
                "match_id",
                "match__game_no",
                "match__entry_a_id",
                "match__entry_b_id",
                "winner_side",
            )
        )
        for match_id, game_no, a, b, winner in rows:
            if b is not None:
                found[match_id] = (game_no, a, b, winner)
        entries |= {e for _, a, b, _ in found.values() for e in (a, b)}
    members = members_of_entries({e for _, a, b, _ in found.values() for e in (a, b)}, merged)
    return [
        RatedGame.two_sides((game_no, match_id), members.get(a, ()), members.get(b, ()), winner)
        for match_id, (game_no, a, b, winner) in sorted(found.items())
    ]


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
