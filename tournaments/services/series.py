"""Best-of play-off matches: the games of a series after each confirmed result.

A best-of match is one ``Match`` row per game (``game_no`` 1, 2, ...; same round, table, entries
and bracket slot; game 1 alone holds the round's seats). The results writer
(``services.results.write_result``) calls :func:`after_result` in its own transaction each time a
play-off game's result becomes current:

- the series not decided yet (``pairing.best_of``): the next game's row is created at once, so the
  table link moves on to it (a link resolves to the highest game at its table);
- a correction that decides the series earlier: an unplayed later game is removed if nobody has
  claimed it; a later game with a result or a claim refuses the correction
  (``later_games_played``) rather than rewriting what was played;
- a correction that changes who won a series whose winner (or loser) already sits in a later
  bracket match refuses too (``later_games_played``): the bracket moved on;
- a play-off game needs a winner (``playoff_game_drawn``).

- a correction that would leave a series of a closed round undecided is refused
  (``series_reopened``).

Errors (``code``): ``later_games_played``, ``playoff_game_drawn``, ``series_reopened``.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from tournaments.errors import Conflict, ValidationFailed
from tournaments.models import Claim, Match, MatchResult, Round
from tournaments.pairing.best_of import games_to_decide
from tournaments.pairing.progression import downstream
from tournaments.selectors.bracket import stored_bracket
from tournaments.services import audit

PLAYED_FORFEITS = ("a", "b")


def _winner(game: Match, result: MatchResult) -> int | None:
    """The entry that won one game (a forfeit: the side that turned up)."""
    if result.forfeit in PLAYED_FORFEITS:
        return game.entry_b_id if result.forfeit == "a" else game.entry_a_id
    if result.winner_side is None:
        return None
    return game.entry_a_id if result.winner_side == 0 else game.entry_b_id


def _decided(games: list[Match], results: dict[int, MatchResult]) -> tuple[int | None, int | None]:
    """(the series winner or None, after how many games it was decided)."""
    first = games[0]
    assert first.entry_b_id is not None
    winners: list[int] = []
    for game in games:
        result = results.get(game.pk)
        if result is None:
            break
        if result.forfeit in PLAYED_FORFEITS:
            w = _winner(game, result)
            assert w is not None
            return w, len(winners) + 1
        w = _winner(game, result)
        if w is None:
            break
        winners.append(w)
    count = games_to_decide(first.best_of, first.entry_a_id, first.entry_b_id, winners)
    return (None, None) if count is None else (winners[count - 1], count)


def after_result(match: Match, result: MatchResult, previous: MatchResult | None) -> bool:
    """Keep the series of ``match`` (a game whose ``result`` just became current, replacing
    ``previous``) consistent; return whether the series is now decided. Not a play-off bracket
    game: nothing to do (False)."""
    if match.round.kind != Round.Kind.PLAYOFF or not match.bracket_slot or match.is_bye:
        return False
    if result.winner_side is None and result.forfeit not in PLAYED_FORFEITS:
        raise ValidationFailed(
            gettext("A play-off game needs a winner: enter the score that decided it."),
            code="playoff_game_drawn",
            details={"match": match.pk, "game": match.game_no},
        )
    games = list(
        Match.objects.filter(round_id=match.round_id, bracket_slot=match.bracket_slot).order_by(
            "game_no"
        )
    )
    results = {r.match_id: r for r in MatchResult.objects.filter(match__in=games, is_current=True)}
    winner, count = _decided(games, results)
    if previous is not None:
        before = {**results, match.pk: previous}
        old_winner, _ = _decided(games, before)
        if old_winner != winner:
            _check_bracket_not_moved_on(match, old_winner)
    if winner is None:
        if match.round.status == Round.Status.CLOSED:
            raise Conflict(
                gettext(
                    "This correction leaves %(bracket_slot)s undecided, but its round is closed: "
                    "a play-off match that was decided stays decided. Enter the game's result "
                    "with its winner."
                )
                % {"bracket_slot": match.bracket_slot},
                code="series_reopened",
                details={"match": match.bracket_slot, "game": match.game_no},
            )
        _next_game(match, games, results)
        return False
    assert count is not None
    for game in games[count:]:
        _drop_unneeded(game, results)
    return True


def _check_bracket_not_moved_on(match: Match, old_winner: int | None) -> None:
    """Refuse a change of a series' winner once a later bracket match already seats its old
    winner or loser."""
    if old_winner is None:
        return
    stored = stored_bracket(match.round.event)
    if stored is None:
        return
    later = downstream(stored[0], match.bracket_slot)
    tabled = list(
        Match.objects.filter(
            round__event_id=match.round.event_id,
            round__kind=Round.Kind.PLAYOFF,
            bracket_slot__in=later,
            game_no=1,
        ).values_list("bracket_slot", "round__number")
    )
    if tabled:
        raise Conflict(
            gettext(
                "This changes who won %(bracket_slot)s, but the bracket has moved on (%(join)s): "
                "those matches were played with the old winner."
            )
            % {
                "bracket_slot": match.bracket_slot,
                "join": ", ".join(
                    gettext("%(slot)s in round %(n)s") % {"slot": slot, "n": n}
                    for slot, n in tabled
                ),
            },
            code="later_games_played",
            details={"match": match.bracket_slot, "later": [slot for slot, _ in tabled]},
        )


def _next_game(match: Match, games: list[Match], results: dict[int, MatchResult]) -> None:
    """Create the series' next game at the same table, unless it exists."""
    played = sum(1 for g in games if g.pk in results)
    number = played + 1
    if any(g.game_no == number for g in games):
        return
    first = games[0]
    later = [g for g in games if g.game_no > number]
    if later or number > first.best_of:  # pragma: no cover - the series would be decided
        return
    nxt = Match.objects.create(
        round_id=first.round_id,
        table_id=first.table_id,
        entry_a_id=first.entry_a_id,
        entry_b_id=first.entry_b_id,
        is_bye=False,
        explanation={**(first.explanation or {}), "game": number},
        bracket_slot=first.bracket_slot,
        game_no=number,
        best_of=first.best_of,
        target=first.target,
    )
    audit.record(
        event=match.round.event,
        actor=None,
        action="match.next_game",
        obj=nxt,
        after={"bracket_slot": nxt.bracket_slot, "game": number, "best_of": nxt.best_of},
    )


def _drop_unneeded(game: Match, results: dict[int, MatchResult]) -> None:
    """A game after the series was decided: removed when nobody played it, else refused."""
    if game.pk in results or Claim.objects.filter(match=game).exists():
        raise Conflict(
            gettext(
                "Game %(game_no)s of %(bracket_slot)s was already played or claimed: this result "
                "would decide the match before it. Correct that game first, or ask for help."
            )
            % {"game_no": game.game_no, "bracket_slot": game.bracket_slot},
            code="later_games_played",
            details={"match": game.bracket_slot, "game": game.game_no},
        )
    with transaction.atomic():
        Match.objects.filter(pk=game.pk).delete()
    audit.record(
        event=game.round.event,
        actor=None,
        action="match.drop_game",
        obj=game,
        after={"bracket_slot": game.bracket_slot, "game": game.game_no},
    )
