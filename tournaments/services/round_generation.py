"""Generating a round: the checks, the background job a director waits on, and the pairing.

One service reads the models into the pairing package's plain records
(``tournaments.selectors.pairing_inputs``), calls the algorithm (``tournaments.pairing``) and
hands the result to the one round writer (``services.round_writer``). Generation never
recomputes the standings: a Swiss round after the first is refused (``standings_updating``)
while they lag the results.

Errors (``code``):
    previous_round_open     a round is not closed yet (close it first)
    too_few_entries         fewer than two active (checked-in) entries
    schedule_complete       every round of the format has been generated
    playoff_needs_seeding   the Swiss rounds are over; the play-off comes from the standings
    (and, once the play-off is seeded, those of ``services.playoff_rounds``: the next round of
    a seeded play-off is its next bracket round)
    generation_running      a generation job of the event is already pending or running
    standings_updating      the standings lag the latest results (wait a few seconds)
    too_few_for_a_table     an event at tables of 3 or 4 with fewer checked-in players than
                            its smallest table seats

Tables of many: a Swiss round of an individual event at tables of 3 or 4
(``game.seats_tables_of_many``) is seated by ``pairing.pair_tables`` at the event's sizes
(``game.table_sizes``) from the history of shared tables, and written by
``round_writer.write_tables_round``. Round 1 ranks by the salted lot (``first_round`` random), or
by rating or seed (tables of adjacent ranks). A round robin seats two entries a table only (the
event settings refuse it at tables of many).

The director's constraints (``club``, ``avoid``: ``selectors.pairing_inputs``) are kept by
``pair_swiss`` and ``pair_tables``; round 1 of a two-entry Swiss event keeps the event's
``first_round`` method with them too: ``pair_first_round`` takes the fold's pairs as the target
and breaks the constraints only where it must (issue 30: it was paired by ``pair_swiss``, whose
close-rank tier paired 1 v 2, 3 v 4).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import timedelta
from fractions import Fraction
from math import gcd
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from tournaments import game, job_kinds
from tournaments.errors import Conflict
from tournaments.models import (
    BackgroundJob,
    Entry,
    Event,
    Round,
    StandingsSnapshot,
)
from tournaments.pairing.first_round import pair_first_round
from tournaments.pairing.records import Bye, EntryRecord, Explanation, Pairing, RoundPairing
from tournaments.pairing.round_robin import pair_round_robin
from tournaments.pairing.swiss import pair_swiss
from tournaments.pairing.tables_of_many import TablesOptions, pair_tables
from tournaments.pairing.tables_records import TablesRound
from tournaments.selectors import pairing_inputs, standings
from tournaments.services import audit, playoff_rounds
from tournaments.services.audit import Actor
from tournaments.services.jobs import start_job
from tournaments.services.round_status import publish_round
from tournaments.services.round_writer import write_round, write_tables_round

logger = logging.getLogger(__name__)


GENERATE_JOB = job_kinds.GENERATE_ROUND
"""``BackgroundJob.kind`` of a round generation."""


JOB_STALE_AFTER = timedelta(minutes=5)
"""A generation job still pending after this long is presumed lost (a dead worker, a lost
message): a new one may be started. Running it late anyway is harmless (it then fails with
``previous_round_open``)."""


def next_round_kind(event: Event, number: int) -> str:
    """The kind of round ``number`` of ``event`` (a ``Round.Kind`` value), or raise.

    Swiss events: rounds 1 to ``swiss_rounds`` are Swiss; after that the play-off comes from the
    standings (``create_playoff_bracket``). Round robin events: the circle method's rounds.
    """
    if event.format == Event.Format.ROUND_ROBIN:
        circle = round_robin_circle(event) if number > 1 else None
        if circle is not None:
            total = len(circle) - 1 if len(circle) % 2 == 0 else len(circle)
            if number > total:
                raise Conflict(
                    gettext("All %(total)s rounds of the round robin have been generated.")
                    % {"total": total},
                    code="schedule_complete",
                    details={"rounds": total},
                )
        return Round.Kind.ROUND_ROBIN
    if number > event.swiss_rounds:
        if event.playoff != Event.Playoff.NONE:
            raise Conflict(
                gettext(
                    "The %(swiss_rounds)s Swiss rounds are done: seed the play-off bracket from "
                    "the standings."
                )
                % {"swiss_rounds": event.swiss_rounds},
                code="playoff_needs_seeding",
                details={"swiss_rounds": event.swiss_rounds},
            )
        raise Conflict(
            gettext("All %(swiss_rounds)s Swiss rounds have been generated.")
            % {"swiss_rounds": event.swiss_rounds},
            code="schedule_complete",
            details={"swiss_rounds": event.swiss_rounds},
        )
    return Round.Kind.SWISS


def ensure_can_generate(event: Event) -> int:
    """Raise unless a new round may be generated now; return its number.

    Refused while any round is not closed, and with fewer than two active entries.
    """
    open_round = event.rounds.exclude(status=Round.Status.CLOSED).order_by("number").first()
    if open_round is not None:
        raise Conflict(
            gettext("Round %(number)s is %(lower)s: close it before generating the next round.")
            % {"number": open_round.number, "lower": open_round.get_status_display().lower()},
            code="previous_round_open",
            details={"round": open_round.number, "status": open_round.status},
        )
    active = event.entries.filter(status=Entry.Status.CHECKED_IN).count()
    if active < 2:
        raise Conflict(
            ngettext(
                "Only %(active)s entry is checked in: check in at least two entries first.",
                "Only %(active)s entries are checked in: check in at least two entries first.",
                active,
            )
            % {"active": active},
            code="too_few_entries",
            details={"active": active},
        )
    last = event.rounds.aggregate(n=Max("number"))["n"] or 0
    number = int(last) + 1
    if next_round_kind(event, number) == Round.Kind.SWISS and number > 1:
        check_standings_ready(event)
    return number


def check_standings_ready(event: Event) -> None:
    """Refuse (``standings_updating``) while the standings lag the results: a Swiss round is
    paired by the standings' order, and generation never recomputes them itself (the recompute
    runs on its own, a few seconds after a result; see ``services.standings``)."""
    if standings.standings_lag(event):
        raise Conflict(
            gettext(
                "The standings are being updated after the latest results: wait a few seconds and "
                "try again."
            ),
            code="standings_updating",
        )


@transaction.atomic
def start_round_generation(*, event: Event, actor: Actor) -> BackgroundJob:
    """Check that a round may be generated, then create the job and enqueue it after commit.

    The page polls the job (``BackgroundJob`` with ``kind="generate_round"``); in eager mode (no
    Redis) the job is done by the time the request returns.
    """
    # One generation at a time per event: two clicks (or two directors) queue here.
    event = Event.objects.select_for_update().get(pk=event.pk)
    if playoff_rounds.is_seeded(event):
        playoff_rounds.check_can_advance(event)
        number = int(event.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    else:
        number = ensure_can_generate(event)
    recent = timezone.now() - JOB_STALE_AFTER
    running = (
        BackgroundJob.objects.filter(
            event=event,
            kind=GENERATE_JOB,
            status__in=[BackgroundJob.Status.PENDING, BackgroundJob.Status.RUNNING],
            created_at__gte=recent,
        )
        .order_by("-pk")
        .first()
    )
    if running is not None:
        raise Conflict(
            gettext("A round is already being generated: wait for it to finish."),
            code="generation_running",
            details={"job": running.pk},
        )
    return start_job(
        event=event,
        kind=GENERATE_JOB,
        actor=actor,
        params={"round": number},
        message=f"Waiting for a worker to pair round {number}",
        audit_action="round.generate_requested",
        audit_after={"round": number},
    )


def generation_work(
    job: BackgroundJob, event: Event, actor: User | None
) -> tuple[str, dict[str, Any]]:
    """The work of a ``generate_round`` job (run by ``services.jobs.run_job``): pair the round."""
    rnd = generate_round(event=event, actor=actor, job_id=job.pk)
    return f"Round {rnd.number} is ready to review", {"round": rnd.number, "round_id": rnd.pk}


def generation_running_message(job: BackgroundJob) -> str:
    """What the page shows while a worker pairs the round."""
    number = job.params.get("round", "")
    return f"Pairing round {number}: reading entries, history and results, then matching"


@transaction.atomic
def generate_round(*, event: Event, actor: Actor, job_id: int | None = None) -> Round:
    """Pair the next round of ``event`` and write it as a draft (``job_id``: the background job
    that asked, recorded in the audit log).

    Only active (checked-in, not withdrawn) entries are paired. Round 1 of a Swiss event follows
    ``event.first_round`` (random from the salt, or by rating or seed); later Swiss rounds are one
    global maximum-weight matching (no avoidable rematch; byes to the lowest-ranked entry without
    one); round robin events follow the circle method. Pins (``Entry.pinned_table``) are kept.
    The event row is locked, so two generations of one event never run at once.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    if playoff_rounds.is_seeded(event):  # the next round of a seeded play-off: its bracket's
        return playoff_rounds.advance_playoff(event=event, actor=actor)
    number = ensure_can_generate(event)
    kind = next_round_kind(event, number)
    inputs = pairing_inputs.pairing_inputs(event, round_no=number)
    if kind == Round.Kind.SWISS and game.seats_tables_of_many(event):
        seated = pair_tables_round(event=event, inputs=inputs)
        rnd = write_tables_round(
            event=event, number=number, kind=kind, result=seated, inputs=inputs
        )
        return _generated(event, rnd, actor, job_id)
    circle = round_robin_circle(event) if kind == Round.Kind.ROUND_ROBIN else None
    notes: list[str] = []
    if circle is not None:  # the schedule is fixed: later check-ins are not in it
        in_circle = set(circle)
        late = sorted(e.entry_id for e in inputs.active if e.entry_id not in in_circle)
        if late:
            notes.append(
                f"entries {late} checked in after round 1 are not in the round robin schedule"
            )
        inputs = replace(
            inputs,
            entries=tuple(
                replace(e, active=e.active and e.entry_id in in_circle) for e in inputs.entries
            ),
        )
    result = pair_round(event=event, kind=kind, inputs=inputs)
    if notes:
        result = replace(result, notes=(*result.notes, *notes))
    rnd = write_round(event=event, number=number, kind=kind, result=result, inputs=inputs)
    return _generated(event, rnd, actor, job_id)


