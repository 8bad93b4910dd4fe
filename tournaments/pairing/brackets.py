"""Single- and double-elimination play-off brackets, seeded from a ranking.

Seeding
-------
The qualifiers are the top of the ranking: a count, or a fraction of the field (rounded down,
at least 2). Seed 1 is the best. The bracket size is the next power of two; the missing places
are byes, and since seed ``s`` meets seed ``size + 1 - s`` in the first round, the byes fall to
the top seeds. Positions follow the standard order, built by doubling: each seed ``s`` of the
half-size order is replaced by the pair ``(s, size + 1 - s)``, written with the top seed first on
even positions and last on odd ones, so for 16 the first round reads 1 v 16, 8 v 9, 5 v 12,
4 v 13, 3 v 14, 6 v 11, 7 v 10, 2 v 15: if favourites win, the seeds meeting in every round sum
to (entries left) + 1 and seeds 1 and 2 can only meet in the final. In every first-round match
the better seed takes slot A.

Output
------
Plain data: rounds of matches whose two slots are a ``SeedSlot`` (a seed number), a
``WinnerOf`` or a ``LoserOf`` (another match id). Byes never appear as matches: a seed with a bye
simply appears in its first real match, and walkovers are removed and the references rewritten.
Match ids are ``W<r>-<m>`` (winners / main bracket), ``L<r>-<m>`` (losers' bracket), ``C<r>-<m>``
(consolation), ``3P`` (third place), ``GF`` and ``GF2`` (grand final and its reset). Round
numbers are those of the full power-of-two bracket: when byes empty a whole round (say, the
first losers' round), the numbering keeps its place, so that section starts at round 2.

Consolation (single elimination, optional)
------------------------------------------
``"third_place"``: the two losing semi-finalists play for third place. ``"first_round_losers"``:
the losers of the first-round matches actually played (byes excluded) play their own
single-elimination bracket, paired in bracket order.

Double elimination
------------------
The losers of winners' round 1 meet in losers' round 1 (neighbours in bracket order). Then for
each later winners' round ``k``, a *drop-in* losers' round pairs the losers' bracket survivors with
the losers of winners' round ``k`` - in reversed order when ``k`` is even, in order when odd, so
entries who met in the winners' bracket are kept apart - followed (except after the winners'
final) by a consolidation round among the survivors. The grand final is the winners' bracket
champion against the losers' bracket champion; ``GF2`` (when ``reset`` is on) is played only if
the losers' bracket champion wins ``GF``, since only then has everyone lost once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal


@dataclass(frozen=True, slots=True)
class SeedSlot:
    seed: int


@dataclass(frozen=True, slots=True)
class WinnerOf:
    match_id: str


@dataclass(frozen=True, slots=True)
class LoserOf:
    match_id: str


@dataclass(frozen=True, slots=True)
class _ByeSlot:
    pass


Slot = SeedSlot | WinnerOf | LoserOf
_AnySlot = SeedSlot | WinnerOf | LoserOf | _ByeSlot
_BYE = _ByeSlot()

BracketSection = Literal["winners", "losers", "consolation", "third_place", "final"]
Consolation = Literal["third_place", "first_round_losers"]


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One match: its id, section, round within the section, two slots, and a note."""

    match_id: str
    section: BracketSection
    round_no: int
    slot_a: Slot
    slot_b: Slot
    note: str = ""


@dataclass(frozen=True, slots=True)
class BracketRound:
    section: BracketSection
    round_no: int
    matches: tuple[BracketMatch, ...]


@dataclass(frozen=True, slots=True)
class Bracket:
    """A seeded bracket. ``seeds[s - 1]`` is the entry id of seed ``s``; ``byes`` lists the seeds
    that skip the first round. ``rounds`` are grouped by section (winners, then losers,
    consolation or third place, then the finals), each section in round order; a slot only ever
    refers to a match listed before it."""

    kind: Literal["single", "double"]
    size: int
    seeds: tuple[int, ...]
    byes: tuple[int, ...]
    rounds: tuple[BracketRound, ...]
    consolation: Consolation | None = None

    def match(self, match_id: str) -> BracketMatch:
        for r in self.rounds:
            for m in r.matches:
                if m.match_id == match_id:
                    return m
        raise KeyError(match_id)


