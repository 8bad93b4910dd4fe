"""Reads for a seeded play-off: its bracket, each bracket match's games, and where it stands.

The bracket itself is stored with the first play-off round (``Round.explanation["bracket"]``,
written by ``services/playoffs.py``); every bracket match that reached a table is a ``Match``
row with its ``bracket_slot`` (the bracket match id), one row per game of a best-of match
(``game_no`` 1, 2, ...). A bracket match is decided by its games' current results through the
pure :func:`~tournaments.pairing.best_of.decide_series` (a forfeit decides it at once for the
side that turned up), and the whole bracket by :func:`~tournaments.pairing.bracket_progress`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tournaments.models import Event, Match, MatchResult, Round
from tournaments.pairing import export as pairing_json
from tournaments.pairing.best_of import SeriesState, decide_series
from tournaments.pairing.brackets import Bracket
from tournaments.pairing.progression import BracketProgress, Decision, bracket_progress


@dataclass(frozen=True)
class SeriesView:
    """One bracket match at a table: its game rows (game 1 first), each game's current result
    (``None`` while unconfirmed), the series so far, and a forfeit if one ended it."""

    match_id: str
    round: Round
    games: tuple[Match, ...]
    results: tuple[MatchResult | None, ...]
    series: SeriesState
    forfeit: str = ""  # "", "a" or "b": who forfeited (in game 1's side order)

    @property
    def decided(self) -> bool:
        return self.series.decided

    @property
    def current_game(self) -> Match:
        """The game being played (the last one tabled)."""
        return self.games[-1]


@dataclass(frozen=True)
class BracketView:
    """A seeded play-off as it stands: the bracket, its tabled matches by bracket match id, the
    decisions drawn from them, and the pure progress (ready matches, champion, placings)."""

    bracket: Bracket
    first_round: Round
    tabled: dict[str, SeriesView] = field(default_factory=dict)
    decisions: dict[str, Decision] = field(default_factory=dict)
    progress: BracketProgress | None = None


def playoff_rounds(event: Event) -> list[Round]:
    """The event's play-off rounds, in order."""
    return list(event.rounds.filter(kind=Round.Kind.PLAYOFF).order_by("number"))


def stored_bracket(event: Event) -> tuple[Bracket, Round] | None:
    """The seeded bracket and the round it was stored with, or ``None`` before seeding."""
    first = event.rounds.filter(kind=Round.Kind.PLAYOFF).order_by("number").first()
    if first is None or "bracket" not in first.explanation:
        return None
    return pairing_json.bracket_from_dict(first.explanation["bracket"]), first


def series_of(games: list[Match], results: dict[int, MatchResult]) -> SeriesView:
    """The series of one bracket match from its game rows and their current results."""
    games = sorted(games, key=lambda g: g.game_no)
    first = games[0]
    current = tuple(results.get(g.pk) for g in games)
    winners: list[int] = []
    forfeit = ""
    for game, result in zip(games, current, strict=True):
        if result is None or result.winner_side is None:
            continue
        if result.forfeit in ("a", "b"):
            forfeit = result.forfeit
            winners = []  # a forfeit ends the match for the other side, whatever came before
            loser = game.entry_a_id if result.forfeit == "a" else game.entry_b_id
            winner = game.entry_b_id if loser == game.entry_a_id else game.entry_a_id
            assert winner is not None
            needed = first.best_of // 2 + 1
            winners = [winner] * needed
            break
        winners.append(game.entry_a_id if result.winner_side == 0 else int(game.entry_b_id or 0))
    assert first.entry_b_id is not None
    state = decide_series(first.best_of, first.entry_a_id, first.entry_b_id, winners)
    return SeriesView(
        match_id=first.bracket_slot,
        round=first.round,
        games=tuple(games),
        results=current,
        series=state,
        forfeit=forfeit,
    )


def bracket_view(event: Event) -> BracketView | None:
    """Where the event's play-off stands (``None`` before it is seeded)."""
    stored = stored_bracket(event)
    if stored is None:
        return None
    bracket, first = stored
    rows = list(
        Match.objects.filter(round__event=event, round__kind=Round.Kind.PLAYOFF, is_bye=False)
        .exclude(bracket_slot="")
        .select_related("round", "table")
        .order_by("round__number", "bracket_slot", "game_no")
    )
    results = {
        r.match_id: r
        for r in MatchResult.objects.filter(match__in=[m.pk for m in rows], is_current=True)
    }
    by_slot: dict[str, list[Match]] = defaultdict(list)
    for m in rows:
        by_slot[m.bracket_slot].append(m)
    tabled = {slot: series_of(games, results) for slot, games in by_slot.items()}
    decisions = {
        slot: Decision(s.series.winner, forfeit=bool(s.forfeit))
        for slot, s in tabled.items()
        if s.series.winner is not None
    }
    progress = bracket_progress(bracket, decisions)
    return BracketView(bracket, first, tabled, decisions, progress)


def series_at(match: Match) -> SeriesView | None:
    """The series a play-off game belongs to (every game of its bracket match in its round, with
    their current results); ``None`` for a match outside a bracket. Two queries."""
    if not match.bracket_slot or match.is_bye or match.entry_b_id is None:
        return None
    games = list(
        Match.objects.filter(round_id=match.round_id, bracket_slot=match.bracket_slot)
        .select_related("round")
        .order_by("game_no")
    )
    results = {r.match_id: r for r in MatchResult.objects.filter(match__in=games, is_current=True)}
    try:
        return series_of(games, results)
    except ValueError:  # games recorded past the decision: the services refuse it; show nothing
        return None


def game_line(match: Match) -> str:
    """How the table's phone names the game of a best-of match: "Game 2 of 3 · series 1–0"
    (the first entry's games first); empty for a single game."""
    if match.best_of <= 1:
        return ""
    found = series_at(match)
    if found is None:
        return f"Game {match.game_no} of {match.best_of}"
    first = found.games[0]
    wins = (found.series.wins_a, found.series.wins_b)
    if first.entry_a_id != match.entry_a_id:  # pragma: no cover - games keep game 1's sides
        wins = wins[::-1]
    return f"Game {match.game_no} of {match.best_of} · series {wins[0]}–{wins[1]}"
