"""Spinner's pairing algorithms: plain code over plain records, no Django.

The service layer reads the models into ``EntryRecord`` and ``PastMatch`` records, calls one
generator and writes the returned ``RoundPairing`` back; ``check_round`` re-checks any round.

Generators:
- ``pair_first_round``: round 1, random from the event's salt or seeded by rating / seed.
- ``pair_swiss``: a Swiss round by one global maximum-weight matching (``swiss`` explains the
  weights, the window, byes and rematches).
- ``pair_round_robin`` / ``circle_schedule``: the circle method.
- ``single_elimination`` / ``double_elimination``: seeded play-off brackets.

Every random choice is a salted SHA-256 lot (``draw``) recorded in the output.
"""

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
from .checker import check_round
from .draw import choose, first_leader, lot, shuffle, verify
from .first_round import pair_first_round
from .ranking import rank, rank_with_draws
from .records import (
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

__all__ = [
    "Bracket",
    "BracketMatch",
    "BracketRound",
    "Bye",
    "DrawRecord",
    "EntryRecord",
    "Explanation",
    "LoserOf",
    "Pairing",
    "PastMatch",
    "RoundPairing",
    "SeedSlot",
    "SwissOptions",
    "Violation",
    "WinnerOf",
    "bracket_size",
    "check_round",
    "choose",
    "circle_schedule",
    "double_elimination",
    "first_leader",
    "lot",
    "pair_first_round",
    "pair_round_robin",
    "pair_swiss",
    "qualifier_count",
    "rank",
    "rank_with_draws",
    "shuffle",
    "single_elimination",
    "standard_order",
    "verify",
]
