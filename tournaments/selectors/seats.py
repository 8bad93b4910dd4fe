"""The seats of tables of many (three or four individual players at a table): who sits where,
read from ``RoundSeat`` (``side`` is the seat, 0 to 3, clockwise from North). The pages that
show a table (the round, "my table", a player's or an entry's matches, a match) read them here.
"""

from __future__ import annotations

from collections import defaultdict

from tournaments.models import RoundSeat


def table_seats(match_ids: list[int]) -> dict[int, list[tuple[int, int, str]]]:
    """The seats of these tables of many, by match: ``(seat, entry id, entry name)`` in seat
    order (``RoundSeat``: every seat, seats 0 and 1 included). One query (none for no ids)."""
    seats: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    if not match_ids:
        return seats
    for match_id, seat, entry_id, name in (
        RoundSeat.objects.filter(match_id__in=match_ids)
        .order_by("match_id", "side")
        .values_list("match_id", "side", "entry_id", "entry__name")
    ):
        seats[match_id].append((seat, entry_id, name))
    return seats
