"""Tiebreak rounds: propose a draft of extra games among the entries of each unbroken tie (as a
background job), and approve it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext, gettext_noop

from tournaments import job_kinds
from tournaments.errors import Conflict, NotFound
from tournaments.models import (
    BackgroundJob,
    EntryPlayer,
    Event,
    Match,
    Round,
)
from tournaments.pairing import EntryRecord, PastMatch, pair_swiss
from tournaments.pairing.reasons import reason
from tournaments.selectors.tiebreak_rounds import check_can_propose_tiebreak
from tournaments.services import audit, round_status
from tournaments.services.audit import Actor
from tournaments.services.jobs import start_job
from tournaments.services.round_writer import MatchRow, write_draft_round

PROPOSE_JOB = job_kinds.PROPOSE_TIEBREAK_ROUND


def start_tiebreak_proposal(*, event: Event, actor: Actor) -> BackgroundJob:
    """Check at once, then let a worker propose the tiebreak round (a draft to approve)."""
    check_can_propose_tiebreak(event)
    return start_job(event=event, kind=PROPOSE_JOB, actor=actor)


@transaction.atomic
def propose_tiebreak_round(*, event: Event, actor: Actor) -> Round:
    """Write a draft tiebreak round: extra games among the entries of each unbroken tie.

    The standings package settles a tie round by round: a tiebreak round decides a group when
    every entry of it took part *within* the group (a game against another of the group, or the
    round's bye), by the match points earned in that round; entries still equal stay tied for the
    next. So each proposal pairs the groups tied *now*, each group on its own, with the pairing
    package's Swiss (``pairing.pair_swiss``): the history is the group's earlier tiebreak games,
    so pairs that have met in a tiebreak round meet again only when nothing else is left, and an
    odd group's bye goes to an entry without a tiebreak bye (written as a bye, worth the event's
    bye points like a win). Tables from 1, in order of the groups.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    groups = check_can_propose_tiebreak(event)
    number = (event.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    rows, group_notes = _pair_groups(event, groups, number)
    # ``active_entries``: the checker (check_pairings) expects exactly these entries, once each.
    explanation = {
        "kind": "tiebreak",
        "round": number,
        "salt": event.salt,
        "groups": group_notes,
        "active_entries": sorted(e for group in groups for e in group),
    }
    rnd = write_draft_round(
        event=event, number=number, kind=Round.Kind.TIEBREAK, explanation=explanation, rows=rows
    )
    audit.record(
        event=event, actor=actor, action="tiebreak_round.propose", obj=rnd, after=rnd.explanation
    )
    return rnd


def _players_of(event: Event) -> dict[int, frozenset[int]]:
    """Entry id -> its players' ids (one query)."""
    members: dict[int, frozenset[int]] = {}
    for entry_id, player_id in EntryPlayer.objects.filter(event=event).values_list(
        "entry_id", "player_id"
    ):
        members[entry_id] = members.get(entry_id, frozenset()) | {player_id}
    return members


def _pair_groups(
    event: Event, groups: list[list[int]], number: int
) -> tuple[list[MatchRow], list[dict[str, Any]]]:
    """Pair each tied group on its own (see :func:`propose_tiebreak_round`): the rows to write,
    tables numbered from 1 in order of the groups, and a note per group."""
    members = _players_of(event)

    def players(entry_id: int) -> frozenset[int]:
        return members.get(entry_id, frozenset({-entry_id}))

    earlier = list(
        Match.objects.filter(round__event=event, round__kind=Round.Kind.TIEBREAK).values_list(
            "round__number", "entry_a_id", "entry_b_id"
        )
    )
    rows: list[MatchRow] = []
    notes: list[dict[str, Any]] = []
    for group in groups:
        inside = set(group)
        history = [
            PastMatch(n, a, players(a), b, players(b) if b is not None else frozenset())
            for n, a, b in earlier
            if a in inside and (b is None or b in inside)
        ]
        byes = {a for _, a, b in earlier if b is None and a in inside}
        records = [EntryRecord(e, players(e), byes_received=1 if e in byes else 0) for e in group]
        pairing = pair_swiss(records, history, round_no=number, salt=event.salt)
        for p in pairing.pairings:
            tied = reason(
                gettext_noop("tied after every tiebreak: a rematch, nothing else was left")
                if p.explanation.rematch
                else gettext_noop("tied after every tiebreak: paired")
            )
            why = {"method": "tiebreak", "reason": tied.text, "reason_parts": [tied.to_dict()]}
            table = sum(1 for row in rows if not row.is_bye) + 1
            rows.append(MatchRow(p.entry_a, p.entry_b, {**why, "group": group}, table))
        for bye in pairing.byes:
            why = {
                "method": "tiebreak",
                "reason": bye.explanation.reason,
                "reason_parts": [part.to_dict() for part in bye.explanation.reason_parts],
            }
            rows.append(MatchRow(bye.entry_id, None, why))
        notes.append(
            {
                "entries": group,
                "bye": [b.entry_id for b in pairing.byes],
                "rematches": pairing.rematches,
            }
        )
    return rows, notes


@transaction.atomic
def approve_tiebreak_round(*, event: Event, round_id: int, actor: Actor) -> Round:
    """The director approves a proposed tiebreak round: it is published (by the rounds service,
    after the pairing checker) and played like any round; its results settle the order among
    the tied entries."""
    rnd = (
        Round.objects.select_for_update()
        .filter(event=event, pk=round_id, kind=Round.Kind.TIEBREAK)
        .first()
    )
    if rnd is None:
        raise NotFound(gettext("No such tiebreak round."), code="round_not_found")
    if rnd.status != Round.Status.DRAFT:
        raise Conflict(
            gettext("Round %(number)s is already %(lower)s.")
            % {"number": rnd.number, "lower": rnd.get_status_display().lower()},
            code="round_not_draft",
        )
    published: Round = round_status.publish_round(round=rnd, actor=actor)  # the checker runs first
    audit.record(
        event=event,
        actor=actor,
        action="tiebreak_round.approve",
        obj=published,
        after={"status": published.status},
    )
    return published
