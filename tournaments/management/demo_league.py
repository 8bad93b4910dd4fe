"""The demo's league (``manage.py demo``): slug ``demo-league``, page ``/leagues/demo-league/``.

Three small past events of a club's season (8 partnerships each, 3 Swiss rounds, then semi-finals
and a final), played from verified simulated sheets and finished through
``services.finish.finish_event`` exactly as the main demo is played to its champion
(``demo.finish_demo``). Most partnerships come back each month, two players change partners in
the third, and a few players come and go, so the season table (best 2 of 3 events, partnerships
ranked too) has something to say. All three events are rated (``Event.rated``); the ratings
themselves are computed elsewhere.

Idempotent like every demo step: each event, entry and the league are looked up before they are
written, and a finished event is left as it is.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable

from django.contrib.auth.models import User

from tournaments.models import Entry, Event, League
from tournaments.services import entries, leagues
from tournaments.services import events as event_services
from tournaments.services.entries import PlayerSpec

LEAGUE_SLUG = "demo-league"
LEAGUE_NAME = "Brixton Fives Club League"
POINTS = [25, 18, 15, 12, 10, 8, 6, 4]
BEST_OF = 2

# The club's players: (name, club). Indexes below pair them into partnerships.
PLAYERS = [
    ("Marcia Campbell", "Brixton Fives"),
    ("Desmond Reid", "Brixton Fives"),
    ("Claudette Grant", "Brixton Fives"),
    ("Winston Forde", "Brixton Fives"),
    ("Yvonne Baptiste", "Tottenham Dominoes Club"),
    ("Delroy Haynes", "Tottenham Dominoes Club"),
    ("Paulette Okafor", "Handsworth Spinners"),
    ("Clive Sinclair", "Handsworth Spinners"),
    ("Hyacinth Murphy", "Moss Side Fives"),
    ("Leroy Bennett", "Moss Side Fives"),
    ("Sonia Persaud", "Port of Spain Social"),
    ("Trevor Alleyne", "Port of Spain Social"),
    ("Merle Greenidge", "Bridgetown Double Six"),
    ("Lloyd Springer", "Bridgetown Double Six"),
    ("Jasmine Nowak", "Leeds Caribbean Centre"),
    ("Everton Cumberbatch", "Leeds Caribbean Centre"),
    ("Grace Mohammed", "St Pauls Domino League"),
    ("Courtney Ramdin", "St Pauls Domino League"),
    ("Althea Lewis", "Brixton Fives"),
    ("Vernon Best", "Brixton Fives"),
]

# Each event: its name, how many weeks before today it was played, and its 8 partnerships.
EVENTS: list[tuple[str, int, list[tuple[int, int]]]] = [
    (
        "Club Night: September",
        12,
        [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 13), (14, 15)],
    ),
    (
        "Club Night: October",
        8,
        [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (16, 17), (18, 19)],
    ),
    (
        "Club Night: November",
        4,
        [(0, 2), (1, 3), (4, 5), (6, 7), (8, 9), (12, 13), (16, 17), (18, 19)],
    ),
]


def _slug(index: int) -> str:
    return f"{LEAGUE_SLUG}-{index + 1}"


def _salt(index: int) -> str:
    return hashlib.sha256(f"spinner demo league {index + 1}".encode()).hexdigest()[:32]


def _event(director: User, index: int) -> Event:
    """The league's ``index``-th event (created once, dated weeks before today)."""
    existing = Event.objects.filter(slug=_slug(index)).first()
    if existing is not None:
        return existing
    name, weeks, _ = EVENTS[index]
    day = datetime.date.today() - datetime.timedelta(weeks=weeks)
    return event_services.create_event(
        actor=director,
        name=name,
        slug=_slug(index),
        salt=_salt(index),
        start_date=day,
        end_date=day,
        venue="Brixton Fives clubroom",
        status=Event.Status.RUNNING,
        rules=Event.Rules.FIVE_UP,
        entry_kind=Event.EntryKind.PARTNERSHIP,
        format=Event.Format.SWISS,
        swiss_rounds=3,
        playoff=Event.Playoff.SINGLE,
        playoff_qualifiers=4,
        first_round="random",
        round_minutes=40,
        tiebreaks=["buchholz", "spread", "head_to_head"],
        public_listing=True,
    )


def _register(director: User, event: Event, index: int) -> int:
    """Register and check in the event's partnerships not registered yet."""
    have = set(Entry.objects.filter(event=event).values_list("name", flat=True))
    added = 0
    for a, b in EVENTS[index][2]:
        players = [PlayerSpec(*PLAYERS[a]), PlayerSpec(*PLAYERS[b])]
        if f"{players[0].name} & {players[1].name}" in have:
            continue
        entries.register_entry(actor=director, event=event, players=players)
        added += 1
    for entry in Entry.objects.filter(event=event, status=Entry.Status.REGISTERED):
        entries.check_in_entry(actor=director, entry=entry)
    return added


def _league(director: User) -> League:
    existing = League.objects.filter(slug=LEAGUE_SLUG).first()
    if existing is not None:
        return existing
    return leagues.create_league(
        actor=director,
        name=LEAGUE_NAME,
        slug=LEAGUE_SLUG,
        season=str(datetime.date.today().year),
        points=POINTS,
        best_of=BEST_OF,
        rank_partnerships=True,
        public=True,
    )


def build_league(director: User, *, play_out: Callable[[Event], str]) -> str:
    """The demo's step: the league, its three events played to their champions by
    ``play_out`` (the demo's own ``finish_demo`` for an event), each added to the league."""
    league = _league(director)
    lines = []
    for index in range(len(EVENTS)):
        event = _event(director, index)
        added = _register(director, event, index)
        finished = play_out(event)
        leagues.add_event(actor=director, league=league, event=event)
        event.refresh_from_db()
        champion = (event.placings or [{}])[0].get("name", "?")
        played = "finished already" if finished == "finished already" else "played"
        lines.append(f"{event.slug}: {added} entries, {played}, champions {champion}")
    return f"/leagues/{league.slug}/: " + "; ".join(lines)
