"""Opponent history, kept per player, and the entries that have therefore met."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from .records import EntryRecord, PastMatch


def opponents_by_player(history: Iterable[PastMatch]) -> dict[int, set[int]]:
    """For each player, every player who has sat opposite them (byes add nothing)."""
    met: dict[int, set[int]] = defaultdict(set)
    for match in history:
        if match.is_bye:
            continue
        for p in match.players_a:
            met[p].update(match.players_b)
        for q in match.players_b:
            met[q].update(match.players_a)
    return dict(met)


def met_entries(
    entries: Sequence[EntryRecord], history: Iterable[PastMatch]
) -> dict[int, set[int]]:
    """For each entry id, the ids of the other given entries it has met.

    Two entries have met when any current player of one has been the opponent of any current
    player of the other, in any earlier round and for any entry. Players not in any given entry
    are ignored.
    """
    owner: dict[int, int] = {}
    for e in entries:
        for p in e.player_ids:
            owner[p] = e.entry_id
    opponents = opponents_by_player(history)
    met: dict[int, set[int]] = {e.entry_id: set() for e in entries}
    for e in entries:
        for p in e.player_ids:
            for q in opponents.get(p, ()):
                other = owner.get(q)
                if other is not None and other != e.entry_id:
                    # the history is symmetric, so the other entry adds this one in its turn
                    met[e.entry_id].add(other)
    return met
