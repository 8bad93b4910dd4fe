"""Makers for the tests of tables of many (individual players at tables of three or four): an
All Fives event to 100, a round in play whose tables seat three or four players, and real sheets
played by the engine's own simulator (``scoring.simulate``), picked by what their scores show."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import scoring
from scoring.simulate import simulate
from tests import factories
from tournaments.models import Entry, Event, Match, Round, RoundSeat, Table


def make_event(slug: str = "cut", **fields: Any) -> Event:
    """An individual All Fives event to 100 at tables of three (``table_size`` may be given)."""
    values: dict[str, Any] = {
        "rules": Event.Rules.ALL_FIVES,
        "target": 100,
        "entry_kind": Event.EntryKind.SINGLE,
        "table_size": 3,
        **fields,
    }
    return factories.make_event(slug, **values)


def seat_table(rnd: Round, number: int, entries: list[Entry]) -> Match:
    """A table of ``len(entries)`` players at table ``number``: seats 0 and 1 are also the
    match's ``entry_a`` and ``entry_b``, every seat a ``RoundSeat``."""
    table, _ = Table.objects.get_or_create(event=rnd.event, number=number)
    match = Match.objects.create(
        round=rnd, table=table, entry_a=entries[0], entry_b=entries[1], table_entries=len(entries)
    )
    for seat, entry in enumerate(entries):
        RoundSeat.objects.create(round=rnd, entry=entry, match=match, side=seat)
    return match


def make_round(
    event: Event,
    sizes: tuple[int, ...] = (3,),
    *,
    number: int = 1,
    entries: list[Entry] | None = None,
) -> Round:
    """A round in play with one table per size in ``sizes`` (tables 1..n); its players are
    ``entries`` in order, or new ones."""
    rnd = Round.objects.create(event=event, number=number, status=Round.Status.IN_PLAY)
    pool = list(entries) if entries is not None else []
    for n, size in enumerate(sizes, start=1):
        seated = []
        for s in range(size):
            if pool:
                seated.append(pool.pop(0))
            else:
                seated.append(factories.make_entry(event, f"R{number}T{n}S{s}"))
        seat_table(rnd, n, seated)
    return rnd


def table_at(rnd: Round, number: int) -> Match:
    return Match.objects.get(round=rnd, table__number=number)


@cache
def _sheets(players: int) -> list[tuple[dict[str, Any], list[Any]]]:
    found = []
    for sheet in simulate(
        "all-fives", players=players, seed=0, count=400, target=100, partnerships=False
    ):
        verdict = scoring.verify(sheet).as_dict()
        assert verdict["valid"] and verdict["finished"]
        found.append((sheet, verdict["scores"]))
    return found


def sheet_where(players: int, want: Any) -> tuple[dict[str, Any], list[Any]]:
    """A fresh copy of the first simulated sheet of ``players`` whose scores satisfy ``want``,
    with its scores (raw, the engine's)."""
    for sheet, scores in _sheets(players):
        if want(scores):
            return copy.deepcopy(sheet), list(scores)
    raise LookupError("no simulated sheet fits")  # pragma: no cover - the seeds are fixed


def with_halves(players: int = 3) -> tuple[dict[str, Any], list[Any]]:
    """A sheet whose settlement split in halves (a score ending in .5)."""
    return sheet_where(players, lambda s: any(isinstance(x, float) for x in s))


def tied_below_the_winner(players: int) -> tuple[dict[str, Any], list[Any]]:
    """A sheet where two players share a place below the winner."""
    return sheet_where(players, lambda s: len(set(s)) < len(s) and s.count(max(s)) == 1)


def plain(players: int, skip: int = 0) -> tuple[dict[str, Any], list[Any]]:
    """A sheet with every score different (the ``skip``-th such one)."""
    left = [skip]

    def fits(s: list[Any]) -> bool:
        if len(set(s)) != len(s):
            return False
        left[0] -= 1
        return left[0] < 0

    return sheet_where(players, fits)
