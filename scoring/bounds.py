"""What a placement, and a hand, can score at most: bounds derived from a rule set's own data.

A placement scores the end total (when it is a positive multiple of five). The end total is a sum
of **counted ends** (``scoring.layout``): the free half of a non-double (its value), a terminal
double (twice its value) and, in rule sets where they count (``five-up-7``), an internal
spinner's free branch sides (its value once each). The bound is found from four facts about a
layout of two or more tiles, none of them a number written down here:

* **The tile set** (:data:`scoring.tiles.TILES`): each value ``v`` is on one double and on
  ``m - 1`` non-doubles (``m`` values, 7 in a double-six set); a non-double has two values.
* **Arms.** Let ``d_v`` be the number of sides of double ``v-v`` that are occupied (0 when it is
  not on the table). Counting the halves of the non-doubles on the table, and the ``N - 1``
  contacts of a tree of ``N`` tiles, the number of free non-double halves is exactly
  ``F = 2 + sum over the doubles on the table of (d_v - 2)``: a terminal double (``d = 1``) costs
  an arm, an internal one (``d = 2``) none, a spinner's opened branch sides (``d = 3``, ``4``)
  add one each. A plain double (not a spinner) has ``d <= 2``; ``all-fives`` has one spinner.
* **Values.** A tile placed against double ``v-v`` touches it with a ``v`` half, so at most
  ``m - 1 - d_v`` free halves show ``v``; and each non-double shows at most one free half (two
  only as the lone opening tile), so for every set ``S`` of values at most as many free halves
  show a value of ``S`` as there are non-doubles with a value in ``S`` (Hall's condition: the
  free halves are distinct tiles).
* **What counts** (:class:`scoring.rules.RuleSet`): ``internal_branches_count`` and
  ``spinners`` (every double, or only the hand's first).

Every assignment of a state to each double (off the table, terminal, internal with 0, 1 or 2
branch sides begun) gives ``F`` and the caps per value; the free halves are then chosen value by
value (a dynamic programme, highest value first, checking Hall's condition as each value joins),
and the doubles add what they count. The largest total over all of them, rounded down to a
multiple of five, is :func:`placement_bound`. The lone opening tile (at most twice the top value)
is below it. These are necessary conditions only, so the bound could in principle be above what
a layout reaches; tests build a layout that reaches it tile by tile in every rule set, so it is
exact.

**Rare** (:func:`rare_above`): a score above the most a layout with at most
:data:`COMMON_INTERNAL` (two) internal doubles can make. A table shows a line with a spinner or
two in it; a score beyond that needs three or more doubles with both line sides covered (and
their branches opened), which simulated play almost never shows (``scoring/README.md`` has the
figures). In ``all-fives`` (one spinner) two internal doubles already reach the bound: nothing
is rare there.

**A hand** (:func:`placement_cap`): a placement after ``n`` tiles are on the table scores at most
``top_opening + (n - 1) * top_step`` (the opening counts at most a double of the top value; a
later placement raises the total by at most the top value: it covers an end and adds the free
half, or a double's two halves, of a tile matching it) and never more than the pips on the
table. A hand's tally is checked entry by entry against those caps, with the tiles and pips the
hand's ``remaining`` leaves on the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Final

from scoring.rules import MatchOptions, RuleSet
from scoring.sheet import Hand
from scoring.tiles import TILES

__all__ = [
    "COMMON_INTERNAL",
    "TOTAL_PIPS",
    "HandRoom",
    "entity_plays",
    "hand_room",
    "placement_bound",
    "placement_cap",
    "rare_above",
    "top_opening",
    "top_step",
]

COMMON_INTERNAL: Final = 2
"""Internal doubles (both line sides covered) in a common layout: at most two."""

_VALUES: Final = tuple(sorted({t.low for t in TILES} | {t.high for t in TILES}))
_TOP: Final = _VALUES[-1]
_PER_VALUE: Final = sum(1 for t in TILES if not t.is_double and t.low == _VALUES[0])
"""Non-doubles that carry one given value (6 in a double-six set)."""
TOTAL_PIPS: Final = sum(t.pips for t in TILES)
"""Every pip of the set (168 in a double-six set)."""

# A double's states: (occupied sides d, branch sides free and counted when internal).
_OFF: Final = -1


def _hall(k: int) -> int:
    """Non-doubles with a value in a given set of ``k`` values (the free halves' Hall limit)."""
    m = len(_VALUES)
    return comb(m, 2) - comb(m - k, 2)


def _double_states(spinner: bool) -> tuple[int, ...]:
    """The occupied sides ``d`` a double may have: off the table, 1 (terminal), 2 (internal),
    and for a spinner 3 and 4 (its branch sides begun)."""
    return (_OFF, 1, 2, 3, 4) if spinner else (_OFF, 1, 2)


def _double_counts(rules: RuleSet, v: int, d: int) -> int:
    """What double ``v-v`` with ``d`` sides occupied adds to the end total."""
    if d == 1:
        return 2 * v
    if d >= 2 and rules.internal_branches_count:
        return v * (4 - d)
    return 0


State = tuple[tuple[int, ...], int, int, int]
"""(free halves per value so far, highest first and sorted; arms less free halves so far;
internal doubles so far; spinners with a branch begun so far)."""


@cache
def _best(rules: RuleSet, max_internal: int | None) -> int:
    """The largest end total of a layout of two or more tiles, with at most ``max_internal``
    internal doubles (None: any number).

    A dynamic programme over the values, highest first: each value gets a state for its double
    and a number of free halves showing it. Hall's condition is checked as each value joins (for
    every set whose lowest value it is, the tightest being it and the fullest values before
    it); the arms are balanced at the end (free halves = ``F``)."""
    one_spinner = rules.spinners == "first"
    states: dict[State, int] = {((), 2, 0, 0): 0}
    for left, v in enumerate(reversed(_VALUES)):
        later = len(_VALUES) - 1 - left  # values still to come
        nxt: dict[State, int] = {}
        for (shown, arms, inner, spun), total in states.items():
            room = min(_hall(k + 1) - sum(shown[:k]) for k in range(len(shown) + 1))
            for d in _double_states(not (one_spinner and spun)):
                counts = _double_counts(rules, v, d)
                cap = min(_PER_VALUE - max(d, 0), room)
                for f in range(cap + 1):
                    now_in = inner + (d >= 2) if max_internal is not None else 0
                    if max_internal is not None and now_in > max_internal:
                        break
                    key = (
                        tuple(sorted((*shown, f), reverse=True)),
                        arms + (d - 2 if d != _OFF else 0) - f,
                        now_in,
                        spun + (d > 2) if one_spinner else 0,
                    )
                    # The values to come must balance the arms: each adds at most 2 (a double
                    # with both branch sides begun) and takes at most 1 + its free halves.
                    if not -2 * later <= key[1] <= (_PER_VALUE + 1) * later:
                        continue
                    value = total + v * f + counts
                    if nxt.get(key, -1) < value:
                        nxt[key] = value
        states = nxt
    return max(total for (_s, arms, _e, _p), total in states.items() if arms == 0)


def _floor5(n: int) -> int:
    return n // 5 * 5


def placement_bound(rules: RuleSet) -> int:
    """The most any placement can score under ``rules``: the largest end total of any layout,
    rounded down to a multiple of five.

    >>> from scoring.rules import find_ruleset
    >>> [placement_bound(find_ruleset(n)) for n in ("five-up", "all-fives", "five-up-7")]
    [75, 35, 80]
    """
    return _floor5(max(_best(rules, None), top_opening()))


def rare_above(rules: RuleSet) -> int:
    """Scores above this are possible but rare (a "check this" warning): the most a layout
    with at most :data:`COMMON_INTERNAL` internal doubles can score."""
    return _floor5(max(_best(rules, COMMON_INTERNAL), top_opening()))


def top_opening() -> int:
    """The most the opening tile counts: a double of the top value."""
    return 2 * _TOP


def top_step() -> int:
    """The most one placement after the opening raises the end total: the top value (it covers
    an end of value ``v`` and shows the other half of a ``v-w`` tile, ``w - v``, or a double's
    two halves, ``2v - v``; covering a terminal double's last line side or a branch side
    removes at least as much as the rule set then counts again)."""
    return _TOP


def placement_cap(rules: RuleSet, tiles_on_table: int, pips_on_table: int) -> int:
    """The most a placement can score when at most ``tiles_on_table`` tiles (it included) and
    ``pips_on_table`` pips are on the table: every counted end is on a tile on the table and
    counts at most that tile's pips."""
    by_growth = top_opening() + max(tiles_on_table - 1, 0) * top_step()
    return _floor5(min(placement_bound(rules), by_growth, pips_on_table))


@dataclass(frozen=True, slots=True)
class HandRoom:
    """What a hand in tally form leaves room for, from its ``remaining`` (when settled):
    ``tiles``, the most tiles it can have put on the table; ``pips``, the most pips they hold;
    ``plays``, the most tiles each seat can have placed."""

    tiles: int
    pips: int
    plays: tuple[int, ...]


def hand_room(o: MatchOptions, hand: Hand) -> HandRoom:
    """The room a tally-form hand leaves: every tile of the set is dealt or in the boneyard,
    and what the seats still hold at the end (``remaining``) never reached the table. A seat's
    pip total stands for at least ``ceil(pips / most pips on a tile)`` tiles, and a seat that
    did not domino holds at least one. Without ``remaining`` (a hand still being played, or
    ended on the target) every seat but one still holds a tile, and any one may hold none.

    >>> from scoring.rules import find_ruleset
    >>> from scoring.tiles import Tile
    >>> o = find_ruleset("five-up").options(2)
    >>> h = Hand(0, None, None, (), "domino", 1, ((Tile.parse("6-6"), Tile.parse("5-6")), ()), None)
    >>> hand_room(o, h)
    HandRoom(tiles=26, pips=145, plays=(21, 23))
    """
    most_tile = top_opening()
    held: list[int] = []
    pips_held = 0
    for s, r in enumerate(hand.remaining or [None] * o.players):
        if r is None:
            held.append(0)
        elif isinstance(r, int):
            held.append(max(-(-r // most_tile), 0 if s == hand.finisher else 1))
            pips_held += r
        else:
            held.append(len(r))
            pips_held += sum(t.pips for t in r)
    most = o.hand_size + o.boneyard_size
    tiles = len(TILES) - (sum(held) if hand.remaining is not None else o.players - 1)
    return HandRoom(tiles, max(TOTAL_PIPS - pips_held, 0), tuple(max(most - h, 0) for h in held))


def entity_plays(o: MatchOptions, room: HandRoom, entity: int) -> int:
    """The most tiles an entity's seats can have placed in the hand."""
    return sum(n for s, n in enumerate(room.plays) if o.entity_of[s] == entity)
