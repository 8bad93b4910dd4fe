"""Play-offs played through the real services: seed a bracket, confirm each bracket match's games
with the director's arbitral result (the results service, as a page would), publish each new
round and let the play-off advance, to the champion."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import User

from tests.tournaments.rounds_factory import make_director, make_event, make_field
from tournaments.models import Entry, Event, Match, MatchResult, Round
from tournaments.selectors.bracket import bracket_view
from tournaments.services import playoff_rounds, playoffs, round_status
from tournaments.services.decisions import override_result


def playoff_event(slug: str, qualifiers: int, **fields: Any) -> tuple[Event, User, list[Entry]]:
    """A Five Up event with a play-off of ``qualifiers`` entries (seed 1 = the first entry)."""
    event = make_event(
        slug, swiss_rounds=1, playoff_qualifiers=qualifiers, **{"playoff": "single", **fields}
    )
    return event, make_director(event, f"dir-{slug}"), make_field(event, qualifiers)


def seed(event: Event, director: User, entries: list[Entry]) -> Round:
    """Write the bracket's first round (entries in seed order) and publish it."""
    rnd = playoffs.create_playoff_bracket(
        event=event, ranking=[e.pk for e in entries], actor=director
    )
    return round_status.publish_round(round=rnd, actor=director)


def win_game(game: Match, winner: int, director: User) -> MatchResult:
    """Confirm one game for ``winner`` (an entry id) through the director's arbitral result, to
    the game's target (its own, else the event's default for Five Up)."""
    target = game.target or 305
    loser_score = target - 35
    scores = [target, loser_score] if game.entry_a_id == winner else [loser_score, target]
    return override_result(
        match=game, reason="played in the test", actor=director, final_score={"scores": scores}
    )


def current_game(rnd: Round, slot: str) -> Match:
    """The game being played for bracket match ``slot`` (the highest game at its table)."""
    return Match.objects.filter(round=rnd, bracket_slot=slot).order_by("-game_no").first()  # type: ignore[return-value]


def decide(rnd: Round, slot: str, winner: int, director: User) -> int:
    """Play bracket match ``slot`` of ``rnd`` until ``winner`` takes it (losing the first game
    when it is a best of 3 or more, so the series goes long); return the games played."""
    games = 0
    while True:
        game = current_game(rnd, slot)
        if MatchResult.objects.filter(match=game, is_current=True).exists():
            return games
        loser = game.entry_b_id if game.entry_a_id == winner else game.entry_a_id
        assert loser is not None
        win_game(game, loser if games == 0 and game.best_of > 1 else winner, director)
        games += 1


def play_to_champion(
    event: Event, director: User, first: Round, *, rng: random.Random
) -> dict[str, int]:
    """Decide every tabled bracket match (a random winner), advance, publish, until the bracket
    is finished; return the winner of each bracket match."""
    rnd = first
    winners: dict[str, int] = {}
    while True:
        slots = list(
            Match.objects.filter(round=rnd, game_no=1, is_bye=False)
            .exclude(bracket_slot="")
            .values_list("bracket_slot", "entry_a_id", "entry_b_id")
        )
        assert slots, f"round {rnd.number} has no bracket match"
        for slot, a, b in slots:
            winners[slot] = rng.choice([a, b])
            decide(rnd, slot, winners[slot], director)
        view = bracket_view(event)
        assert view is not None and view.progress is not None
        if view.progress.finished:
            return winners
        rnd = playoff_rounds.advance_playoff(event=event, actor=director)
        rnd = round_status.publish_round(round=rnd, actor=director)
