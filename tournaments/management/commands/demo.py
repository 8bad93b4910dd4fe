"""``python manage.py demo``: a believable demo event, slug ``demo``, built through the services.

Running it again changes nothing: every step checks what exists before it writes. The steps run
in order from ``STEPS``; later issues append theirs (pair round 1, enter results, standings...)
as functions ``step(ctx: DemoContext) -> str`` that are idempotent in the same way, e.g.::

    from tournaments.management.commands import demo
    demo.STEPS.append(("pair round 1", pair_round_one))

or better, add them to the list below in this file. Each returns a one-line summary to print.

Local demo credentials (printed): director ``director``/``director``; staff ``admin``/``admin``.
"""

from __future__ import annotations

import datetime
import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction

from tournaments.errors import SpinnerError
from tournaments.models import Claim, Entry, Event, Match, Round
from tournaments.selectors import standings as standings_reads
from tournaments.services import (
    claims,
    entries,
    finish,
    playoff_rounds,
    playoffs,
    round_generation,
    round_status,
    standings,
    tiebreak_rounds,
)
from tournaments.services import events as event_services
from tournaments.services.entries import PlayerSpec
from tournaments.services.organisers import make_organiser

SLUG = "demo"
# The play-off's final is a best-of-3 match; the other stages are one game each.
PLAYOFF_FORMATS = {"final": {"best_of": 3, "target": None}}
NAME = "Spinner Winter Open"
PARTNERSHIPS = 24
RNG_SEED = 20261205
# A fixed, published salt keeps the demo's draws the same on every machine.
SALT = hashlib.sha256(b"spinner demo salt").hexdigest()[:32]
# The demo shows its times in its own zone, labelled (issue 18): not UTC, so that it shows.
TIME_ZONE = "America/Chicago"

FIRST_NAMES = [
    "Marcia", "Desmond", "Claudette", "Winston", "Beverley", "Errol", "Yvonne", "Delroy",
    "Paulette", "Clive", "Hyacinth", "Leroy", "Sonia", "Trevor", "Merle", "Lloyd", "Jasmine",
    "Everton", "Grace", "Courtney", "Patrice", "Neville", "Althea", "Roderick", "Camille",
    "Dwight", "Janet", "Fitzroy", "Monica", "Horace", "Keisha", "Ainsley", "Norma", "Carlton",
    "Shirley", "Owen", "Ruth", "Glenroy", "Adele", "Vernon", "Priya", "Tomasz", "Aoife", "Kwame",
]  # fmt: skip
SURNAMES = [
    "Campbell", "Brown", "Williams", "Thompson", "Clarke", "Gordon", "Henry", "Morgan", "Reid",
    "Grant", "Edwards", "Francis", "Bailey", "Walker", "Richards", "Lewis", "Baptiste", "Joseph",
    "Charles", "Alleyne", "Greenidge", "Forde", "Mohammed", "Ramdin", "Persaud", "Okafor",
    "Nowak", "Murphy", "Bennett", "Sinclair", "Haynes", "Cumberbatch", "Best", "Springer",
]  # fmt: skip
CLUBS = [
    "Brixton Fives",
    "Tottenham Dominoes Club",
    "Leeds Caribbean Centre",
    "Handsworth Spinners",
    "St Pauls Domino League",
    "Moss Side Fives",
    "Port of Spain Social",
    "Bridgetown Double Six",
]
TEAM_NAMES = [
    "Double Six",
    "The Spinners",
    "Fives Alive",
    "Boneyard Kings",
    "Domino Theory",
    "Big Six",
    "Tile Tacticians",
    "Count to Five",
]


@dataclass
class DemoContext:
    """What every step gets: the demo event and its director."""

    event: Event
    director: User


def demo_partnerships() -> list[tuple[list[PlayerSpec], str]]:
    """The 24 partnerships, always the same (seeded RNG): partners share a club, mostly."""
    rng = random.Random(RNG_SEED)
    names = rng.sample([(f, s) for f in FIRST_NAMES for s in SURNAMES], PARTNERSHIPS * 2)
    teams = iter(rng.sample(TEAM_NAMES, len(TEAM_NAMES)))
    out = []
    for i in range(PARTNERSHIPS):
        club = rng.choice(CLUBS)
        other_club = club if rng.random() < 0.8 else rng.choice(CLUBS)
        players = [
            PlayerSpec(f"{f} {s}", c, rating=rng.randint(1250, 1950))
            for (f, s), c in zip(names[2 * i : 2 * i + 2], (club, other_club), strict=True)
        ]
        team = next(teams, "") if rng.random() < 0.35 else ""
        out.append((players, team))
    return out


