"""The most rematch-free pairs a Swiss round can have, found without the dense graph.

A round has a perfect matching without rematches only if the *rematch-free graph* (entries
joined when they have not met; an odd field's bye node joined to the entries eligible for the
bye) has one. The fewest rematches of a complete pairing is ``P - M``, where ``P`` is the
number of pairs and ``M`` the largest matching of that graph (any matching of ``M`` rematch-free
pairs is completed with rematch pairs, since any two entries may meet again). The graph is
nearly complete in a Swiss event (an entry has met a handful of the field), but it has
``n**2 / 2`` edges: 2 million for 2,000 entries, too many to build, let alone match, in a
round's time. :func:`hard_entries` finds ``M`` exactly from a small graph instead.

Hard and easy entries
---------------------
An entry is *hard* when it has met a quarter of the field or more (and the bye node is hard:
it is joined only to the entries eligible for the bye); every other entry is *easy*. Let ``c``
be the most hard entries one matching of the rematch-free graph can cover (by pairing them with
each other or with easy entries), with its easy partners ``Q``. Then

    M = floor((c + |easy|) / 2)

whenever the easy entries left, ``E' = easy - Q``, have a perfect matching, or one that misses
a single entry, among themselves: a matching covers at most ``c`` hard entries and at most every
easy one, so ``M`` is at most that; and the matching that covers ``c`` hard entries, plus the
matching of ``E'``, reaches it. ``E'`` is checked for Dirac's condition (every entry of ``E'``
has not met at least half of ``E'``: then ``E'`` has a Hamiltonian path, hence such a
matching), exactly; when it fails (a small field, or a field where most entries have met most
others) ``M`` is left unknown and the caller falls back to the dense graph.

``c`` is a maximum-weight matching (weight 2 for a pair of hard entries, 1 for a hard entry and
an easy one) on the hard entries and, for each, its ``h`` nearest easy entries it has not met
(``h`` the number of hard entries, or all it has when fewer): enough by Hall's argument, since
in any matching covering ``c`` hard entries, an entry matched outside its ``h`` candidates can
move to one of them, at most ``h - 1`` being taken by the other hard entries.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

import rustworkx as rx

HARD_SHARE = 4
"""An entry is hard when it has met at least ``1 / HARD_SHARE`` of the field."""


@dataclass(frozen=True, slots=True)
class HardEntries:
    """The hard entries of a round (rank indices; see the module docstring) and ``most_pairs``,
    the largest number of rematch-free pairs of any matching of the field (bye node included),
    or ``None`` when it could not be certified without the dense graph."""

    entries: frozenset[int]
    most_pairs: int | None


def hard_entries(met: Sequence[frozenset[int]], eligible: Collection[int] | None) -> HardEntries:
    """The hard entries of a field of ``len(met)`` entries in rank order (``met[i]``: the rank
    indices entry ``i`` has met) and the most rematch-free pairs; ``eligible``: the entries
    eligible for the bye of an odd field (the bye node is index ``len(met)``), ``None`` when the
    field is even."""
    n = len(met)
    hard = frozenset(i for i in range(n) if HARD_SHARE * len(met[i]) >= n)
    bye = n if eligible is not None else None
    nodes = [*sorted(hard), *([bye] if bye is not None else [])]
    easy = [i for i in range(n) if i not in hard]
    covered, partners = _hard_coverage(met, eligible, nodes, len(nodes))
    left = [i for i in easy if i not in partners]
    if not _dirac(met, left):
        return HardEntries(hard, None)
    return HardEntries(hard, (covered + len(easy)) // 2)


def _free(met: Sequence[frozenset[int]], eligible: Collection[int] | None, a: int, b: int) -> bool:
    """Whether ``a`` and ``b`` (rank indices, or the bye node ``len(met)``) have not met."""
    n = len(met)
    if b == n:
        return eligible is not None and a in eligible
    if a == n:
        return eligible is not None and b in eligible
    return b not in met[a]


def _hard_coverage(
    met: Sequence[frozenset[int]],
    eligible: Collection[int] | None,
    nodes: Sequence[int],
    wanted: int,
) -> tuple[int, set[int]]:
    """The most hard ``nodes`` one rematch-free matching covers, and its easy partners."""
    if not nodes:
        return 0, set()
    n = len(met)
    hard = set(nodes)
    edges: list[tuple[int, int, int]] = []
    for x, a in enumerate(nodes):
        for b in nodes[x + 1 :]:
            if _free(met, eligible, a, b):
                edges.append((a, b, 2))
        found = 0
        for b in _nearest(a, n):  # the nearest easy entries it has not met, by rank
            if b not in hard and _free(met, eligible, a, b):
                edges.append((a, b, 1))
                found += 1
                if found == wanted:
                    break
    graph: rx.PyGraph = rx.PyGraph(multigraph=False)
    index = {v: graph.add_node(v) for v in {v for e in edges for v in e[:2]}}
    graph.add_edges_from([(index[a], index[b], w) for a, b, w in edges])
    matching = rx.max_weight_matching(graph, weight_fn=lambda w: w)
    covered, partners = 0, set[int]()
    for x, y in matching:
        a, b = graph[x], graph[y]
        covered += (a in hard) + (b in hard)
        partners.update(v for v in (a, b) if v not in hard)
    return covered, partners


def _nearest(a: int, n: int) -> Iterator[int]:
    """Rank indices by distance from ``a`` (the bye node ``n`` starts from the bottom)."""
    start = min(a, n - 1)
    if a == n:
        yield start
    for d in range(1, n):
        for b in (start - d, start + d):
            if 0 <= b < n:
                yield b


def _dirac(met: Sequence[frozenset[int]], left: Sequence[int]) -> bool:
    """Whether every entry of ``left`` has not met at least half of ``left`` (Dirac's
    condition: ``left`` then has a matching missing at most one entry)."""
    size = len(left)
    if size <= 1:
        return True
    inside = set(left)
    if size == 2:
        return left[1] not in met[left[0]]
    return all(2 * (size - 1 - len(met[i] & inside)) >= size for i in left)
