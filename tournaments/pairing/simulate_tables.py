"""Simulated events at tables of many, for tests and benchmarks: seeded, reproducible, pure.

``play_tables`` gives every table random final scores (distinct, so no shared places), then
match points by placing (``points``, first place first; a table of 3 takes the first three) and
spread (own score minus the mean of the tablemates', exactly); a bye gives ``bye_points``.
``simulate_tables`` plays ``rounds`` rounds of ``pair_tables`` on a field of single players.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from .records import EntryRecord, PastMatch
from .tables_of_many import PastTable, TablesOptions, TablesRound, pair_tables


def make_players(size: int) -> list[EntryRecord]:
    """Entries 1..size of one player each (player id = entry id)."""
    return [EntryRecord(entry_id=k, player_ids=frozenset({k})) for k in range(1, size + 1)]


def play_tables(
    entries: Sequence[EntryRecord],
    round_: TablesRound,
    rng: random.Random,
    *,
    points: Sequence[int] = (4, 2, 1, 0),
    bye_points: int = 2,
) -> tuple[list[EntryRecord], list[PastTable]]:
    """Random results for every table; returns (updated entries, this round's tables)."""
    by_id = {e.entry_id: e for e in entries}
    played: list[PastTable] = []
    for t in round_.tables:
        scores = rng.sample(range(0, 400, 5), len(t.entries))
        order = sorted(range(len(t.entries)), key=lambda k: -scores[k])
        total = sum(scores)
        for place, k in enumerate(order):
            e = by_id[t.entries[k]]
            others = Fraction(total - scores[k], len(scores) - 1)
            spread = Fraction(e.spread) + scores[k] - others
            by_id[e.entry_id] = replace(
                e,
                match_points=e.match_points + points[place],
                spread=int(spread) if spread.denominator == 1 else spread,
            )
        played.append(
            PastTable(round_.round_no, t.entries, tuple(by_id[e].player_ids for e in t.entries))
        )
    for bye in round_.byes:
        e = by_id[bye.entry_id]
        by_id[e.entry_id] = replace(
            e, match_points=e.match_points + bye_points, byes_received=e.byes_received + 1
        )
        played.append(PastTable(round_.round_no, (e.entry_id,), (e.player_ids,)))
    return [by_id[e.entry_id] for e in entries], played


def simulate_tables(
    size: int,
    rounds: int,
    *,
    seed: int = 0,
    salt: str = "sim",
    options: TablesOptions | None = None,
    entries: Sequence[EntryRecord] | None = None,
) -> tuple[list[EntryRecord], list[PastMatch | PastTable], list[TablesRound]]:
    """Play ``rounds`` rounds on ``size`` single players (or the given ``entries``); returns the
    entries after the last round, the full history and every generated round."""
    rng = random.Random(seed)
    field = list(entries) if entries is not None else make_players(size)
    history: list[PastMatch | PastTable] = []
    generated: list[TablesRound] = []
    for r in range(1, rounds + 1):
        rp = pair_tables(field, history, round_no=r, salt=salt, options=options)
        generated.append(rp)
        field, played = play_tables(field, rp, rng)
        history.extend(played)
    return field, history, generated