def ensure_users() -> User:
    """The demo's director (``director``/``director``) and staff (``admin``/``admin``)."""
    director, created = User.objects.get_or_create(
        username="director", defaults={"first_name": "Demo", "last_name": "Director"}
    )
    if created:
        director.set_password("director")
        director.save(update_fields=["password"])
    # The demo's director may create events (a superuser made them an organiser).
    make_organiser(user=director)
    admin, created = User.objects.get_or_create(
        username="admin", defaults={"is_staff": True, "is_superuser": True}
    )
    if created:
        admin.set_password("admin")
        admin.save(update_fields=["password"])
    return director


def build_event(director: User) -> Event:
    """The demo event (created once; an existing ``demo`` event is left as it is)."""
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
        venue="Marcus Garvey Hall, Brixton",
        time_zone=TIME_ZONE,
        status=Event.Status.RUNNING,
        rules=Event.Rules.FIVE_UP,
        entry_kind=Event.EntryKind.PARTNERSHIP,
        format=Event.Format.SWISS,
        swiss_rounds=5,
        playoff=Event.Playoff.SINGLE,
        playoff_qualifiers=8,
        first_round="random",
        round_minutes=40,
        tiebreaks=["buchholz", "spread", "head_to_head"],
        public_listing=True,
        playoff_formats=PLAYOFF_FORMATS,
    )


def register_partnerships(ctx: DemoContext) -> str:
    """Register the 24 partnerships that are not registered yet."""
    have = set(Entry.objects.filter(event=ctx.event).values_list("name", flat=True))
    added = 0
    for players, team in demo_partnerships():
        name = team or f"{players[0].name} & {players[1].name}"
        if name in have:
            continue
        entries.register_entry(actor=ctx.director, event=ctx.event, players=players, team_name=team)
        added += 1
    return f"{added} partnerships registered ({len(have) + added} in all)"


def check_in_everyone(ctx: DemoContext) -> str:
    """Check in every entry still only registered."""
    waiting = Entry.objects.filter(event=ctx.event, status=Entry.Status.REGISTERED)
    count = 0
    for entry in waiting:
        entries.check_in_entry(actor=ctx.director, entry=entry)
        count += 1
    return f"{count} entries checked in"


def pair_round_one(ctx: DemoContext) -> str:
    """Pair round 1 from the event's salt and publish it, unless a round exists already."""

    if Round.objects.filter(event=ctx.event).exists():
        return "round 1 exists already"
    rnd = round_generation.generate_and_publish_round(event=ctx.event, actor=ctx.director)
    return f"round {rnd.number} paired and published ({rnd.matches.count()} matches)"


DEMO_ROUNDS_PLAYED = 3
"""The demo plays this many rounds to the end; the next one is paired and half its tables in."""


def _play_match(match: Any, *, confirm: bool = True) -> None:
    """One table's game: a simulated sheet claimed by side 0, confirmed by side 1."""
    from scoring.simulate import simulate

    event = match.round.event
    game = "" if match.game_no == 1 else f":game{match.game_no}"
    key = f"{event.salt}:demo:{match.round.number}:{match.table.number}{game}".encode()
    seed = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")
    sheet = next(simulate(rules=event.rules, players=4, seed=seed, count=1, target=match.target))
    outcome = claims.submit_claim(match=match, side=0, sheet=sheet)
    if confirm:
        claims.confirm_claim(match=match, side=1, expected_version=outcome.claim.version)


def _play_round(ctx: DemoContext, number: int, *, tables_in: int | None = None) -> str:
    """Enter results for round ``number`` (every table, or the first ``tables_in``); close the
    round when every table is in. Tables that already have a claim are left as they are."""

    rnd = Round.objects.get(event=ctx.event, number=number)
    if rnd.status == Round.Status.CLOSED:
        return f"round {number} closed already"
    if rnd.status == Round.Status.PUBLISHED:
        rnd = round_status.start_round(round=rnd, actor=ctx.director)
    claimed = set(Claim.objects.filter(match__round=rnd).values_list("match_id", flat=True))
    games = Match.objects.filter(round=rnd, is_bye=False).select_related("round__event", "table")
    played = 0
    for match in games.order_by("table__number")[:tables_in]:
        if match.pk not in claimed:
            _play_match(match)
            played += 1
    if tables_in is None:
        round_status.close_round(round=rnd, actor=ctx.director)
        # The next Swiss round is paired by the standings, and generation refuses while they lag
        # the results: bring them up to date first (the worker would, a few seconds later).
        standings.recompute_standings(event_id=ctx.event.pk)
        return f"round {number}: {played} results entered and confirmed; round closed"
    return f"round {number}: {played} results entered and confirmed; round in play"