def _generated(event: Event, rnd: Round, actor: Actor, job_id: int | None) -> Round:
    """Audit a generated round."""
    audit.record(
        event=event,
        actor=actor,
        action="round.generate",
        obj=rnd,
        after={
            "number": rnd.number,
            "kind": rnd.kind,
            "matches": rnd.matches.count(),
            "job": job_id,
        },
    )
    return rnd


def tables_options(event: Event, entries: tuple[EntryRecord, ...] = ()) -> TablesOptions:
    """The seating's options for ``event``: its table sizes (``game.table_sizes``), and a match
    point scale that makes every entry's match points whole (placing points may be halves)."""
    scale = 1
    for e in entries:
        denominator = Fraction(e.match_points).denominator
        scale = scale * denominator // gcd(scale, denominator)
    return TablesOptions(table_sizes=game.table_sizes(event), mp_scale=scale)


def pair_tables_round(*, event: Event, inputs: pairing_inputs.PairingInputs) -> TablesRound:
    """Seat round ``inputs.round_no`` of an event at tables of many (no database writes).

    Refused (``too_few_for_a_table``) when the checked-in players cannot fill one table."""
    sizes = game.table_sizes(event)
    active = len(inputs.active)
    if active < min(sizes):
        raise Conflict(
            gettext(
                "Only %(active)s players are checked in: a table seats at least %(size)s. Check "
                "in more players first."
            )
            % {"active": active, "size": min(sizes)},
            code="too_few_for_a_table",
            details={"active": active, "sizes": list(sizes)},
        )
    key = pairing_key(event) if inputs.round_no > 1 else first_round_key(event)
    return pair_tables(
        list(inputs.entries),
        inputs.every_table,
        round_no=inputs.round_no,
        salt=event.salt,
        key=key,
        options=tables_options(event, inputs.active),
    )


