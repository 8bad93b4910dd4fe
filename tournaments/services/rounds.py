"""Writes for rounds: generate a draft (as a background job), edit it, publish, start, close.

One service reads the models into the pairing package's plain records
(``tournaments.selectors.rounds.pairing_inputs``), calls the algorithm
(``tournaments.pairing``) and writes the result: a ``Round``, its ``Match`` rows (table, the two
entries in seat order, or a bye), one ``RoundSeat`` per entry, ``Table`` rows as needed, and the
explanations (on each match: why; on the round: the method, the ranking it used, the salt-derived
draws, so anyone holding the event's salt can recompute them).

Status flow: draft -> published -> in play (optional) -> closed. Only a draft can be edited; every
edit needs a reason and is audit-logged, and the pairing checker then reports the edited matches
as ``override`` rather than as violations.

Errors (``code``):
    previous_round_open     a round is not closed yet (close it first)
    too_few_entries         fewer than two active (checked-in) entries
    schedule_complete       every round of the format has been generated
    playoff_needs_seeding   the Swiss rounds are over; the play-off comes from the standings
    generation_running      a generation job of the event is already pending or running
    round_not_draft         only a draft can be edited or published (or discarded)
    round_not_published     only a published (or in-play) round can be started or closed
    reason_required         an edit needs a reason
    not_in_round            the entry or table is not in this round
    same_entry / same_table a swap needs two different entries / tables
    bye_has_no_table        a bye cannot swap tables
    round_has_violations    publishing a draft the checker rejects (fix or edit with a reason)
    too_few_qualifiers      a play-off bracket needs at least two entries
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tournaments.errors import Conflict, NotFound, ValidationFailed
from tournaments.models import (
    BackgroundJob,
    Entry,
    EntryPlayer,
    Event,
    Match,
    Round,
    RoundSeat,
    Table,
)
from tournaments.pairing import draw
from tournaments.pairing import export as pairing_json
from tournaments.pairing.brackets import (
    Bracket,
    SeedSlot,
    double_elimination,
    single_elimination,
)
from tournaments.pairing.first_round import pair_first_round
from tournaments.pairing.records import Bye, Explanation, Pairing, RoundPairing
from tournaments.pairing.round_robin import pair_round_robin
from tournaments.pairing.swiss import pair_swiss
from tournaments.pairing.tables import assign_tables
from tournaments.selectors import live as selectors_live
from tournaments.selectors import rounds as selectors
from tournaments.services import audit
from tournaments.services.jobs import update_job

logger = logging.getLogger(__name__)

Actor = User | AnonymousUser | None

GENERATE_JOB = "generate_round"
"""``BackgroundJob.kind`` of a round generation."""

JOB_STALE_AFTER = timedelta(minutes=5)
"""A generation job still pending after this long is presumed lost (a dead worker, a lost
message): a new one may be started. Running it late anyway is harmless (it then fails with
``previous_round_open``)."""


# --- Generating a round -----------------------------------------------------------------------


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
                    f"All {total} rounds of the round robin have been generated.",
                    code="schedule_complete",
                    details={"rounds": total},
                )
        return Round.Kind.ROUND_ROBIN
    if number > event.swiss_rounds:
        if event.playoff != Event.Playoff.NONE:
            raise Conflict(
                f"The {event.swiss_rounds} Swiss rounds are done: seed the play-off bracket "
                "from the standings.",
                code="playoff_needs_seeding",
                details={"swiss_rounds": event.swiss_rounds},
            )
        raise Conflict(
            f"All {event.swiss_rounds} Swiss rounds have been generated.",
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
            f"Round {open_round.number} is {open_round.get_status_display().lower()}: "
            "close it before generating the next round.",
            code="previous_round_open",
            details={"round": open_round.number, "status": open_round.status},
        )
    active = event.entries.filter(status=Entry.Status.CHECKED_IN).count()
    if active < 2:
        raise Conflict(
            f"Only {active} entr{'y is' if active == 1 else 'ies are'} checked in: "
            "check in at least two entries first.",
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
    runs on its own, a few seconds after a result; see ``services.live``)."""
    if selectors_live.standings_lag(event):
        raise Conflict(
            "The standings are being updated after the latest results: "
            "wait a few seconds and try again.",
            code="standings_updating",
        )


