"""Shared makers for the results tests: an event, a round in play, matches at tables, and real
scoresheets (taken from the conformance sample, with the verdicts the engine must give)."""

from __future__ import annotations

import copy
import datetime
import json
from functools import cache
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User

from tournaments.models import (
    Entry,
    EntryPlayer,
    Event,
    Match,
    Partnership,
    Player,
    Round,
    RoundSeat,
    Table,
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
    day = datetime.date(2026, 12, 5)
    defaults: dict[str, Any] = {
        "name": slug.title(),
        "rules": Event.Rules.ALL_FIVES,
        "target": 100,
        "status": Event.Status.RUNNING,
    }
    defaults.update(fields)
    return Event.objects.create(slug=slug, start_date=day, end_date=day, **defaults)


def make_entry(event: Event, label: str) -> Entry:
    if event.entry_kind == Event.EntryKind.SINGLE:
        player = Player.objects.create(name=f"{label} player")
        entry = Entry.objects.create(event=event, player=player, name=label)
        EntryPlayer.objects.create(event=event, entry=entry, player=player)
        return entry
    pa = Player.objects.create(name=f"{label} one")
    pb = Player.objects.create(name=f"{label} two")
    partnership = Partnership.objects.create(player_a=pa, player_b=pb)
    entry = Entry.objects.create(event=event, partnership=partnership, name=label)
    EntryPlayer.objects.create(event=event, entry=entry, player=pa)
    EntryPlayer.objects.create(event=event, entry=entry, player=pb)
    return entry


def make_round(event: Event, tables: int = 2, *, number: int = 1, bye: bool = False) -> Round:
    """A round in play with ``tables`` matches at tables 1..n (and a bye if asked)."""
    rnd = Round.objects.create(event=event, number=number, status=Round.Status.IN_PLAY)
    for n in range(1, tables + 1):
        table, _ = Table.objects.get_or_create(event=event, number=n)
        a = make_entry(event, f"R{number}T{n}A")
        b = make_entry(event, f"R{number}T{n}B")
        match = Match.objects.create(round=rnd, table=table, entry_a=a, entry_b=b)
        RoundSeat.objects.create(round=rnd, entry=a, match=match, side=0)
        RoundSeat.objects.create(round=rnd, entry=b, match=match, side=1)
    if bye:
        lone = make_entry(event, f"R{number}Bye")
        match = Match.objects.create(round=rnd, entry_a=lone, is_bye=True)
        RoundSeat.objects.create(round=rnd, entry=lone, match=match, side=0)
    return rnd


def match_at(rnd: Round, table: int) -> Match:
    return Match.objects.get(round=rnd, table__number=table)


def make_director(event: Event, name: str = "dir") -> User:
    user = User.objects.create_user(username=name)  # no password: tests log in with tokens
    event.directors.add(user)
    return user