def qualifier_count(
    field_size: int, *, count: int | None = None, fraction: Fraction | None = None
) -> int:
    """How many qualify: ``count`` (capped at the field), or ``floor(fraction * field)``, at
    least 2. Exactly one of ``count`` and ``fraction`` must be given."""
    if (count is None) == (fraction is None):
        raise ValueError("give exactly one of count and fraction")
    if fraction is not None:
        if not 0 < fraction <= 1:
            raise ValueError("fraction must be in (0, 1]")
        count = int(Fraction(fraction) * field_size)
    assert count is not None
    count = min(count, field_size)
    if count < 2:
        raise ValueError("a bracket needs at least 2 qualifiers")
    return count


def bracket_size(qualifiers: int) -> int:
    """The next power of two at or above ``qualifiers``."""
    size = 1
    while size < qualifiers:
        size *= 2
    return size


def standard_order(size: int) -> list[int]:
    """Seeds in bracket position order for a power-of-two ``size``.

    >>> standard_order(8)
    [1, 8, 5, 4, 3, 6, 7, 2]
    """
    if size < 2 or size & (size - 1):
        raise ValueError("size must be a power of two >= 2")
    order = [1, 2]
    while len(order) < size:
        n = 2 * len(order)
        nxt: list[int] = []
        for position, s in enumerate(order):
            pair = [s, n + 1 - s]
            nxt.extend(pair if position % 2 == 0 else pair[::-1])
        order = nxt
    return order


class _Builder:
    """Collects matches with possible bye slots, then removes walkovers."""

    def __init__(self) -> None:
        self.matches: list[tuple[str, BracketSection, int, _AnySlot, _AnySlot, str]] = []

    def add(
        self,
        match_id: str,
        section: BracketSection,
        round_no: int,
        a: _AnySlot,
        b: _AnySlot,
        note: str = "",
    ) -> str:
        self.matches.append((match_id, section, round_no, a, b, note))
        return match_id

    def build(self) -> list[BracketRound]:
        advance: dict[str, _AnySlot] = {}  # walkover id -> who advances
        loser: dict[str, _AnySlot] = {}
        kept: list[tuple[str, BracketSection, int, Slot, Slot, str]] = []

        def resolve(slot: _AnySlot) -> _AnySlot:
            if isinstance(slot, WinnerOf) and slot.match_id in advance:
                return advance[slot.match_id]
            if isinstance(slot, LoserOf) and slot.match_id in loser:
                return loser[slot.match_id]
            return slot

        for match_id, section, round_no, a, b, note in self.matches:
            ra, rb = resolve(a), resolve(b)
            if isinstance(ra, _ByeSlot) or isinstance(rb, _ByeSlot):
                advance[match_id] = rb if isinstance(ra, _ByeSlot) else ra
                loser[match_id] = _BYE
                continue
            kept.append((match_id, section, round_no, ra, rb, note))
        # renumber: sections keep their round numbers, matches count from 1 within a round
        rename: dict[str, str] = {}
        counters: dict[tuple[BracketSection, int], int] = {}
        prefix = {"winners": "W", "losers": "L", "consolation": "C"}
        for match_id, section, round_no, _, _, _ in kept:
            if section in prefix:
                k = counters.get((section, round_no), 0) + 1
                counters[(section, round_no)] = k
                rename[match_id] = f"{prefix[section]}{round_no}-{k}"
            else:
                rename[match_id] = match_id

        def rewrite(slot: Slot) -> Slot:
            if isinstance(slot, WinnerOf):
                return WinnerOf(rename[slot.match_id])
            if isinstance(slot, LoserOf):
                return LoserOf(rename[slot.match_id])
            return slot

        rounds: dict[tuple[BracketSection, int], list[BracketMatch]] = {}
        for match_id, section, round_no, a, b, note in kept:
            rounds.setdefault((section, round_no), []).append(
                BracketMatch(rename[match_id], section, round_no, rewrite(a), rewrite(b), note)
            )
        return [BracketRound(s, r, tuple(ms)) for (s, r), ms in rounds.items()]


def _seat(seed: int, qualifiers: int) -> _AnySlot:
    return SeedSlot(seed) if seed <= qualifiers else _BYE


