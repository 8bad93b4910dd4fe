"""The field of a Swiss round: the active entries in rank order, who has met whom, score
groups, the tier units and the cost of a pair (see :mod:`~tournaments.pairing.swiss` for the
tiers and why the units make the weights lexicographic)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .common import active_by_id
from .history import met_entries
from .records import (
    CONSTRAINT_UNTIL,
    EntryRecord,
    Number,
    PastMatch,
    constraint_between,
)


@dataclass(frozen=True, slots=True)
class SwissOptions:
    """Tuning of the Swiss matcher.

    ``mp_scale`` and ``spread_scale`` turn match points and spread into integers (e.g. 2 when
    half match points exist); spread differences are rounded to the nearest integer after
    scaling. ``spread_cap`` bounds the spread tier. ``dense`` skips the window (reference runs).
    ``draw_leaders`` adds a first-leader draw per table to the round. ``constraint_until`` is
    the last round where the director's constraints rank above score groups.
    """

    initial_window: int = 8
    spread_cap: int = 1000
    mp_scale: int = 1
    spread_scale: int = 1
    dense: bool = False
    draw_leaders: bool = True
    constraint_until: int = CONSTRAINT_UNTIL


@dataclass(frozen=True, slots=True)
class Units:
    """The tier units of one round (see the module docstring)."""

    pairs: int
    spread_cap: int
    spread: int
    float: int
    mp: int
    bye: int
    rematch: int
    base: int
    avoid: int = 0


@dataclass(frozen=True, slots=True)
class Field:
    """The prepared field of a round: entries in rank order (index 0 ranks first), the bye node
    (index ``n``, when the field is odd), who has met whom, and the tier units."""

    order: tuple[EntryRecord, ...]
    met: tuple[frozenset[int], ...]
    mp: tuple[int, ...]
    spread: tuple[int | Fraction, ...]
    above: tuple[int, ...]
    below: tuple[int, ...]
    bye_cost: dict[int, int]
    units: Units
    apart: tuple[frozenset[int], ...] = ()

    @property
    def size(self) -> int:
        return len(self.order)

    @property
    def bye_node(self) -> int | None:
        return self.size if self.size % 2 else None

    @property
    def nodes(self) -> int:
        return self.size + (1 if self.size % 2 else 0)


def _exact(value: Fraction) -> int | Fraction:
    return int(value) if value.denominator == 1 else value


def _scaled_int(value: Number, scale: int, what: str) -> int:
    if isinstance(value, int):
        return value * scale
    scaled = Fraction(value) * scale
    if scaled.denominator != 1:
        raise ValueError(f"{what} {value} times scale {scale} is not an integer; raise the scale")
    return int(scaled)


def prepare_field(
    entries: Sequence[EntryRecord],
    history: Iterable[PastMatch],
    order: Sequence[int],
    options: SwissOptions,
    round_no: int = 1,
) -> Field:
    """Index the active entries in rank order and compute who has met whom and the units."""
    by_id = active_by_id(entries)
    ranked = tuple(by_id[i] for i in order)
    index = {e.entry_id: i for i, e in enumerate(ranked)}
    met_ids = met_entries(ranked, history)
    met = tuple(frozenset(index[o] for o in met_ids[e.entry_id]) for e in ranked)
    mp = tuple(_scaled_int(e.match_points, options.mp_scale, "match points") for e in ranked)
    # Integral spreads stay ints: Fraction arithmetic is the slowest part of building the graph.
    scale = options.spread_scale
    spread: tuple[int | Fraction, ...] = tuple(
        e.spread * scale if isinstance(e.spread, int) else _exact(e.spread * scale) for e in ranked
    )
    n = len(ranked)
    above, below = _group_positions(mp)
    apart = _apart(ranked)
    early = bool(apart) and round_no <= options.constraint_until
    units = _units(n, mp, options.spread_cap, early=early, late=bool(apart) and not early)
    return Field(ranked, met, mp, spread, above, below, _bye_costs(ranked), units, apart)


def _bye_costs(ranked: Sequence[EntryRecord]) -> dict[int, int]:
    """For an odd field, the bye cost of each entry eligible for the bye (the fewest byes so
    far): how many eligible entries are ranked below it. Empty for an even field."""
    bye_cost: dict[int, int] = {}
    if len(ranked) % 2:
        fewest = min(e.byes_received for e in ranked)
        eligible = [i for i, e in enumerate(ranked) if e.byes_received == fewest]
        # eligible is in rank order; the cost counts the eligible entries ranked below.
        for position, i in enumerate(eligible):
            bye_cost[i] = len(eligible) - 1 - position
    return bye_cost


def _group_positions(mp: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each entry's position inside its score group (entries with equal scaled match points),
    for tier 5: how many of the group are ranked above it, and how many below."""
    n = len(mp)
    above = [0] * n
    below = [0] * n
    group_size: dict[int, int] = {}
    for i in range(n):
        above[i] = group_size.get(mp[i], 0)
        group_size[mp[i]] = above[i] + 1
    for i in range(n):
        below[i] = group_size[mp[i]] - 1 - above[i]
    return tuple(above), tuple(below)