def first_round_key(event: Event) -> Any:
    """Round 1's order as a rank key: None (the salted lot) for ``random``; highest rating, or
    seed 1 first, for ``rating`` / ``seed`` (entries without one last; the lot breaks ties)."""
    if event.first_round == "rating":
        return lambda e: (e.rating is None, -(e.rating or 0))
    if event.first_round == "seed":
        return lambda e: (e.seed is None, e.seed or 0)
    return None


def round_robin_circle(event: Event) -> list[int] | None:
    """The round robin's circle (entry ids in circle order), fixed by round 1; None before."""
    first = event.rounds.filter(number=1, kind=Round.Kind.ROUND_ROBIN).first()
    if first is None:
        return None
    return [int(e) for e in first.explanation.get("ranking", [])]


def pair_round(*, event: Event, kind: str, inputs: pairing_inputs.PairingInputs) -> RoundPairing:
    """Call the pairing algorithm for round ``inputs.round_no`` (no database access beyond the
    round robin's circle).

    Round robin: round 1 fixes the circle (by seed, then entry id) over the active entries;
    later rounds follow it. An entry of the circle no longer active is dropped and its opponent
    sits out, recorded as a bye with an ``override`` reason ("opponent withdrew"), since the
    schedule, not the pairing, decided it. Entries checked in after round 1 are not in the
    schedule.
    """
    if kind == Round.Kind.ROUND_ROBIN:
        circle = round_robin_circle(event) if inputs.round_no > 1 else None
        if circle is None:
            return pair_round_robin(list(inputs.entries), round_no=inputs.round_no, salt=event.salt)
        in_circle = set(circle)
        scheduled = [replace(e, active=e.entry_id in in_circle) for e in inputs.entries]
        full = pair_round_robin(scheduled, round_no=inputs.round_no, salt=event.salt, order=circle)
        active = {e.entry_id for e in inputs.active}
        return _drop_inactive(full, active)
    if inputs.round_no == 1:  # the event's method; its fold kept where the constraints allow
        method = (
            event.first_round if event.first_round in ("random", "rating", "seed") else "random"
        )
        return pair_first_round(
            list(inputs.entries),
            salt=event.salt,
            method=method,  # type: ignore[arg-type]
            round_no=inputs.round_no,
        )
    return pair_swiss(
        list(inputs.entries),
        list(inputs.history),
        round_no=inputs.round_no,
        salt=event.salt,
        key=pairing_key(event),
    )


