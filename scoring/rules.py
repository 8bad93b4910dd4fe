"""Rule sets: data plus a few hooks, found by name.

Terms used throughout the engine:

* a **hand** is one deal played out (the seeds also say "round"; a *round* of a tournament is a
  different thing and is not the engine's business);
* a **match** is one game to the target at one table, hand after hand;
* a **seat** plays; an **entity** scores: with partnerships seats 0 and 2 are entity 0, seats 1
  and 3 are entity 1, otherwise every seat is its own entity, numbered as the seat.

Points are raw pips everywhere. ``five-up`` and ``five-up-7`` *display* raw/5.

>>> r = find_ruleset("all-fives")
>>> r.deal_size(3), r.default_target(2), r.default_partnerships(4)
(7, 250, True)
>>> find_ruleset("five-up").name == DEFAULT_RULESET
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

__all__ = [
    "DEFAULT_RULESET",
    "RULESETS",
    "TIME_POLICIES",
    "MatchOptions",
    "OptionError",
    "RuleSet",
    "Score",
    "UnknownRuleSet",
    "find_ruleset",
    "last_hand_by_time",
    "round5",
    "target_winner",
    "uniquely_highest",
]

Score = int | Fraction
"""A raw score: an ``int``, or a ``Fraction`` with denominator 2 after an all-fives split award."""

DEFAULT_RULESET: Final = "five-up"


class UnknownRuleSet(ValueError):
    """Raised for a rule-set name that is not one of :data:`RULESETS`."""


class OptionError(ValueError):
    """Raised for a match option (players, target, hand size, partnerships) that cannot apply."""


def round5(n: int) -> int:
    """Round a pip count to a multiple of five: remainder 1 or 2 down, 3 or 4 up.

    >>> [round5(n) for n in (0, 2, 3, 12, 13, 15)]
    [0, 0, 5, 10, 15, 15]
    """
    return (n + 2) // 5 * 5


def uniquely_highest(scores: Sequence[Score]) -> int | None:
    """The entity with the highest score when no other entity has it, else None.

    >>> uniquely_highest([10, 20, 5]), uniquely_highest([20, 20, 5])
    (1, None)
    """
    top = max(scores)
    return scores.index(top) if list(scores).count(top) == 1 else None


def target_winner(scores: Sequence[Score], target: int) -> int | None:
    """The match-end check by target: the entity that has at least ``target`` and is uniquely
    highest, else None (nobody there yet, or the top is tied and play goes on).

    ``five-up`` makes this check only after a settled hand; ``all-fives`` and ``five-up-7`` after
    every placement and settlement (:attr:`RuleSet.ends_at_once`).

    >>> target_winner([305, 300], 305), target_winner([310, 310], 305), target_winner([5, 0], 305)
    (0, None, None)
    """
    top = max(scores)
    if top < target:
        return None
    return uniquely_highest(scores)


Settle = Callable[[Sequence[int], Sequence[int], int, "int | None"], list[Score]]
"""``settle(seat_pips, entity_of_seat, entities, domino_seat) -> change per entity``."""


def _settle_five_up(
    pips: Sequence[int], entity_of: Sequence[int], entities: int, domino: int | None
) -> list[Score]:
    # Each seat's own pips are rounded and debited to its entity; nobody is awarded anything.
    out: list[Score] = [0] * entities
    for seat, p in enumerate(pips):
        out[entity_of[seat]] -= round5(p)
    return out


def _entity_pips(pips: Sequence[int], entity_of: Sequence[int], entities: int) -> list[int]:
    tot = [0] * entities
    for seat, p in enumerate(pips):
        tot[entity_of[seat]] += p
    return tot


def _winner(
    pips: Sequence[int], entity_of: Sequence[int], entities: int, domino: int | None
) -> tuple[int | None, list[int], list[int]]:
    """The hand's winning entity (None if tied low), its entity pips and the tied-low entities."""
    tot = _entity_pips(pips, entity_of, entities)
    if domino is not None:
        return entity_of[domino], tot, [entity_of[domino]]
    low = min(tot)
    lows = [e for e in range(entities) if tot[e] == low]
    return (lows[0] if len(lows) == 1 else None), tot, lows