def play_rounds(ctx: DemoContext) -> str:
    """Play the first rounds to the end, pairing each next Swiss round from the results."""

    lines = []
    for number in range(1, DEMO_ROUNDS_PLAYED + 1):
        if not Round.objects.filter(event=ctx.event, number=number).exists():
            round_generation.generate_and_publish_round(event=ctx.event, actor=ctx.director)
        lines.append(_play_round(ctx, number))
    return "; ".join(lines)


def round_in_play(ctx: DemoContext) -> str:
    """Pair the next round and bring half of its tables' results in: a living event."""

    number = DEMO_ROUNDS_PLAYED + 1
    if not Round.objects.filter(event=ctx.event, number=number).exists():
        round_generation.generate_and_publish_round(event=ctx.event, actor=ctx.director)
    return _play_round(ctx, number, tables_in=6)


def compute_standings(ctx: DemoContext) -> str:
    """The standings snapshot from the results so far (issue 8); nothing new if they are current."""

    outcome = standings.recompute_standings(event_id=ctx.event.pk)
    return f"standings {outcome.status} (update {outcome.generation})"


def seed_playoff(ctx: DemoContext) -> str:
    """Once the Swiss rounds are closed, seed the play-off bracket from the final standings
    (issue 8); a tie across the cut gets a tiebreak round proposed first."""

    if Round.objects.filter(event=ctx.event, kind=Round.Kind.PLAYOFF).exists():
        return "the play-off bracket is seeded"
    progress = standings_reads.main_rounds_progress(ctx.event)
    if not progress.complete:
        return f"waits for the Swiss rounds ({progress.closed} of {progress.expected} closed)"
    try:
        rnd = playoffs.seed_playoff(event=ctx.event, actor=ctx.director)
    except SpinnerError as exc:
        if exc.code != "tied_at_cut":
            return f"not seeded: {exc.message}"
        if Round.objects.filter(event=ctx.event, kind=Round.Kind.TIEBREAK).exists():
            return "waits for the tiebreak round"
        tiebreak = tiebreak_rounds.propose_tiebreak_round(event=ctx.event, actor=ctx.director)
        return f"tied across the cut: tiebreak round {tiebreak.number} proposed"
    return f"play-off round {rnd.number} seeded"


#: The demo's steps, in order. Later issues add theirs here (each idempotent), e.g.
#: ("pair round 1", pair_round_one), ("enter round 1 results", ...), ("standings", ...).
STEPS: list[tuple[str, Callable[[DemoContext], str]]] = [
    ("register the partnerships", register_partnerships),
    ("check everyone in", check_in_everyone),
    ("pair round 1", pair_round_one),
    ("play the first rounds", play_rounds),
    ("a round in play", round_in_play),
    # Issue 8 (keep these last: they read the rounds and results the steps above make).
    ("standings", compute_standings),
    ("play-off seeding", seed_playoff),
    # Issue 16: the demo league, its three past events (tournaments/management/demo_league.py).
    ("the demo league", lambda ctx: _demo_league(ctx)),
    # Issue 13: the All Fives night, individual players at tables of 4 and 3
    # (tournaments/management/demo_allfives.py).
    ("the All Fives night", lambda ctx: _demo_allfives(ctx)),
]


def _demo_allfives(ctx: DemoContext) -> str:
    from tournaments.management.demo_allfives import build_allfives

    return build_allfives(ctx.director)


def _demo_league(ctx: DemoContext) -> str:
    from tournaments.management.demo_league import build_league

    def play_out(event: Event) -> str:
        return finish_demo(DemoContext(event=event, director=ctx.director))

    return build_league(ctx.director, play_out=play_out)


def _play_out(ctx: DemoContext, rnd: Round) -> int:
    """Start ``rnd`` if it is only published and play every game without a result yet, the
    next games of a best-of match too (the result service opens each as the one before ends)."""
    if rnd.status == Round.Status.PUBLISHED:
        rnd = round_status.start_round(round=rnd, actor=ctx.director)
    played = 0
    while True:
        waiting = (
            Match.objects.filter(round=rnd, is_bye=False, claims__isnull=True)
            .select_related("round__event", "table")
            .order_by("table__number", "game_no")
            .first()
        )
        if waiting is None:
            return played
        _play_match(waiting)
        played += 1


