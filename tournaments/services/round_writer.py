"""The one round writer: every round (Swiss, round robin, tiebreak, play-off) is written here as
a draft: the round, tables as needed, matches (table, the two entries in seat order, or a bye),
one ``RoundSeat`` per entry, and the explanations (on each match: why; on the round: the method,
the ranking it used, the salt-derived draws, so anyone holding the event's salt can recompute
them).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from tournaments.models import (
    Event,
    Match,
    Round,
    RoundSeat,
    Table,
)
from tournaments.pairing import draw
from tournaments.pairing import export as pairing_json
from tournaments.pairing.records import Explanation, RoundPairing
from tournaments.selectors import pairing_inputs


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
    inputs: pairing_inputs.PairingInputs,
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