def _winners_bracket(builder: _Builder, size: int, qualifiers: int) -> list[list[str]]:
    order = standard_order(size)
    rounds: list[list[str]] = []
    first = []
    for m in range(size // 2):
        top, bottom = sorted((order[2 * m], order[2 * m + 1]))  # the better seed in slot A
        first.append(
            builder.add(f"w1-{m}", "winners", 1, _seat(top, qualifiers), _seat(bottom, qualifiers))
        )
    rounds.append(first)
    r = 1
    while len(rounds[-1]) > 1:
        r += 1
        prev = rounds[-1]
        rounds.append(
            [
                builder.add(
                    f"w{r}-{m}", "winners", r, WinnerOf(prev[2 * m]), WinnerOf(prev[2 * m + 1])
                )
                for m in range(len(prev) // 2)
            ]
        )
    return rounds


def _qualified(ranking: Sequence[int], qualifiers: int) -> tuple[int, int, tuple[int, ...]]:
    if len(set(ranking)) != len(ranking):
        raise ValueError("ranking lists an entry twice")
    if not 2 <= qualifiers <= len(ranking):
        raise ValueError("need 2 <= qualifiers <= len(ranking)")
    size = bracket_size(qualifiers)
    return qualifiers, size, tuple(ranking[:qualifiers])


def single_elimination(
    ranking: Sequence[int], *, qualifiers: int, consolation: Consolation | None = None
) -> Bracket:
    """A single-elimination bracket for the top ``qualifiers`` of ``ranking`` (entry ids, best
    first). See ``qualifier_count`` to turn a fraction into a count."""
    q, size, seeds = _qualified(ranking, qualifiers)
    builder = _Builder()
    winners = _winners_bracket(builder, size, q)
    if consolation == "third_place" and len(winners) >= 2:
        semis = winners[-2]
        builder.add("3P", "third_place", 1, LoserOf(semis[0]), LoserOf(semis[1]), "third place")
    elif consolation == "first_round_losers" and len(winners) >= 2:
        current: list[_AnySlot] = [LoserOf(m) for m in winners[0]]
        r = 0
        while len(current) > 1:
            r += 1
            current = [
                WinnerOf(
                    builder.add(f"c{r}-{m}", "consolation", r, current[2 * m], current[2 * m + 1])
                )
                for m in range(len(current) // 2)
            ]
    elif consolation is not None and consolation not in ("third_place", "first_round_losers"):
        raise ValueError(f"unknown consolation {consolation!r}")
    return Bracket(
        kind="single",
        size=size,
        seeds=seeds,
        byes=tuple(range(1, size - q + 1)),
        rounds=tuple(builder.build()),
        consolation=consolation,
    )


def double_elimination(ranking: Sequence[int], *, qualifiers: int, reset: bool = True) -> Bracket:
    """A double-elimination bracket for the top ``qualifiers`` (at least 3) of ``ranking``."""
    q, size, seeds = _qualified(ranking, qualifiers)
    if q < 3:
        raise ValueError("double elimination needs at least 3 qualifiers")
    builder = _Builder()
    winners = _winners_bracket(builder, size, q)
    first = winners[0]
    lb_round = 1
    survivors = [
        builder.add(f"l1-{m}", "losers", 1, LoserOf(first[2 * m]), LoserOf(first[2 * m + 1]))
        for m in range(len(first) // 2)
    ]
    for k in range(2, len(winners) + 1):
        dropping = winners[k - 1]
        if k % 2 == 0:
            dropping = dropping[::-1]
        lb_round += 1
        survivors = [
            builder.add(
                f"l{lb_round}-{m}", "losers", lb_round, WinnerOf(survivors[m]), LoserOf(dropping[m])
            )
            for m in range(len(survivors))
        ]
        if k < len(winners):
            lb_round += 1
            survivors = [
                builder.add(
                    f"l{lb_round}-{m}",
                    "losers",
                    lb_round,
                    WinnerOf(survivors[2 * m]),
                    WinnerOf(survivors[2 * m + 1]),
                )
                for m in range(len(survivors) // 2)
            ]
    champion = winners[-1][0]
    builder.add("GF", "final", 1, WinnerOf(champion), WinnerOf(survivors[0]), "grand final")
    if reset:
        builder.add(
            "GF2",
            "final",
            2,
            WinnerOf("GF"),
            LoserOf("GF"),
            "played only if the losers' bracket champion wins GF",
        )
    return Bracket(
        kind="double",
        size=size,
        seeds=seeds,
        byes=tuple(range(1, size - q + 1)),
        rounds=tuple(builder.build()),
    )
