"""Spinner's pairing algorithms: plain code over plain records, no Django.

Contract with the service layer
-------------------------------
In: one ``EntryRecord`` per entry of the event (withdrawn ones with ``active=False``), with the
players who play for it this round, its match points, spread and byes so far, its rating / seed
and pinned table; one ``PastMatch`` per match or bye of the earlier rounds, with the players who
actually sat at the table; the event's published salt (a string); the round number.

Call one generator:

- ``pair_first_round(entries, salt=..., method="random" | "rating" | "seed")``;
- ``pair_swiss(entries, history, round_no=..., salt=..., key=None, options=SwissOptions())``
  (``key`` is where issue 8 plugs in the tiebreak list);
- ``pair_round_robin(entries, round_no=..., salt=...)`` (``circle_schedule`` for the whole plan);
- ``single_elimination(ranking, qualifiers=..., consolation=...)`` /
  ``double_elimination(ranking, qualifiers=...)`` with ``qualifier_count`` for a fraction;
  ``bracket_progress(bracket, {match_id: Decision(winner, forfeit)})`` then says which bracket
  matches are ready, who is in each, whether the reset is needed, the champion and, once
  finished, the placings (``downstream`` lists what a corrected result puts in question);
  ``decide_series(best_of, a, b, game_winners)`` decides a best-of match. ``export`` has
  ``bracket_from_dict`` (a stored bracket back) and ``progress_to_dict``.

Out: a ``RoundPairing`` - pairings by table (``entry_a`` sits first), byes, each with an
``Explanation``; the ranking used; every ``DrawRecord`` (rank ties, first-round order, first
leaders) so anyone can ``verify`` it from the salt; notes; the total weight, rematch count and
window. Brackets return a ``Bracket`` of rounds of matches whose slots are seeds or "winner /
loser of match X". ``export`` turns any of these into JSON-ready dicts.

Tables of three or more (``tables_of_many``): ``pair_tables(entries, history, round_no=...,
salt=..., options=TablesOptions(table_sizes=(4, 3)))`` seats a Swiss round and returns a
``TablesRound`` (tables in drawn seat order, byes, repeat meetings and their lower bound);
``history`` may mix ``PastTable`` and ``PastMatch``; ``check_tables_round`` re-checks it and
``export.tables_round_to_dict`` exports it. The director's constraints (``EntryRecord.club``,
``EntryRecord.avoid``) apply to ``pair_swiss`` and ``pair_tables``.

Check: ``check_round(round_pairing, entries, history)`` re-checks a round (generated or edited:
set ``override`` on an edited ``Pairing`` / ``Bye`` with the director's reason) and returns
``Violation`` records ``(round_no, table, code, message)`` (the message also as a template and
arguments, ``detail``: see ``violations``); ``check_bracket(bracket, tables)``
checks every tabled bracket match (``BracketTable``) against the bracket; ``str(v)`` is the
``round N table T: CODE message`` line; ``v.is_violation`` is false for ``override``.

Errors: malformed input (duplicate entry ids, a player in two active entries, floats,
fractional match points without ``mp_scale``) raises ``ValueError``.

Every random choice is a salted SHA-256 lot (``draw``) recorded in the output.
"""

from .best_of import BEST_OF, SeriesState, decide_series
from .brackets import (
    Bracket,
    BracketMatch,
    BracketRound,
    LoserOf,
    SeedSlot,
    WinnerOf,
    bracket_size,
    double_elimination,
    qualifier_count,
    single_elimination,
    standard_order,
)
from .check_tables import check_tables_round
from .checker import check_bracket, check_round
from .draw import choose, first_leader, lot, shuffle, verify
from .first_round import pair_first_round
from .progression import (
    BracketProgress,
    Decision,
    MatchState,
    Placing,
    bracket_progress,
    downstream,
)
from .ranking import rank, rank_with_draws
from .records import (
    BracketTable,
    Bye,
    DrawRecord,
    EntryRecord,
    Explanation,
    Pairing,
    PastMatch,
    RoundPairing,
    Violation,
)
from .round_robin import circle_schedule, pair_round_robin
from .swiss import SwissOptions, pair_swiss
from .tables_of_many import (
    PastTable,
    Table,
    TableBye,
    TableExplanation,
    TablesOptions,
    TablesRound,
    pair_tables,
    plan_tables,
)

__all__ = [
    "BEST_OF",
    "Bracket",
    "BracketMatch",
    "BracketProgress",
    "BracketRound",
    "BracketTable",
    "Bye",
    "Decision",
    "DrawRecord",
    "EntryRecord",
    "Explanation",
    "LoserOf",
    "MatchState",
    "Pairing",
    "PastMatch",
    "PastTable",
    "Placing",
    "RoundPairing",
    "SeedSlot",
    "SeriesState",
    "SwissOptions",
    "Table",
    "TableBye",
    "TableExplanation",
    "TablesOptions",
    "TablesRound",
    "Violation",
    "WinnerOf",
    "bracket_progress",
    "bracket_size",
    "check_bracket",
    "check_round",
    "check_tables_round",
    "choose",
    "circle_schedule",
    "decide_series",
    "double_elimination",
    "downstream",
    "first_leader",
    "lot",
    "pair_first_round",
    "pair_round_robin",
    "pair_swiss",
    "pair_tables",
    "plan_tables",
    "qualifier_count",
    "rank",
    "rank_with_draws",
    "shuffle",
    "single_elimination",
    "standard_order",
    "verify",
]