def _apart(ranked: Sequence[EntryRecord]) -> tuple[frozenset[int], ...]:
    """For each rank index, whom the director keeps it apart from; empty when nobody is."""
    n = len(ranked)
    apart: tuple[frozenset[int], ...] = ()
    if any(e.club is not None or e.avoid for e in ranked):
        apart = tuple(
            frozenset(j for j in range(n) if j != i and constraint_between(ranked[i], ranked[j]))
            for i in range(n)
        )
        if not any(apart):
            apart = ()  # nobody is to be kept apart from anybody: no tier
    return apart


def _units(n: int, mp: Sequence[int], cap: int, *, early: bool, late: bool) -> Units:
    """The units that pack the tiers into one weight per pair, each above the most that all
    lower tiers can add up to in one round; the constraint tier sits above the rematch tier in
    the early rounds (``early``) and below the float tier later (``late``)."""
    pairs = (n + 1) // 2
    mp_range = max(mp) - min(mp) if mp else 0
    spread_unit = pairs * n + 1
    tier6_max = cap * spread_unit + n
    avoid_unit = 0
    if late:
        avoid_unit = pairs * tier6_max + 1
        tier6_max += avoid_unit  # the per-pair maximum below the float tier
    float_unit = pairs * tier6_max + 1
    tier5_max = 2 * n * float_unit + tier6_max
    mp_unit = pairs * tier5_max + 1
    lower_max = mp_range**2 * mp_unit + tier5_max
    bye_unit = pairs * lower_max + 1
    rematch_unit = n * bye_unit
    if early:
        avoid_unit = rematch_unit
        rematch_unit = (pairs + 1) * avoid_unit
        lower_max += avoid_unit
    top = max(rematch_unit + lower_max, max(n - 1, 0) * bye_unit)
    if top * max(pairs, 1) >= 2**126:
        raise ValueError("field too large for 128-bit weights; lower spread_cap")
    return Units(
        pairs, cap, spread_unit, float_unit, mp_unit, bye_unit, rematch_unit, top + 1, avoid_unit
    )


def _gap(a: int | Fraction, b: int | Fraction) -> int:
    """|a - b| rounded to the nearest integer (half to even), exact for Fractions."""
    if isinstance(a, int) and isinstance(b, int):
        return abs(a - b)
    return round(abs(Fraction(a) - Fraction(b)))


def pair_cost(field: Field, i: int, j: int) -> int:
    """The cost of pairing the entries ranked ``i`` and ``j`` (0-based)."""
    u = field.units
    d = field.mp[i] - field.mp[j]
    spread = min(_gap(field.spread[i], field.spread[j]), u.spread_cap)
    rematch = u.rematch if j in field.met[i] else 0
    if field.apart and j in field.apart[i]:
        rematch += u.avoid
    near = u.spread * spread + abs(j - i)
    if d == 0:
        return rematch + near
    hi, lo = (i, j) if d > 0 else (j, i)
    return rematch + u.mp * d * d + u.float * (field.below[hi] + field.above[lo]) + near
