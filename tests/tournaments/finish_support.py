"""Makers for the finished-event tests: a Swiss round played through the services, the play-off
seeded by ``services.playoffs``, and its later bracket matches written as ``Match`` rows (the
bracket match id as ``bracket_slot``, the entries from the pure progress's ready matches), every
result confirmed through the real result services.

The play-off's advance (the job that tables the next bracket matches) is another piece of work:
:func:`table_ready` stands in for it with plain rows, as a director's services would leave them.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.db.models import Max

from tests import factories
from tests.tournaments.rounds_factory import make_director, make_event, make_field, settle_round
from tournaments.models import Entry, Event, Match, MatchResult, Round
from tournaments.pairing.progression import MatchState
from tournaments.selectors.bracket import bracket_view
from tournaments.services import decisions, playoffs, round_generation, round_status

WIN = 305  # 61 displayed: the Five Up target, raw
LOSE = 200

Chooser = Callable[[MatchState, dict[int, int]], int]
"""Who wins a bracket match: given its state and each entry's seed, the winning entry id."""


def better_seed(state: MatchState, seeds: dict[int, int]) -> int:
    a, b = state.entries or (0, 0)
    return a if seeds[a] < seeds[b] else b


def seeded_event(
    slug: str = "cup",
    *,
    field: int = 8,
    qualifiers: int = 4,
    playoff: str = Event.Playoff.SINGLE,
    consolation: str = "",
) -> tuple[Event, User, list[Entry]]:
    """An event of ``field`` entries after one Swiss round (played, closed), its play-off of
    ``qualifiers`` seeded from the final standings and its first play-off round published."""
    event = make_event(
        slug,
        swiss_rounds=1,
        playoff=playoff,
        playoff_qualifiers=qualifiers,
        playoff_consolation=consolation,
        tiebreaks=["spread"],  # the results' spreads differ: no tie across the cut
    )
    boss = make_director(event, f"{slug}-boss")
    entries = make_field(event, field)
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    settle_round(rnd, boss)
    round_status.close_round(round=rnd, actor=boss)
    first = playoffs.seed_playoff(event=event, actor=boss)
    round_status.publish_round(round=first, actor=boss)
    event.refresh_from_db()
    return event, boss, entries


def confirm_winner(match: Match, winner: int, boss: User) -> MatchResult:
    """The director's arbitral result: ``winner`` (an entry id of the match) wins 61 to 40."""
    scores = [WIN, LOSE] if winner == match.entry_a_id else [LOSE, WIN]
    return decisions.override_result(
        match=match, reason="played", actor=boss, final_score={"scores": scores}
    )


def table_ready(event: Event) -> Round | None:
    """Write the bracket's ready matches not yet at a table as a new play-off round in play
    (one ``Match`` per bracket match, ``bracket_slot`` its id); ``None`` when none is ready."""
    view = bracket_view(event)
    assert view is not None and view.progress is not None
    waiting = [
        m for m in view.progress.matches if m.status == "ready" and m.match_id not in view.tabled
    ]
    if not waiting:
        return None
    number = int(event.rounds.aggregate(n=Max("number"))["n"]) + 1
    rnd = Round.objects.create(
        event=event, number=number, kind=Round.Kind.PLAYOFF, status=Round.Status.IN_PLAY
    )
    by_id = {e.pk: e for e in Entry.objects.filter(event=event)}
    for table, state in enumerate(waiting, start=1):
        a, b = state.entries or (0, 0)
        match = factories.seat_match(rnd, table, by_id[a], by_id[b])
        Match.objects.filter(pk=match.pk).update(bracket_slot=state.match_id)
    return rnd


def play_bracket(
    event: Event, boss: User, choose: Chooser = better_seed, *, until: str | None = None
) -> None:
    """Play the bracket: table what is ready, confirm every tabled match without a result (the
    winner by ``choose``), until the bracket is finished or ``until`` (a match id) is the only
    match left to decide at a table."""
    while True:
        # The advance job drafts the next round itself where jobs run (a transactional test):
        # publish it, as the director would, before its matches are played.
        for drafted in event.rounds.filter(kind=Round.Kind.PLAYOFF, status=Round.Status.DRAFT):
            round_status.publish_round(round=drafted, actor=boss)
        view = bracket_view(event)
        assert view is not None and view.progress is not None
        seeds = {e: s for s, e in enumerate(view.bracket.seeds, start=1)}
        open_ = [s for slot, s in view.tabled.items() if not s.decided and slot != until]
        for series in open_:
            state = view.progress.state(series.match_id)
            confirm_winner(series.current_game, choose(state, seeds), boss)
        if open_:
            continue
        if table_ready(event) is None:
            return


def next_game(game: Match) -> Match:
    """The next game of a best-of match: same round, table, entries and bracket slot (game 1
    holds the seats). The result service makes it when a game leaves the series open; this
    reads that row."""
    return Match.objects.get(
        round=game.round,
        table=game.table,
        entry_a=game.entry_a,
        entry_b=game.entry_b,
        bracket_slot=game.bracket_slot,
        best_of=game.best_of,
        game_no=game.game_no + 1,
    )


def final_match(event: Event, match_id: str) -> Match:
    return Match.objects.get(round__event=event, bracket_slot=match_id, game_no=1)
