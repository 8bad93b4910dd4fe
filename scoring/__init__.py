"""Spinner's rules engine: pure Python, no Django.

The names most callers need are re-exported here: ``scoring.verify(sheet)``,
``scoring.verify_json(text)``, ``scoring.first_divergence(a, b)``, ``scoring.simulate(...)``,
``scoring.position_after(sheet, hand, move)``, ``scoring.picture(layout)``, ``Tile``,
``Layout``, ``find_ruleset``. (The functions ``verify`` and ``simulate`` shadow their modules
as attributes of the package; import from ``scoring.verify`` / ``scoring.simulate`` for the rest.)

The vocabulary (:mod:`scoring.tiles`, :mod:`scoring.rules`, :mod:`scoring.layout`), the
``fives-scoresheet/1`` verifier (:mod:`scoring.sheet`, :mod:`scoring.verify`), the simulator
(:mod:`scoring.simulate`) and the geometry for pictures (:mod:`scoring.geometry`). Decisions the
spec left open are recorded in ``scoring/README.md``.
"""

from scoring.geometry import Picture, picture, position_after
from scoring.layout import IllegalPlacement, Layout, Placement, score_of_total
from scoring.rules import (
    DEFAULT_RULESET,
    RULESETS,
    MatchOptions,
    OptionError,
    RuleSet,
    UnknownRuleSet,
    find_ruleset,
    last_hand_by_time,
    round5,
)
from scoring.sheet import FormatFault, Sheet, parse_sheet, sheet_to_dict
from scoring.simulate import EndlessMatch, simulate, simulate_jsonl
from scoring.tiles import TILES, Seat, Tile, TileError
from scoring.verify import Fault, Verdict, first_divergence, verify, verify_json, verify_parsed

__all__ = [
    "DEFAULT_RULESET",
    "RULESETS",
    "TILES",
    "EndlessMatch",
    "Fault",
    "FormatFault",
    "IllegalPlacement",
    "Layout",
    "MatchOptions",
    "OptionError",
    "Picture",
    "Placement",
    "RuleSet",
    "Seat",
    "Sheet",
    "Tile",
    "TileError",
    "UnknownRuleSet",
    "Verdict",
    "find_ruleset",
    "first_divergence",
    "last_hand_by_time",
    "parse_sheet",
    "picture",
    "position_after",
    "round5",
    "score_of_total",
    "sheet_to_dict",
    "simulate",
    "simulate_jsonl",
    "verify",
    "verify_json",
    "verify_parsed",
]
