"""The demo's second event (``manage.py demo``): slug ``demo-allfives``, an All Fives night of
individual players at tables of four and three (issue 13).

Fourteen players of the club (the demo league's, so their player pages join the two events) at
tables of 4 + 4 + 3 + 3, three Swiss rounds paired by the round service and played from verified
sheets: each table's sheet comes from the engine's simulator (``scoring.simulate``) for the game
the event expects at that table (``game.expected_game``: the players at the table, the target),
is submitted from the table by its North seat and confirmed by every other seat (the event's
``table_confirmation``), as a real table's phones would. Each round is then closed and the
standings recomputed, so the standings are those the results give; after the third round the
event is finished (``services.finish``: its final placings, the podium on its page).

Idempotent like every demo step: the event, each player and each round are looked up before
they are written; a table with a claim is left as it is, a closed round is not played again,
a finished event is left as it is.
"""

from __future__ import annotations

import datetime
import hashlib
from typing import Any

from django.contrib.auth.models import User

from scoring.simulate import simulate
from tournaments import game
from tournaments.management.demo_league import PLAYERS
from tournaments.models import Claim, Entry, Event, Match, Round
from tournaments.services import (
    claims,
    entries,
    finish,
    round_generation,
    round_status,
    standings,
)
from tournaments.services import events as event_services
from tournaments.services.entries import PlayerSpec

SLUG = "demo-allfives"
NAME = "All Fives Cutthroat Night"
PLAYER_COUNT = 14
"""Fourteen players: two tables of four and two of three (the field does not divide by four)."""
ROUNDS = 3
SALT = hashlib.sha256(b"spinner demo all fives").hexdigest()[:32]
TIME_ZONE = "America/Chicago"


def build_event(director: User) -> Event:
    """The All Fives night (created once; an existing one is left as it is)."""
    existing = Event.objects.filter(slug=SLUG).first()
    if existing is not None:
        return existing
    today = datetime.date.today()
    return event_services.create_event(
        actor=director,
        name=NAME,
        slug=SLUG,
        salt=SALT,
        start_date=today,
        end_date=today,
        venue="Brixton Fives clubroom",
        time_zone=TIME_ZONE,
        status=Event.Status.RUNNING,
        rules=Event.Rules.ALL_FIVES,
        entry_kind=Event.EntryKind.SINGLE,
        table_size=4,
        mixed_table_sizes=True,
        format=Event.Format.SWISS,
        swiss_rounds=ROUNDS,
        playoff=Event.Playoff.NONE,
        first_round="random",
        round_minutes=30,
        tiebreaks=["buchholz", "spread"],
        public_listing=True,
    )


def register_players(director: User, event: Event) -> int:
    """Register and check in the players not registered yet; how many were added."""
    have = set(Entry.objects.filter(event=event).values_list("name", flat=True))
    added = 0
    for name, club in PLAYERS[:PLAYER_COUNT]:
        if name in have:
            continue
        entries.register_entry(actor=director, event=event, players=[PlayerSpec(name, club)])
        added += 1
    for entry in Entry.objects.filter(event=event, status=Entry.Status.REGISTERED):
        entries.check_in_entry(actor=director, entry=entry)
    return added


def table_sheet(match: Match) -> dict[str, Any]:
    """The table's game from the engine's simulator: the game the event expects at this table
    (its players, target and hand size), seeded by the event's salt, the round and the table."""
    event = match.round.event
    expected = game.expected_game(event, match)
    table = match.table.number if match.table is not None else 0
    key = f"{event.salt}:demo-allfives:{match.round.number}:{table}".encode()
    seed = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")
    return next(
        simulate(
            rules=str(expected["rules"]),
            players=int(expected["players"]),
            seed=seed,
            target=expected["target"],
            hand_size=expected["hand_size"],
            partnerships=bool(expected["partnerships"]),
        )
    )


def play_table(match: Match) -> None:
    """North submits the sheet from the table; every other seat confirms it."""
    outcome = claims.submit_claim(match=match, side=0, sheet=table_sheet(match))
    for seat in range(1, match.table_entries):
        claims.confirm_claim(
            match=match, side=seat, expected_version=outcome.claim.version, of_side=0
        )


def play_round(director: User, event: Event, number: int) -> str:
    """Pair round ``number`` if it is not yet, play every table without a claim, close it and
    bring the standings up to date (the next round is paired from them)."""
    rnd = Round.objects.filter(event=event, number=number).first()
    if rnd is None:
        rnd = round_generation.generate_and_publish_round(event=event, actor=director)
    if rnd.status == Round.Status.CLOSED:
        return f"round {number} closed already"
    if rnd.status == Round.Status.PUBLISHED:
        rnd = round_status.start_round(round=rnd, actor=director)
    claimed = set(Claim.objects.filter(match__round=rnd).values_list("match_id", flat=True))
    tables = (
        Match.objects.filter(round=rnd, is_bye=False)
        .select_related("round__event", "table")
        .order_by("table__number")
    )
    sizes = []
    for match in tables:
        sizes.append(str(match.table_entries))
        if match.pk not in claimed:
            play_table(match)
    round_status.close_round(round=rnd, actor=director)
    standings.recompute_standings(event_id=event.pk)
    return f"round {number} at tables of {'+'.join(sizes)}: played, confirmed and closed"


def build_allfives(director: User) -> str:
    """The whole All Fives night; a line saying what was done."""
    event = build_event(director)
    if event.status == Event.Status.FINISHED:
        return f"/events/{SLUG}/: finished already"
    added = register_players(director, event)
    lines = [f"{added} players registered"]
    for number in range(1, ROUNDS + 1):
        lines.append(play_round(director, event, number))
    outcome = standings.recompute_standings(event_id=event.pk)
    lines.append(f"standings {outcome.status} (update {outcome.generation})")
    finished = finish.finish_event(event=event, actor=director)
    winner = (finished.placings or [{}])[0].get("name", "?")
    lines.append(f"finished: {winner} first")
    return f"/events/{SLUG}/: " + "; ".join(lines)