@transaction.atomic
def start_round_generation(*, event: Event, actor: Actor) -> BackgroundJob:
    """Check that a round may be generated, then create the job and enqueue it after commit.

    The page polls the job (``BackgroundJob`` with ``kind="generate_round"``); in eager mode (no
    Redis) the job is done by the time the request returns.
    """
    from tournaments import tasks
    from tournaments.queueing import enqueue_after_commit

    # One generation at a time per event: two clicks (or two directors) queue here.
    event = Event.objects.select_for_update().get(pk=event.pk)
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
            "A round is already being generated: wait for it to finish.",
            code="generation_running",
            details={"job": running.pk},
        )
    user_id = actor.pk if isinstance(actor, User) else None
    job = BackgroundJob.objects.create(
        event=event,
        kind=GENERATE_JOB,
        params={"round": number, "actor_id": user_id},
        message=f"Waiting for a worker to pair round {number}",
    )
    audit.record(
        event=event,
        actor=actor,
        action="round.generate_requested",
        obj=job,
        after={"round": number, "job": job.pk},
    )
    enqueue_after_commit(tasks.generate_round, job.pk, on_failure=lambda: _job_not_sent(job.pk))
    return job


def _job_not_sent(job_id: int) -> None:
    """The broker refused the job: fail it at once so the page says so and a retry is allowed."""
    from tournaments.services.jobs import update_job

    update_job(
        job_id=job_id,
        status=BackgroundJob.Status.FAILED,
        message="The job queue could not be reached: nothing was paired. Try again in a moment.",
    )


def run_generate_round_job(*, job_id: int) -> BackgroundJob:
    """The worker's side of ``start_round_generation``; safe to run twice.

    Progress is written outside the pairing transaction (so the page sees it at once); the round
    and the job's "done" are committed together, so a redelivered message finds the job done and
    does nothing. An expected refusal (``SpinnerError``) fails the job with its code and message.
    """
    from tournaments.errors import SpinnerError

    job = BackgroundJob.objects.select_related("event").get(pk=job_id)
    if job.status in (BackgroundJob.Status.DONE, BackgroundJob.Status.FAILED):
        return job
    number = job.params.get("round", "")
    update_job(
        job_id=job.pk,
        status=BackgroundJob.Status.RUNNING,
        progress=30,
        message=f"Pairing round {number}: reading entries, history and results, then matching",
    )
    actor = User.objects.filter(pk=job.params.get("actor_id")).first()
    try:
        with transaction.atomic():
            locked = BackgroundJob.objects.select_for_update().get(pk=job_id)
            if locked.status in (BackgroundJob.Status.DONE, BackgroundJob.Status.FAILED):
                return locked
            assert job.event is not None
            rnd = generate_round(event=job.event, actor=actor, job_id=job.pk)
            locked.status = BackgroundJob.Status.DONE
            locked.progress = 100
            locked.message = f"Round {rnd.number} is ready to review"
            locked.result = {"round": rnd.number, "round_id": rnd.pk}
            locked.save(update_fields=["status", "progress", "message", "result", "updated_at"])
            return locked
    except SpinnerError as exc:
        BackgroundJob.objects.filter(pk=job_id).update(
            status=BackgroundJob.Status.FAILED,
            progress=100,
            message=exc.message,
            result=exc.as_dict(),
            updated_at=timezone.now(),
        )
    except Exception:
        logger.exception("generating a round failed (job %s)", job_id)
        BackgroundJob.objects.filter(pk=job_id).update(
            status=BackgroundJob.Status.FAILED,
            progress=100,
            message="Pairing failed unexpectedly; the error is in the server log.",
            result={"code": "internal_error"},
            updated_at=timezone.now(),
        )
        raise
    return BackgroundJob.objects.get(pk=job_id)


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
    number = ensure_can_generate(event)
    kind = next_round_kind(event, number)
    inputs = selectors.pairing_inputs(event, round_no=number)
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


def round_robin_circle(event: Event) -> list[int] | None:
    """The round robin's circle (entry ids in circle order), fixed by round 1; None before."""
    first = event.rounds.filter(number=1, kind=Round.Kind.ROUND_ROBIN).first()
    if first is None:
        return None
    return [int(e) for e in first.explanation.get("ranking", [])]


