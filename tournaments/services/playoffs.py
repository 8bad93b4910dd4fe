"""The play-off: seeding it from the final standings (as a background job), and its bracket."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext

from tournaments import game, job_kinds
from tournaments.errors import Conflict, ValidationFailed
from tournaments.models import (
    BackgroundJob,
    Event,
    Round,
)
from tournaments.pairing import export as pairing_json
from tournaments.pairing.brackets import (
    Bracket,
    SeedSlot,
    double_elimination,
    single_elimination,
)
from tournaments.pairing.records import Bye, Explanation, Pairing, RoundPairing
from tournaments.pairing.stages import stage_of
from tournaments.pairing.tables import assign_tables
from tournaments.selectors import pairing_inputs
from tournaments.selectors.playoffs import check_can_seed
from tournaments.services import audit
from tournaments.services.audit import Actor
from tournaments.services.jobs import start_job
from tournaments.services.round_writer import write_round

SEED_JOB = job_kinds.SEED_PLAYOFF


def start_playoff_seeding(*, event: Event, actor: Actor) -> BackgroundJob:
    """Check at once, then let a worker seed the play-off bracket."""
    check_can_seed(event)
    return start_job(event=event, kind=SEED_JOB, actor=actor)


@transaction.atomic
def seed_playoff(*, event: Event, actor: Actor) -> Round:
    """Seed the play-off bracket from the final standings (the rounds service writes it)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    ranking = check_can_seed(event)
    rnd: Round = create_playoff_bracket(event=event, ranking=ranking, actor=actor)
    audit.record(
        event=event,
        actor=actor,
        action="playoff.seed",
        obj=rnd,
        after={"seeds": ranking[: event.playoff_qualifiers]},
    )
    return rnd


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
            gettext("Round %(number)s is not closed yet: close it before the play-off.")
            % {"number": open_round.number},
            code="previous_round_open",
            details={"round": open_round.number},
        )
    count = qualifiers if qualifiers is not None else event.playoff_qualifiers
    seeds = list(ranking)[:count]
    if len(seeds) < 2:
        raise ValidationFailed(
            gettext("A play-off needs at least two qualifiers."),
            code="too_few_qualifiers",
            details={"qualifiers": len(seeds)},
        )
    last = event.rounds.aggregate(n=Max("number"))["n"] or 0
    number = int(last) + 1
    inputs = pairing_inputs.pairing_inputs(event, round_no=number, active_ids=frozenset(seeds))
    if event.playoff == Event.Playoff.DOUBLE and len(seeds) >= 3:
        bracket = double_elimination(seeds, qualifiers=len(seeds), reset=event.playoff_reset)
    else:
        bracket = single_elimination(
            seeds,
            qualifiers=len(seeds),
            consolation=event.playoff_consolation or None,  # type: ignore[arg-type]
        )
    result, slots = bracket_first_round(bracket, inputs, round_no=number)
    rnd = write_round(
        event=event,
        number=number,
        kind=Round.Kind.PLAYOFF,
        result=result,
        inputs=inputs,
        bracket_slots=slots,
        formats=stage_formats(event, bracket, slots),
        explanation={"bracket": pairing_json.bracket_to_dict(bracket)},
    )
    audit.record(
        event=event,
        actor=actor,
        action="round.playoff_bracket",
        obj=rnd,
        after={"number": number, "seeds": seeds},
    )
    return rnd


def stage_formats(
    event: Event, bracket: Bracket, slots: dict[int, str]
) -> dict[int, tuple[int, int | None]]:
    """Each table's (best of, raw target or None) from its bracket match's stage
    (``pairing.stages.stage_of``) and the event's formats (``game.playoff_format``)."""
    return {
        table: game.playoff_format(event, stage_of(bracket, match_id))
        for table, match_id in slots.items()
    }


def bracket_first_round(
    bracket: Bracket, inputs: pairing_inputs.PairingInputs, *, round_no: int
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
