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
from typing import Any

from django.utils.translation import gettext

from tournaments.models import Event, Match, MatchResult, Round
from tournaments.pairing import export as pairing_json
from tournaments.pairing.best_of import SeriesState, decide_series, games_to_decide
from tournaments.pairing.brackets import Bracket
from tournaments.pairing.checker import check_bracket
from tournaments.pairing.progression import BracketProgress, Decision, bracket_progress
from tournaments.pairing.records import BracketTable, Violation
from tournaments.pairing.stages import stage_of


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
    # games recorded past the decision (the services refuse them): the decision stands
    count = games_to_decide(first.best_of, first.entry_a_id, first.entry_b_id, winners)
    state = decide_series(first.best_of, first.entry_a_id, first.entry_b_id, winners[:count])
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
    decisions, progress = _consistent(bracket, decisions)
    return BracketView(bracket, first, tabled, decisions, progress)


def _consistent(
    bracket: Bracket, decisions: dict[str, Decision]
) -> tuple[dict[str, Decision], BracketProgress]:
    """The decisions the bracket can take and its progress. A table whose entries are not the
    ones its feeders send (an edit by hand; ``check_playoff`` reports it) would make the pure
    progress refuse the whole bracket: such a decision is left out, so the pages still show the
    rest."""
    try:
        return decisions, bracket_progress(bracket, decisions)
    except ValueError:
        pass
    kept: dict[str, Decision] = {}
    for rnd in bracket.rounds:
        for m in rnd.matches:
            if m.match_id not in decisions:
                continue
            trial = {**kept, m.match_id: decisions[m.match_id]}
            try:
                bracket_progress(bracket, trial)
            except ValueError:
                continue
            kept = trial
    return kept, bracket_progress(bracket, kept)


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
    return series_of(games, results)


def game_line(match: Match) -> str:
    """How the table's phone names the game of a best-of match: "Game 2 of 3 · series 1–0"
    (the first entry's games first); empty for a single game."""
    if match.best_of <= 1:
        return ""
    found = series_at(match)
    if found is None:
        return gettext("Game %(game)s of %(best_of)s") % {
            "game": match.game_no,
            "best_of": match.best_of,
        }
    first = found.games[0]
    wins = (found.series.wins_a, found.series.wins_b)
    if first.entry_a_id != match.entry_a_id:  # pragma: no cover - games keep game 1's sides
        wins = wins[::-1]
    return gettext("Game %(game)s of %(best_of)s · series %(a)s–%(b)s") % {
        "game": match.game_no,
        "best_of": match.best_of,
        "a": wins[0],
        "b": wins[1],
    }


def bracket_tables(view: BracketView) -> list[BracketTable]:
    """Every tabled bracket match as the pure checker reads it: game 1's round, table and
    entries, the series winner once decided, a forfeit, and a director's edit reason."""
    out: list[BracketTable] = []
    for slot, s in view.tabled.items():
        first = s.games[0]
        assert first.entry_b_id is not None
        overrides = (first.explanation or {}).get("overrides") or []
        reason = "; ".join(str(o.get("reason", "")) for o in overrides) or None
        out.append(
            BracketTable(
                round_no=s.round.number,
                table=first.table.number if first.table is not None else 0,
                match_id=slot,
                entry_a=first.entry_a_id,
                entry_b=first.entry_b_id,
                winner=s.series.winner,
                forfeit=bool(s.forfeit),
                override=reason,
            )
        )
    return out


def check_playoff(event: Event) -> list[Violation]:
    """The pure bracket checker (``pairing.checker.check_bracket``) over every bracket match
    tabled so far: feeders resolved to the right entries, nobody playing on after elimination,
    byes never at a table. Empty before seeding."""
    view = bracket_view(event)
    if view is None:
        return []
    return check_bracket(view.bracket, bracket_tables(view))


def bracket_for_export(event: Event) -> dict[str, Any] | None:
    """The export's ``bracket`` (``docs/export.md``): the seeded bracket, every bracket match
    with its stage, slots (``winner_of`` / ``loser_of`` resolved to entries), status, winner,
    series score and games; the champion and runner-up; the checker's findings. ``None``
    before seeding."""
    view = bracket_view(event)
    if view is None or view.progress is None:
        return None
    doc = pairing_json.progress_to_dict(view.progress)
    slots = {m.match_id: m for r in view.bracket.rounds for m in r.matches}
    for match in doc["matches"]:
        s = view.tabled.get(match["id"])
        m = slots[match["id"]]
        match["stage"] = stage_of(view.bracket, match["id"])
        match["slots"] = [
            {**pairing_json.slot_to_dict(slot), "entry": entry}
            for slot, entry in zip((m.slot_a, m.slot_b), match["entries"], strict=True)
        ]
        match["series"] = None if s is None else _series_json(s)
    return {
        "kind": view.bracket.kind,
        "size": view.bracket.size,
        "seeds": list(view.bracket.seeds),
        "byes": list(view.bracket.byes),
        "consolation": view.bracket.consolation,
        **doc,
        "violations": [
            pairing_json.violation_to_dict(v)
            for v in check_bracket(view.bracket, bracket_tables(view))
        ],
    }


def _series_json(s: SeriesView) -> dict[str, Any]:
    return {
        "best_of": s.series.best_of,
        "wins": [s.series.wins_a, s.series.wins_b],
        "winner": s.series.winner,
        "forfeit": s.forfeit or None,
        "games": [
            {
                "match": g.pk,
                "round": s.round.number,
                "table": g.table.number if g.table is not None else None,
                "game_no": g.game_no,
                "target": g.target,
                "winner_side": None if r is None else r.winner_side,
            }
            for g, r in zip(s.games, s.results, strict=True)
        ],
    }