def _settle_all_fives(
    pips: Sequence[int], entity_of: Sequence[int], entities: int, domino: int | None
) -> list[Score]:
    out: list[Score] = [0] * entities
    win, tot, lows = _winner(pips, entity_of, entities, domino)
    if win is not None:
        out[win] = round5(sum(tot) - tot[win])
    elif entities == 3 and len(lows) == 2:
        # Exactly two of three players tied low: the third's pips, rounded, split in halves.
        third = next(e for e in range(3) if e not in lows)
        half = Fraction(round5(tot[third]), 2)
        for e in lows:
            out[e] = half.numerator if half.denominator == 1 else half
    return out


def _settle_five_up_7(
    pips: Sequence[int], entity_of: Sequence[int], entities: int, domino: int | None
) -> list[Score]:
    out: list[Score] = [0] * entities
    win, _tot, _lows = _winner(pips, entity_of, entities, domino)
    if win is not None:
        out[win] = sum(round5(p) for seat, p in enumerate(pips) if entity_of[seat] != win)
    return out


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One rule set, pinned by ``shared/spec/rules.md``.

    ``spinners`` is ``"every"`` (every double is a spinner) or ``"first"`` (only the hand's first
    double, the opening tile included). ``internal_branches_count`` says whether an internal
    spinner counts its value once per free branch side (``five-up-7``). ``ends_at_once``: the
    match ends the moment a target is reached (else only after a settled hand). ``settle`` is the
    hook that turns the remaining pips into the hand's change per entity.
    """

    name: str
    spinners: Literal["every", "first"]
    internal_branches_count: bool
    deal: tuple[int, int, int]
    partnerships_at_four: bool
    targets: tuple[int, int, int]
    ends_at_once: bool
    settle: Settle
    displayed_divisor: int
    source: str
    # ``settle`` splits an award in halves when exactly two of three players tie low (all-fives).
    splits_at_three: bool = False

    def deal_size(self, players: int) -> int:
        """Tiles dealt to each seat by default."""
        return self.deal[_players_index(players)]

    def score_step(self, players: int) -> Score:
        """The smallest unit a score moves by, in raw points, at a table of ``players``: every
        placement and settlement counts in fives, except where a settlement splits in halves
        (``all-fives`` at three players: 2.5). Every score is a multiple of it.

        >>> find_ruleset("all-fives").score_step(3), find_ruleset("all-fives").score_step(4)
        (Fraction(5, 2), 5)
        >>> find_ruleset("five-up").score_step(3), find_ruleset("five-up-7").score_step(3)
        (5, 5)
        """
        _players_index(players)
        return Fraction(5, 2) if self.splits_at_three and players == 3 else 5

    def default_target(self, players: int) -> int:
        """The raw target by default."""
        return self.targets[_players_index(players)]

    def default_partnerships(self, players: int) -> bool:
        """Whether four players play as two partnerships by default."""
        _players_index(players)
        return players == 4 and self.partnerships_at_four

    def options(
        self,
        players: int,
        *,
        target: int | None = None,
        hand_size: int | None = None,
        partnerships: bool | None = None,
    ) -> MatchOptions:
        """Validated options for one match; raises :class:`OptionError` for what cannot apply.

        >>> o = find_ruleset("five-up").options(4)
        >>> o.target, o.hand_size, o.partnerships, o.entities, o.entity_of
        (305, 5, True, 2, (0, 1, 0, 1))
        """
        _players_index(players)
        if partnerships is None:
            partnerships = self.default_partnerships(players)
        elif partnerships and players != 4:
            raise OptionError(f"partnerships need four players, not {players}")
        if target is None:
            target = self.default_target(players)
        elif isinstance(target, bool) or not isinstance(target, int) or target <= 0:
            raise OptionError(f"target must be a positive number of raw points, not {target!r}")
        if hand_size is None:
            hand_size = self.deal_size(players)
        elif (
            isinstance(hand_size, bool)
            or not isinstance(hand_size, int)
            or not 1 <= hand_size <= 28 // players
        ):
            raise OptionError(
                f"hand size must be 1 to {28 // players} with {players} players, not {hand_size!r}"
            )
        return MatchOptions(self, players, target, hand_size, partnerships)


def _players_index(players: int) -> int:
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise OptionError(f"players must be 2, 3 or 4, not {players!r}")
    return players - 2


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """A rule set with the options of one match (players, target, hand size, partnerships)."""

    rules: RuleSet
    players: int
    target: int
    hand_size: int
    partnerships: bool

    @property
    def entities(self) -> int:
        """How many scoring entities: 2 with partnerships, else one per seat."""
        return 2 if self.partnerships else self.players

    @property
    def entity_of(self) -> tuple[int, ...]:
        """The scoring entity of each seat."""
        if self.partnerships:
            return tuple(s % 2 for s in range(self.players))
        return tuple(range(self.players))

    @property
    def boneyard_size(self) -> int:
        """Tiles left undealt."""
        return 28 - self.players * self.hand_size

    def most_past_target(self) -> int:
        """How many entities can be at or past the target when the match ends: one where the
        match ends the moment one entity reaches it (:attr:`RuleSet.ends_at_once`) and no
        settlement splits, else every entity (``five-up`` checks only after a settled hand; a
        split award can leave two tied past it, and play goes on).

        >>> find_ruleset("all-fives").options(2).most_past_target()
        1
        >>> find_ruleset("all-fives").options(3).most_past_target()
        3
        >>> find_ruleset("five-up").options(4).most_past_target()
        2
        """
        if self.rules.ends_at_once and self.rules.score_step(self.players) == 5:
            return 1
        return self.entities


RULESETS: Final[dict[str, RuleSet]] = {
    r.name: r
    for r in (
        RuleSet(
            name="five-up",
            spinners="every",
            internal_branches_count=False,
            deal=(5, 5, 5),
            partnerships_at_four=True,
            targets=(305, 305, 305),
            ends_at_once=False,
            settle=_settle_five_up,
            displayed_divisor=5,
            source="seed 000 (with 004)",
        ),
        RuleSet(
            name="all-fives",
            spinners="first",
            internal_branches_count=False,
            deal=(9, 7, 5),
            partnerships_at_four=True,
            targets=(250, 200, 200),
            ends_at_once=True,
            settle=_settle_all_fives,
            displayed_divisor=1,
            source="seed 002 (Pagat's All Fives)",
            splits_at_three=True,
        ),
        RuleSet(
            name="five-up-7",
            spinners="every",
            internal_branches_count=True,
            deal=(7, 7, 7),
            partnerships_at_four=False,
            targets=(305, 305, 305),
            ends_at_once=True,
            settle=_settle_five_up_7,
            displayed_divisor=5,
            source="seed 003",
        ),
    )
}
"""Every rule set by name."""


def find_ruleset(name: str = DEFAULT_RULESET) -> RuleSet:
    """The rule set called ``name``; raises :class:`UnknownRuleSet` for any other name.

    >>> find_ruleset("five-up-7").internal_branches_count
    True
    >>> find_ruleset("fives")
    Traceback (most recent call last):
    ...
    scoring.rules.UnknownRuleSet: unknown rule set 'fives' (known: five-up, all-fives, five-up-7)
    """
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise UnknownRuleSet(f"unknown rule set {name!r} (known: {', '.join(RULESETS)})") from None


TIME_POLICIES: Final = ("finish-hand", "one-more-hand")
"""What a match does once time is called: finish the hand in play, or play one more."""


def last_hand_by_time(called_in_hand: int, policy: str) -> int:
    """The last hand a match plays once time is called during hand ``called_in_hand``: that
    hand itself (``finish-hand``) or the one after it (``one-more-hand``). The match ends once
    that hand is settled, unless the target ended it before (``scoresheet.md``, "By time").

    >>> last_hand_by_time(3, "finish-hand"), last_hand_by_time(3, "one-more-hand")
    (3, 4)
    """
    if policy not in TIME_POLICIES:
        raise ValueError(f"unknown time policy {policy!r}")
    return called_in_hand + (1 if policy == "one-more-hand" else 0)