def _drop_inactive(result: RoundPairing, active: set[int]) -> RoundPairing:
    """Remove inactive entries from a scheduled round; their opponents get a recorded bye."""
    pairings: list[Pairing] = []
    byes = [b for b in result.byes if b.entry_id in active]
    for p in result.pairings:
        a_in, b_in = p.entry_a in active, p.entry_b in active
        if a_in and b_in:
            pairings.append(p)
        elif a_in or b_in:
            sitter, gone = (p.entry_a, p.entry_b) if a_in else (p.entry_b, p.entry_a)
            why = Explanation(
                method=p.explanation.method,
                reason=f"scheduled opponent (entry {gone}) is no longer playing",
            )
            byes.append(Bye(sitter, why, override="round robin: the scheduled opponent withdrew"))
    return replace(result, pairings=tuple(pairings), byes=tuple(byes))


def generate_and_publish_round(*, event: Event, actor: Actor) -> Round:
    """Generate the next round at once (no job) and publish it when the checker is clean; for
    scripts such as ``manage.py demo``. Each step is its own transaction, like the pages."""
    rnd = generate_round(event=event, actor=actor)
    return publish_round(round=rnd, actor=actor)


def pairing_key(event: Event) -> Any:
    """The ``key`` for ``pairing.pair_swiss`` / ``pairing.rank``: the event's standings order
    (match points, then its whole tiebreak list), the salted lot breaking what stays tied.

    Never recomputes: round generation refuses (``standings_updating``) while the standings lag
    the results (:func:`check_standings_ready`), so this reads a current snapshot. None (the
    pairing's own match points / spread order) when the event has no standings yet.
    """

    if not StandingsSnapshot.objects.filter(event_id=event.pk).exists():
        return None
    return standings.pairing_rank_key(event)
