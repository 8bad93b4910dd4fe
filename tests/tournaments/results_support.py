"""Shared makers for the results tests: an event, a round in play, matches at tables, and real
scoresheets (taken from the conformance sample, with the verdicts the engine must give)."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User

from tests import factories
from tournaments.models import (
    Entry,
    Event,
    Match,
    Round,
)

DATA = Path(__file__).resolve().parent / "data" / "results_sheets.jsonl"


@cache
def _cases() -> dict[str, dict[str, Any]]:
    cases = {}
    for line in DATA.read_text().splitlines():
        case = json.loads(line)
        cases[case["id"]] = case
    return cases


def sheet(name: str) -> dict[str, Any]:
    """A fresh copy of a sample sheet. ``t100``: all-fives, four in partnerships, target 100:
    ``tally`` (valid, 95-100, side 1 wins), ``moves``/``nodeal`` (the same game in move form),
    ``progress`` (valid, unfinished), ``time`` (time called, finish-hand), ``tally-mut``
    (invalid: a score fault at hand 1, play 1). ``2p``: all-fives head to head."""
    names = {
        "tally": "all-fives-4p-t100-0-tally",
        "entity-tally": "all-fives-4p-t100-0-entity-tally",
        "moves": "all-fives-4p-t100-0",
        "nodeal": "all-fives-4p-t100-0-nodeal",
        "progress": "all-fives-4p-t100-0-progress",
        "time": "all-fives-4p-t100-0-time",
        "tally-mut": "all-fives-4p-t100-0-tally-mut",
        "2p-tally": "all-fives-2p-0-tally",
        "2p": "all-fives-2p-0",
    }
    return copy.deepcopy(_cases()[names[name]]["sheet"])


def expect(name: str) -> dict[str, Any]:
    return dict(
        _cases()[f"all-fives-4p-t100-0-{name}" if name != "moves" else "all-fives-4p-t100-0"][
            "expect"
        ]
    )


def make_event(slug: str = "ev", **fields: Any) -> Event:
    """An All Fives event to 100 (the sample sheets' game), running."""
    return factories.make_event(slug, **{"rules": Event.Rules.ALL_FIVES, "target": 100, **fields})


def make_entry(event: Event, label: str) -> Entry:
    single = event.entry_kind == Event.EntryKind.SINGLE
    names = (f"{label} player",) if single else (f"{label} one", f"{label} two")
    return factories.make_entry(event, label, players=names)


def make_round(event: Event, tables: int = 2, *, number: int = 1, bye: bool = False) -> Round:
    """A round in play with ``tables`` matches at tables 1..n (and a bye if asked)."""
    rnd = Round.objects.create(event=event, number=number, status=Round.Status.IN_PLAY)
    for n in range(1, tables + 1):
        a = make_entry(event, f"R{number}T{n}A")
        b = make_entry(event, f"R{number}T{n}B")
        factories.seat_match(rnd, n, a, b)
    if bye:
        factories.seat_bye(rnd, make_entry(event, f"R{number}Bye"))
    return rnd


def match_at(rnd: Round, table: int) -> Match:
    return Match.objects.get(round=rnd, table__number=table)


def make_director(event: Event, name: str = "dir") -> User:
    return factories.make_director(event, name)  # no password: tests log in with tokens
