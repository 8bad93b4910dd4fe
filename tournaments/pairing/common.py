"""Shared finishing steps of every generator: tables, seat order, first-leader draws."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from . import draw
from .reasons import Reason
from .records import DrawRecord, EntryRecord, Explanation, Pairing
from .tables import assign_tables_explained


def seat_pairings(
    matches: Sequence[tuple[int, int, Explanation]],
    entries: Mapping[int, EntryRecord],
    *,
    salt: str,
    round_no: int,
    draw_leaders: bool,
) -> tuple[list[Pairing], list[DrawRecord], list[Reason]]:
    """Turn matches (seat A, seat B, why), top match first, into tabled pairings.

    Returns the pairings sorted by table, the first-leader draws (one per table, when asked)
    and notes about pins that could not be kept (templates and arguments: ``Reason.text`` is
    the English).
    """
    pins = {e.entry_id: e.pinned_table for e in entries.values() if e.pinned_table is not None}
    tables, notes = assign_tables_explained([(a, b) for a, b, _ in matches], pins)
    pairings = [
        Pairing(table=t, entry_a=a, entry_b=b, explanation=why)
        for t, (a, b, why) in zip(tables, matches, strict=True)
    ]
    pairings.sort(key=lambda p: p.table)
    draws: list[DrawRecord] = []
    if draw_leaders:
        for p in pairings:
            _, record = draw.first_leader(
                salt,
                round_no,
                p.entry_a,
                entries[p.entry_a].player_ids,
                p.entry_b,
                entries[p.entry_b].player_ids,
            )
            draws.append(record)
    return pairings, draws, notes


def active_by_id(entries: Sequence[EntryRecord]) -> dict[int, EntryRecord]:
    """The active entries by id; rejects duplicate entry ids and players in two active entries."""
    by_id: dict[int, EntryRecord] = {}
    seen_ids: set[int] = set()
    seen_players: dict[int, int] = {}
    for e in entries:
        if e.entry_id in seen_ids:
            raise ValueError(f"entry {e.entry_id} is listed twice")
        seen_ids.add(e.entry_id)
        if not e.active:
            continue
        for p in e.player_ids:
            if p in seen_players:
                raise ValueError(f"player {p} plays for entries {seen_players[p]} and {e.entry_id}")
            seen_players[p] = e.entry_id
        by_id[e.entry_id] = e
    return by_id