def _next_move(ctx: DemoContext) -> str | None:
    """One director's move towards the champion (``None`` once the event is finished)."""
    event = Event.objects.get(pk=ctx.event.pk)
    if event.status == Event.Status.FINISHED:
        return None
    rnd = event.rounds.exclude(status=Round.Status.CLOSED).order_by("number").first()
    if rnd is not None and rnd.status == Round.Status.DRAFT:
        if rnd.kind == Round.Kind.TIEBREAK:
            tiebreak_rounds.approve_tiebreak_round(event=event, round_id=rnd.pk, actor=ctx.director)
        else:
            round_status.publish_round(round=rnd, actor=ctx.director)
        return f"round {rnd.number} published"
    if rnd is not None:
        played = _play_out(ctx, rnd)
        if rnd.kind == Round.Kind.PLAYOFF:
            return _advance_or_finish(ctx, event, f"round {rnd.number}: {played} games played")
        round_status.close_round(round=rnd, actor=ctx.director)
        standings.recompute_standings(event_id=event.pk)
        return f"round {rnd.number}: {played} results, closed"
    if not standings_reads.main_rounds_progress(event).complete:
        new = round_generation.generate_and_publish_round(event=event, actor=ctx.director)
        return f"round {new.number} paired and published"
    if not playoff_rounds.is_seeded(event):
        return seed_playoff(ctx)
    return _advance_or_finish(ctx, event, "the play-off")


def _advance_or_finish(ctx: DemoContext, event: Event, done: str) -> str:
    """Draft the next bracket round, or finish the event once the bracket is played out."""
    try:
        new = playoff_rounds.advance_playoff(event=event, actor=ctx.director)
    except SpinnerError as exc:
        if exc.code == "playoff_round_draft":
            return f"{done}; the worker drafted the next play-off round"  # published next move
        if exc.code != "playoff_finished":
            raise
        finished = finish.finish_event(event=event, actor=ctx.director)
        champion = (finished.placings or [{}])[0].get("name", "?")
        return f"{done}; the event is finished: {champion} are the champions"
    return f"{done}; play-off round {new.number} drafted"


def finish_demo(ctx: DemoContext, *, until: Callable[[Event], bool] | None = None) -> str:
    """``demo --finish``: play the demo event on to its champion, as its director would (the
    Swiss rounds, a tiebreak round if the cut is tied, the play-off and its best-of-3 final),
    then finish it. Running it again on a finished demo changes nothing. ``until``: stop
    earlier, before the first move at which it holds (a test stops at the final, published)."""
    moves = []
    for _ in range(100):  # a bound, far above the moves an event of 24 entries needs
        if until is not None and until(Event.objects.get(pk=ctx.event.pk)):
            break
        move = _next_move(ctx)
        if move is None:
            break
        moves.append(move)
    else:
        raise SpinnerError("The demo did not reach its champion.", code="internal_error")
    return "; ".join(moves) if moves else "finished already"


def build_demo(*, finish_event: bool = False) -> tuple[DemoContext, list[str]]:
    """Run every step in one transaction; return the context and the steps' summaries."""
    with transaction.atomic():
        director = ensure_users()
        ctx = DemoContext(event=build_event(director), director=director)
        lines = [f"{title}: {step(ctx)}" for title, step in STEPS]
        if finish_event:
            lines.append(f"played to the champion: {finish_demo(ctx)}")
    return ctx, lines


class Command(BaseCommand):
    help = "Build (or complete) the demo event, slug 'demo'. Safe to run again."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--finish",
            action="store_true",
            help="Play the demo event on to its champion (Swiss rounds, play-off, best-of-3 "
            "final) and finish it; its bracket is then at /events/demo/bracket/.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from django.conf import settings
        from django.core.management.base import CommandError

        if getattr(settings, "PRODUCTION", False):
            # The demo creates accounts with well-known passwords: never on a real server.
            raise CommandError(
                "The demo is for a local machine: refused with SPINNER_ENV=production."
            )
        ctx, lines = build_demo(finish_event=options["finish"])
        for line in lines:
            self.stdout.write(f"  {line}")
        self.stdout.write(
            self.style.SUCCESS(f"Demo event: /events/{ctx.event.slug}/ ({ctx.event.name})")
        )
        self.stdout.write(f"Director pages: /director/events/{ctx.event.slug}/")
        if options["finish"]:
            self.stdout.write(f"The bracket: /events/{ctx.event.slug}/bracket/")
        self.stdout.write(
            "Local demo logins (change them anywhere real): "
            "director / director (directs the demo), admin / admin (staff)"
        )
