"""Simulated events for tests, benchmarks and demos: seeded, reproducible, pure.

``play_round`` applies random results to a generated round (win 2 match points, loss 0, the
margin added to the spread; a bye gives ``bye_points`` match points and no spread) and returns
the updated entries and the round's ``PastMatch`` records. ``simulate`` builds a field of
two-player teams and plays ``rounds`` Swiss rounds (round 1 random from the salt).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from .first_round import pair_first_round
from .records import EntryRecord, PastMatch, RoundPairing
from .swiss import SwissOptions, pair_swiss


def make_field(size: int, *, players_per_entry: int = 2) -> list[EntryRecord]:
    """Entries 1..size with consecutive player ids (entry k has players (k-1)*p+1 ... k*p)."""
    return [
        EntryRecord(
            entry_id=k,
            player_ids=frozenset(range((k - 1) * players_per_entry + 1, k * players_per_entry + 1)),
            rating=1000 + (k * 37) % 400,
            seed=k,
        )
        for k in range(1, size + 1)
    ]


def play_round(
    entries: Sequence[EntryRecord],
    round_pairing: RoundPairing,
    rng: random.Random,
    *,
    bye_points: int = 2,
) -> tuple[list[EntryRecord], list[PastMatch]]:
    """Random results for every pairing; returns (updated entries, this round's matches)."""
    by_id = {e.entry_id: e for e in entries}
    played: list[PastMatch] = []
    for p in round_pairing.pairings:
        a, b = by_id[p.entry_a], by_id[p.entry_b]
        margin = rng.randint(5, 150)
        winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
        by_id[winner.entry_id] = replace(
            winner, match_points=winner.match_points + 2, spread=winner.spread + margin
        )
        by_id[loser.entry_id] = replace(loser, spread=loser.spread - margin)
        played.append(
            PastMatch(round_pairing.round_no, a.entry_id, a.player_ids, b.entry_id, b.player_ids)
        )
    for bye in round_pairing.byes:
        e = by_id[bye.entry_id]
        by_id[e.entry_id] = replace(
            e, match_points=e.match_points + bye_points, byes_received=e.byes_received + 1
        )
        played.append(PastMatch(round_pairing.round_no, e.entry_id, e.player_ids))
    return [by_id[e.entry_id] for e in entries], played


def simulate(
    size: int,
    rounds: int,
    *,
    seed: int = 0,
    salt: str = "sim",
    options: SwissOptions | None = None,
) -> tuple[list[EntryRecord], list[PastMatch], list[RoundPairing]]:
    """Play ``rounds`` rounds on a field of ``size`` teams; returns the entries after the last
    round, the full history and every generated round."""
    rng = random.Random(seed)
    entries = make_field(size)
    history: list[PastMatch] = []
    generated: list[RoundPairing] = []
    for r in range(1, rounds + 1):
        if r == 1:
            rp = pair_first_round(entries, salt=salt, draw_leaders=False)
        else:
            rp = pair_swiss(entries, history, round_no=r, salt=salt, options=options)
        generated.append(rp)
        entries, played = play_round(entries, rp, rng)
        history.extend(played)
    return entries, history, generated