def pair_round(*, event: Event, kind: str, inputs: selectors.PairingInputs) -> RoundPairing:
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
    if inputs.round_no == 1:
        method = (
            event.first_round if event.first_round in ("random", "rating", "seed") else "random"
        )
        return pair_first_round(
            list(inputs.entries),
            salt=event.salt,
            method=method,  # type: ignore[arg-type]
            round_no=inputs.round_no,
        )
    from tournaments.services import live  # issue 8: rank by the standings' full tiebreak list

    return pair_swiss(
        list(inputs.entries),
        list(inputs.history),
        round_no=inputs.round_no,
        salt=event.salt,
        key=live.pairing_key(event),
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


def _explanation_json(why: Explanation, override: str | None = None) -> dict[str, Any]:
    """A match's explanation as stored (the pairing package's JSON of ``why``), with the list of
    overrides; an exception decided by the schedule itself is recorded as one (``by`` empty)."""
    overrides = []
    if override:
        overrides.append({"action": "generate", "reason": override, "what": "", "by": "", "at": ""})
    return {**pairing_json.explanation_to_dict(why), "overrides": overrides}


def write_round(
    *,
    event: Event,
    number: int,
    kind: str,
    result: RoundPairing,
    inputs: selectors.PairingInputs,
    bracket_slots: dict[int, str] | None = None,
) -> Round:
    """Write a paired round as a draft: the round, tables as needed, matches, seats.

    ``bracket_slots`` maps a table number to its bracket slot (play-off rounds).
    """
    by_id = {e.entry_id: e for e in inputs.entries}
    explanation = {
        "kind": result.kind,
        "round": result.round_no,
        "salt": event.salt,
        "ranking": list(result.ranking),
        "draws": [pairing_json.draw_to_dict(d) for d in result.draws],
        "notes": list(result.notes),
        "total_weight": result.total_weight,
        "rematches": result.rematches,
        "window": result.window,
        "active_entries": sorted(e.entry_id for e in inputs.active),
        "standing": {
            str(e.entry_id): {
                "match_points": pairing_json.number(e.match_points),
                "spread": pairing_json.number(e.spread),
                "byes": e.byes_received,
            }
            for e in inputs.active
        },
        "generated_at": timezone.now().isoformat(),
    }
    rnd = Round.objects.create(
        event=event,
        number=number,
        kind=kind,
        status=Round.Status.DRAFT,
        time_limit_minutes=event.round_minutes,
        explanation=explanation,
    )
    wanted = {p.table for p in result.pairings}
    tables = {t.number: t for t in Table.objects.filter(event=event, number__in=wanted)}
    missing = sorted(wanted - tables.keys())
    if missing:
        Table.objects.bulk_create([Table(event=event, number=n) for n in missing])
        tables = {t.number: t for t in Table.objects.filter(event=event, number__in=wanted)}
    slots = bracket_slots or {}
    leaders = {
        tuple(d.context): d for d in result.draws if d.purpose == draw.LEADER_PURPOSE and d.outcome
    }
    matches: list[Match] = []
    for p in result.pairings:
        for entry_id in (p.entry_a, p.entry_b):
            if entry_id not in by_id:
                raise ValueError(f"the pairing returned unknown entry {entry_id}")
        data = _explanation_json(p.explanation, p.override)
        leader = leaders.get((p.entry_a, p.entry_b))
        if leader is not None:
            data["first_leader"] = {
                "player": leader.outcome[0],
                "draw": pairing_json.draw_to_dict(leader),
            }
        matches.append(
            Match(
                round=rnd,
                table=tables[p.table],
                entry_a_id=p.entry_a,
                entry_b_id=p.entry_b,
                explanation=data,
                bracket_slot=slots.get(p.table, ""),
            )
        )
    for b in result.byes:
        data = _explanation_json(b.explanation, b.override)
        data["bye"] = True
        matches.append(Match(round=rnd, entry_a_id=b.entry_id, is_bye=True, explanation=data))
    created = Match.objects.bulk_create(matches)
    if any(m.pk is None for m in created):  # a backend that cannot return ids
        created = list(rnd.matches.order_by("pk"))
    RoundSeat.objects.bulk_create(
        [RoundSeat(round=rnd, entry_id=m.entry_a_id, match=m, side=0) for m in created]
        + [
            RoundSeat(round=rnd, entry_id=m.entry_b_id, match=m, side=1)
            for m in created
            if m.entry_b_id is not None
        ]
    )
    return rnd


# --- Editing a draft --------------------------------------------------------------------------


def _locked_round(rnd: Round) -> Round:
    return Round.objects.select_for_update().select_related("event").get(pk=rnd.pk)


def _require_draft(rnd: Round) -> None:
    if rnd.status != Round.Status.DRAFT:
        raise Conflict(
            f"Round {rnd.number} is {rnd.get_status_display().lower()}: only a draft can change.",
            code="round_not_draft",
            details={"round": rnd.number, "status": rnd.status},
        )


def _require_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise ValidationFailed(
            "Say why you are changing the pairing (the reason goes in the audit log).",
            code="reason_required",
            details={"reason": "required"},
        )
    return reason


def _note_override(match: Match, *, action: str, reason: str, actor: Actor, what: str) -> None:
    overrides = list(match.explanation.get("overrides") or [])
    overrides.append(
        {
            "action": action,
            "reason": reason,
            "what": what,
            "by": actor.get_username() if isinstance(actor, User) else "",
            "at": timezone.now().isoformat(),
        }
    )
    match.explanation = {**match.explanation, "overrides": overrides}


def _redraw_first_leader(match: Match, event: Event, round_no: int) -> None:
    """After an edit changes who sits at a match, draw its first leader again (same rule, new
    candidates) so the recorded draw matches the table."""
    if match.entry_b_id is None:
        match.explanation = {k: v for k, v in match.explanation.items() if k != "first_leader"}
        return
    players: dict[int, list[int]] = {match.entry_a_id: [], match.entry_b_id: []}
    for entry_id, player_id in EntryPlayer.objects.filter(entry_id__in=list(players)).values_list(
        "entry_id", "player_id"
    ):
        players[entry_id].append(player_id)
    chosen, record = draw.first_leader(
        event.salt,
        round_no,
        match.entry_a_id,
        players[match.entry_a_id],
        match.entry_b_id,
        players[match.entry_b_id],
    )
    match.explanation = {
        **match.explanation,
        "first_leader": {"player": chosen, "draw": pairing_json.draw_to_dict(record)},
    }


def _match_picture(match: Match) -> dict[str, Any]:
    return {
        "match": match.pk,
        "table": match.table.number if match.table is not None else None,
        "entry_a": match.entry_a_id,
        "entry_b": match.entry_b_id,
        "is_bye": match.is_bye,
    }


@transaction.atomic
def swap_entries(*, round: Round, entry_x: int, entry_y: int, reason: str, actor: Actor) -> Round:
    """Swap two entries of a draft round between their places (match and side, or the bye).

    Swapping the two entries of one match swaps their seat order. Needs a reason; logged.
    """
    rnd = _locked_round(round)
    _require_draft(rnd)
    reason = _require_reason(reason)
    if entry_x == entry_y:
        raise ValidationFailed(
            "Choose two different entries.", code="same_entry", details={"entry": entry_x}
        )
    seats = {
        s.entry_id: s
        for s in RoundSeat.objects.select_related("match", "match__table").filter(
            round=rnd, entry_id__in=[entry_x, entry_y]
        )
    }
    for entry_id in (entry_x, entry_y):
        if entry_id not in seats:
            raise NotFound(
                f"Entry {entry_id} is not in round {rnd.number}.",
                code="not_in_round",
                details={"entry": entry_id},
            )
    sx, sy = seats[entry_x], seats[entry_y]
    mx, my = sx.match, sy.match
    before = [_match_picture(mx)] + ([_match_picture(my)] if my.pk != mx.pk else [])
    names = dict(Entry.objects.filter(pk__in=[entry_x, entry_y]).values_list("pk", "name"))
    what = f"swapped {names[entry_x]} and {names[entry_y]}"
    RoundSeat.objects.filter(pk__in=[sx.pk, sy.pk]).delete()
    if mx.pk == my.pk:
        assert mx.entry_b_id is not None  # two entries in one match: not a bye
        mx.entry_a_id, mx.entry_b_id = mx.entry_b_id, mx.entry_a_id
        _note_override(mx, action="swap_entries", reason=reason, actor=actor, what=what)
        _redraw_first_leader(mx, rnd.event, rnd.number)
        mx.save(update_fields=["entry_a", "entry_b", "explanation"])
        changed = [mx]
    else:
        for match, seat, new_entry in ((mx, sx, entry_y), (my, sy, entry_x)):
            if seat.side == 0:
                match.entry_a_id = new_entry
            else:
                match.entry_b_id = new_entry
            _note_override(match, action="swap_entries", reason=reason, actor=actor, what=what)
            _redraw_first_leader(match, rnd.event, rnd.number)
        # Neither match holds an entry twice at any point: each loses one entry and gains
        # the other's.
        mx.save(update_fields=["entry_a", "entry_b", "explanation"])
        my.save(update_fields=["entry_a", "entry_b", "explanation"])
        changed = [mx, my]
    RoundSeat.objects.bulk_create(
        [
            RoundSeat(round=rnd, entry_id=entry_y, match=mx, side=sx.side),
            RoundSeat(round=rnd, entry_id=entry_x, match=my, side=sy.side),
        ]
    )
    audit.record(
        event=rnd.event,
        actor=actor,
        action="round.swap_entries",
        obj=rnd,
        before=before,
        after=[_match_picture(m) for m in changed],
        reason=reason,
    )
    return rnd


@transaction.atomic
def swap_tables(*, round: Round, table_x: int, table_y: int, reason: str, actor: Actor) -> Round:
    """Swap the tables of two matches of a draft round (by table number). Needs a reason."""
    rnd = _locked_round(round)
    _require_draft(rnd)
    reason = _require_reason(reason)
    if table_x == table_y:
        raise ValidationFailed(
            "Choose two different tables.", code="same_table", details={"table": table_x}
        )
    matches = {
        m.table.number: m
        for m in rnd.matches.select_related("table").filter(table__number__in=[table_x, table_y])
        if m.table is not None
    }
    for number in (table_x, table_y):
        if number not in matches:
            raise NotFound(
                f"No match at table {number} in round {rnd.number}.",
                code="not_in_round",
                details={"table": number},
            )
    mx, my = matches[table_x], matches[table_y]
    before = [_match_picture(mx), _match_picture(my)]
    tx, ty = mx.table, my.table
    what = f"swapped tables {table_x} and {table_y}"
    # One table per match per round is a database constraint: free one table first.
    mx.table = None
    mx.save(update_fields=["table"])
    my.table = tx
    _note_override(my, action="swap_tables", reason=reason, actor=actor, what=what)
    my.save(update_fields=["table", "explanation"])
    mx.table = ty
    _note_override(mx, action="swap_tables", reason=reason, actor=actor, what=what)
    mx.save(update_fields=["table", "explanation"])
    audit.record(
        event=rnd.event,
        actor=actor,
        action="round.swap_tables",
        obj=rnd,
        before=before,
        after=[_match_picture(mx), _match_picture(my)],
        reason=reason,
    )
    return rnd


@transaction.atomic
def discard_draft_round(*, round: Round, reason: str, actor: Actor) -> None:
    """Delete a draft round (to generate it again). Needs a reason; logged."""
    rnd = _locked_round(round)
    _require_draft(rnd)
    reason = _require_reason(reason)
    before = {
        "number": rnd.number,
        "kind": rnd.kind,
        "matches": [_match_picture(m) for m in rnd.matches.select_related("table")],
    }
    event = rnd.event
    audit.record(
        event=event, actor=actor, action="round.discard", obj=rnd, before=before, reason=reason
    )
    rnd.delete()


# --- The status flow ---------------------------------------------------------------------------


_STATUS_ACTIONS: dict[str, str] = {
    Round.Status.PUBLISHED: "round.publish",
    Round.Status.IN_PLAY: "round.start",
    Round.Status.CLOSED: "round.close",
}


def _move_round(rnd: Round, status: str, *, actor: Actor, stamp: str = "") -> Round:
    """Set a locked round's status (and its timestamp field, if any) and audit the move; the
    caller has checked that the move is allowed."""
    before = rnd.status
    rnd.status = status
    fields = ["status"]
    if stamp:
        setattr(rnd, stamp, timezone.now())
        fields.append(stamp)
    rnd.save(update_fields=fields)
    audit.record(
        event=rnd.event,
        actor=actor,
        action=_STATUS_ACTIONS[status],
        obj=rnd,
        before={"status": before},
        after={"status": rnd.status},
    )
    return rnd


@transaction.atomic
def publish_round(*, round: Round, actor: Actor) -> Round:
    """Publish a draft: its pairings become public (where the event shows pairings).

    Refused while the pairing checker finds violations (edits made with a reason are overrides,
    not violations).
    """
    rnd = _locked_round(round)
    _require_draft(rnd)
    problems = [v for v in selectors.check_round_record(rnd) if v.is_violation]
    if problems:
        raise Conflict(
            f"Round {rnd.number} has {len(problems)} problem(s): fix them, or edit with a reason.",
            code="round_has_violations",
            details={"violations": [str(v) for v in problems]},
        )
    return _move_round(rnd, Round.Status.PUBLISHED, actor=actor, stamp="published_at")


@transaction.atomic
def start_round(*, round: Round, actor: Actor) -> Round:
    """Mark a published round as in play (optional: the clock has started)."""
    rnd = _locked_round(round)
    if rnd.status != Round.Status.PUBLISHED:
        raise Conflict(
            f"Round {rnd.number} is {rnd.get_status_display().lower()}: only a published "
            "round can start.",
            code="round_not_published",
            details={"round": rnd.number, "status": rnd.status},
        )
    return _move_round(rnd, Round.Status.IN_PLAY, actor=actor)


def ensure_round_can_close(rnd: Round) -> None:
    """Refuse to close a round while a match has no confirmed result.

    The director settles a missing result first (an arbitral result, with a reason, from the
    round's results page), so the standings never silently count a missing game as nothing.
    """
    from tournaments.services.results import round_results_complete

    if not round_results_complete(rnd):
        raise Conflict(
            f"Round {rnd.number} still has matches without a confirmed result: confirm them or "
            "enter an arbitral result for each before closing.",
            code="results_missing",
        )


@transaction.atomic
def close_round(*, round: Round, actor: Actor) -> Round:
    """Close a published or in-play round (the next round may then be generated)."""
    rnd = _locked_round(round)
    if rnd.status not in (Round.Status.PUBLISHED, Round.Status.IN_PLAY):
        raise Conflict(
            f"Round {rnd.number} is {rnd.get_status_display().lower()}: only a published "
            "round can close.",
            code="round_not_published",
            details={"round": rnd.number, "status": rnd.status},
        )
    ensure_round_can_close(rnd)
    return _move_round(rnd, Round.Status.CLOSED, actor=actor, stamp="closed_at")


def generate_and_publish_round(*, event: Event, actor: Actor) -> Round:
    """Generate the next round at once (no job) and publish it when the checker is clean; for
    scripts such as ``manage.py demo``. Each step is its own transaction, like the pages."""
    rnd = generate_round(event=event, actor=actor)
    return publish_round(round=rnd, actor=actor)


# --- Play-off brackets --------------------------------------------------------------------------


@transaction.atomic
def create_playoff_bracket(
    *,
    event: Event,
    ranking: Sequence[int],
    actor: Actor,
    qualifiers: int | None = None,
) -> Round:
    """Write the first play-off round from ``ranking`` (entry ids, best first) as a draft.

    ``qualifiers`` defaults to ``event.playoff_qualifiers``; the top seeds get byes to fill a
    power of two, matches follow the standard order (1 v 16, 8 v 9, ...), each match records its
    bracket slot. Issue 8's seeding job calls this with the final standings.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    open_round = event.rounds.exclude(status=Round.Status.CLOSED).first()
    if open_round is not None:
        raise Conflict(
            f"Round {open_round.number} is not closed yet: close it before the play-off.",
            code="previous_round_open",
            details={"round": open_round.number},
        )
    count = qualifiers if qualifiers is not None else event.playoff_qualifiers
    seeds = list(ranking)[:count]
    if len(seeds) < 2:
        raise ValidationFailed(
            "A play-off needs at least two qualifiers.",
            code="too_few_qualifiers",
            details={"qualifiers": len(seeds)},
        )
    last = event.rounds.aggregate(n=Max("number"))["n"] or 0
    number = int(last) + 1
    inputs = selectors.pairing_inputs(event, round_no=number, active_ids=frozenset(seeds))
    if event.playoff == Event.Playoff.DOUBLE and len(seeds) >= 3:
        bracket = double_elimination(seeds, qualifiers=len(seeds))
    else:
        bracket = single_elimination(
            seeds,
            qualifiers=len(seeds),
            consolation="third_place" if event.playoff_consolation else None,
        )
    result, slots = bracket_first_round(bracket, inputs, round_no=number)
    rnd = write_round(
        event=event,
        number=number,
        kind=Round.Kind.PLAYOFF,
        result=result,
        inputs=inputs,
        bracket_slots=slots,
    )
    rnd.explanation = {**rnd.explanation, "bracket": pairing_json.bracket_to_dict(bracket)}
    rnd.save(update_fields=["explanation"])
    audit.record(
        event=event,
        actor=actor,
        action="round.playoff_bracket",
        obj=rnd,
        after={"number": number, "seeds": seeds},
    )
    return rnd


def bracket_first_round(
    bracket: Bracket, inputs: selectors.PairingInputs, *, round_no: int
) -> tuple[RoundPairing, dict[int, str]]:
    """The first play-off round of ``bracket``: its seed-v-seed matches of winners' round 1,
    tabled best seed first (pins kept), and a bye for each seed that skips the round.

    Returns the round and the bracket slot (match id) of each table.
    """
    first = bracket.rounds[0] if bracket.rounds else None
    games: list[tuple[int, int, str]] = []  # (seed a, seed b, match id)
    if first is not None:
        for m in first.matches:
            if isinstance(m.slot_a, SeedSlot) and isinstance(m.slot_b, SeedSlot):
                games.append((m.slot_a.seed, m.slot_b.seed, m.match_id))
    games.sort(key=lambda g: min(g[0], g[1]))
    playing = {s for a, b, _ in games for s in (a, b)}
    entry_of = {s: bracket.seeds[s - 1] for s in range(1, len(bracket.seeds) + 1)}
    by_id = {e.entry_id: e for e in inputs.entries}
    pins = {
        entry_of[s]: by_id[entry_of[s]].pinned_table
        for s in playing
        if by_id[entry_of[s]].pinned_table is not None
    }
    seated = [(entry_of[min(a, b)], entry_of[max(a, b)]) for a, b, _ in games]
    tables, notes = assign_tables(seated, pins)  # type: ignore[arg-type]
    pairings: list[Pairing] = []
    slots: dict[int, str] = {}
    for table, (a, b, match_id), (ea, eb) in zip(tables, games, seated, strict=True):
        top, low = min(a, b), max(a, b)
        why = Explanation(
            method="bracket",
            reason=f"{bracket.kind} elimination {match_id}: seed {top} v seed {low}",
            ranks=(top, low),
        )
        pairings.append(Pairing(table=table, entry_a=ea, entry_b=eb, explanation=why))
        slots[table] = match_id
    byes = [
        Bye(
            entry_of[s],
            Explanation(
                method="bracket",
                reason=f"seed {s} has a bye into round 2 (bracket of {bracket.size})",
                ranks=(s,),
            ),
        )
        for s in range(1, len(bracket.seeds) + 1)
        if s not in playing
    ]
    pairings.sort(key=lambda p: p.table)
    result = RoundPairing(
        round_no=round_no,
        kind="bracket",
        pairings=tuple(pairings),
        byes=tuple(byes),
        ranking=tuple(bracket.seeds),
        notes=tuple(notes),
    )
    return result, slots


__all__ = [
    "GENERATE_JOB",
    "close_round",
    "create_playoff_bracket",
    "discard_draft_round",
    "ensure_can_generate",
    "ensure_round_can_close",
    "generate_and_publish_round",
    "generate_round",
    "next_round_kind",
    "pair_round",
    "publish_round",
    "run_generate_round_job",
    "start_round",
    "start_round_generation",
    "swap_entries",
    "swap_tables",
    "write_round",
]
