"""Reads for rounds at tables of many (individual players at tables of 3 or 4): a stored round as
the pairing package's ``TablesRound``, each table's seats, and its re-check by the independent
``pairing.check_tables.check_tables_round``.

A round is *at tables of many* when its explanation says so (``kind`` ``swiss_tables``, written
by ``services.round_writer.write_tables_round``); its tables of two, if the event mixes them in,
are tables like the others there.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from tournaments import game
from tournaments.models import Entry, Match, Round, RoundSeat
from tournaments.pairing.check_tables import check_tables_round
from tournaments.pairing.records import DrawRecord, Number, Violation
from tournaments.pairing.tables_records import Table, TableBye, TableExplanation, TablesRound
from tournaments.selectors.pairing_inputs import pairing_inputs

TABLES_KIND = "swiss_tables"
"""``Round.explanation["kind"]`` of a round seated by ``pairing.pair_tables``."""


def is_tables_round(rnd: Round) -> bool:
    """Whether ``rnd`` was seated at tables of many (``pairing.pair_tables``)."""
    return isinstance(rnd.explanation, dict) and rnd.explanation.get("kind") == TABLES_KIND


def seats_by_match(matches: list[Match]) -> dict[int, list[int]]:
    """Match id -> its entries in seat order, for the matches at tables of many among
    ``matches`` (``RoundSeat`` rows, ``side`` = the seat). One query, none when there is none."""
    many = [m.pk for m in matches if m.table_entries > 2]
    if not many:
        return {}
    seats: dict[int, list[int]] = defaultdict(list)
    for match_id, entry_id in (
        RoundSeat.objects.filter(match_id__in=many)
        .order_by("match_id", "side")
        .values_list("match_id", "entry_id")
    ):
        seats[match_id].append(entry_id)
    return dict(seats)


def seated_entries(matches: list[Match]) -> dict[int, list[Entry]]:
    """Match id -> its ``Entry`` rows in seat order, for the matches at tables of many among
    ``matches``. One query, none when there is none."""
    many = [m.pk for m in matches if m.table_entries > 2]
    if not many:
        return {}
    seats: dict[int, list[Entry]] = defaultdict(list)
    for seat in (
        RoundSeat.objects.filter(match_id__in=many)
        .select_related("entry")
        .order_by("match_id", "side")
    ):
        seats[seat.match_id].append(seat.entry)
    return dict(seats)


def match_seats(match: Match, seats: dict[int, list[int]]) -> tuple[int, ...]:
    """A match's entries in seat order (a bye: its one entry)."""
    if match.pk in seats:
        return tuple(seats[match.pk])
    if match.entry_b_id is None:
        return (match.entry_a_id,)
    return (match.entry_a_id, match.entry_b_id)


def _number(value: Any) -> Number | None:
    """A number written by ``pairing.export.number`` (an int, or "p/q"), read back."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    fraction = Fraction(str(value))
    return int(fraction) if fraction.denominator == 1 else fraction


def _explanation(data: dict[str, Any]) -> TableExplanation:
    return TableExplanation(
        method=str(data.get("method", "")),
        reason=str(data.get("reason", "")),
        score_groups=tuple(
            n for n in (_number(g) for g in data.get("score_groups") or ()) if n is not None
        ),
        ranks=tuple(int(r) for r in data.get("ranks") or ()),
        repeats=tuple((int(p[0]), int(p[1])) for p in data.get("repeats") or () if len(p) == 2),
        constraints=tuple(str(c) for c in data.get("constraints") or ()),
    )


def _override(data: dict[str, Any]) -> str | None:
    overrides = data.get("overrides") or []
    return "; ".join(str(o.get("reason", "")) for o in overrides if isinstance(o, dict)) or None


def draw_record(data: dict[str, Any]) -> DrawRecord:
    """A draw stored by ``pairing.export.draw_to_dict``, read back."""
    return DrawRecord(
        purpose=str(data.get("purpose", "")),
        round_no=int(data.get("round", 0)),
        method=str(data.get("method", "")),
        inputs=tuple(int(i) for i in data.get("candidates") or ()),
        outcome=tuple(int(i) for i in data.get("outcome") or ()),
        context=tuple(int(i) for i in data.get("context") or ()),
    )


def tables_round_record(rnd: Round) -> TablesRound:
    """A stored round at tables of many as the pairing package's ``TablesRound`` (for the
    checker): every table in seat order with its explanation and the director's override, the
    byes, the round's draws and the table sizes it was seated at. Two queries."""
    matches = [m for m in rnd.matches.select_related("table").order_by("pk") if m.game_no == 1]
    seats = seats_by_match(matches)
    tables: list[Table] = []
    byes: list[TableBye] = []
    for m in matches:
        data = m.explanation if isinstance(m.explanation, dict) else {}
        if m.is_bye or m.entry_b_id is None:
            byes.append(TableBye(m.entry_a_id, _explanation(data), _override(data)))
            continue
        tables.append(
            Table(
                table=m.table.number if m.table is not None else 0,
                entries=match_seats(m, seats),
                explanation=_explanation(data),
                override=_override(data),
            )
        )
    tables.sort(key=lambda t: t.table)
    stored = rnd.explanation if isinstance(rnd.explanation, dict) else {}
    draws = tuple(draw_record(d) for d in stored.get("draws") or () if isinstance(d, dict))
    # a table re-drawn after a director's swap records its own first-leader draw
    draws += tuple(
        draw_record(leader["draw"])
        for m in matches
        if isinstance(m.explanation, dict)
        and m.explanation.get("overrides")
        and isinstance(leader := m.explanation.get("first_leader"), dict)
        and isinstance(leader.get("draw"), dict)
    )
    sizes = tuple(int(s) for s in stored.get("table_sizes") or game.table_sizes(rnd.event))
    return TablesRound(
        round_no=rnd.number,
        tables=tuple(tables),
        byes=tuple(byes),
        ranking=tuple(int(i) for i in stored.get("ranking") or ()),
        draws=draws,
        table_sizes=sizes,
    )


def swapped_tables(record: TablesRound, x: int, y: int) -> TablesRound:
    """``record`` with entries ``x`` and ``y`` exchanged wherever they sit (a preview)."""

    def swap(e: int) -> int:
        return y if e == x else x if e == y else e

    return TablesRound(
        round_no=record.round_no,
        tables=tuple(
            Table(t.table, tuple(swap(e) for e in t.entries), t.explanation, t.override or "swap")
            if x in t.entries or y in t.entries
            else t
            for t in record.tables
        ),
        byes=tuple(
            TableBye(swap(b.entry_id), b.explanation, b.override or "swap")
            if b.entry_id in (x, y)
            else b
            for b in record.byes
        ),
        ranking=record.ranking,
        draws=record.draws,
        table_sizes=record.table_sizes,
    )


def check_tables_record(
    rnd: Round, *, active_ids: frozenset[int] | None, swap: tuple[int, int] | None = None
) -> list[Violation]:
    """Re-check a stored round at tables of many with ``pairing.check_tables.check_tables_round``:
    every active entry once, table sizes, the fewest byes, no avoidable repeat meeting or
    director's constraint pair, and every seat order and first leader as drawn from the salt.
    ``swap`` previews two entries exchanged (nothing written)."""
    inputs = pairing_inputs(rnd.event, round_no=rnd.number, active_ids=active_ids)
    record = tables_round_record(rnd)
    if swap is not None:
        record = swapped_tables(record, *swap)
    return check_tables_round(
        record,
        inputs.entries,
        inputs.every_table,
        table_sizes=record.table_sizes,
        salt=rnd.event.salt,
    )
