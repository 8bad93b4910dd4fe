"""The one round writer: every round (Swiss, round robin, tiebreak, play-off) is written here as
a draft: the round, tables as needed, matches (table, the two entries in seat order, or a bye),
one ``RoundSeat`` per entry, and the explanations (on each match: why; on the round: the method,
the ranking it used, the salt-derived draws, so anyone holding the event's salt can recompute
them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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
from tournaments.pairing.reasons import Reason, gettext_noop, reason
from tournaments.pairing.records import Explanation, RoundPairing
from tournaments.pairing.tables_records import TableExplanation, TablesRound
from tournaments.selectors import pairing_inputs


def _explanation_json(why: Explanation, override: str | None = None) -> dict[str, Any]:
    """A match's explanation as stored (the pairing package's JSON of ``why``), with the list of
    overrides; an exception decided by the schedule itself is recorded as one (``by`` empty)."""
    overrides = []
    if override:
        overrides.append({"action": "generate", "reason": override, "what": "", "by": "", "at": ""})
    return {**pairing_json.explanation_to_dict(why), "overrides": overrides}


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match of a round to write: a game at ``table`` (``entry_b`` set) or a bye."""

    entry_a: int
    entry_b: int | None
    explanation: dict[str, Any]
    table: int | None = None
    bracket_slot: str = ""
    best_of: int = 1
    target: int | None = None  # raw points; None: the event's
    others: tuple[int, ...] = ()  # a table of many: the entries of seats 2 and 3

    @property
    def is_bye(self) -> bool:
        return self.entry_b is None


def write_draft_round(
    *,
    event: Event,
    number: int,
    kind: str,
    explanation: dict[str, Any],
    rows: Sequence[MatchRow],
    time_limit_minutes: int | None = None,
) -> Round:
    """The one round writer: a draft round, its tables as needed, its matches, one seat per
    entry (side 0 for ``entry_a``, 1 for ``entry_b``, 2 and 3 for a table of many's ``others``,
    with ``table_entries`` the entries at the table). Every kind of round is written here."""
    fields: dict[str, Any] = (
        {} if time_limit_minutes is None else {"time_limit_minutes": time_limit_minutes}
    )
    rnd = Round.objects.create(
        event=event,
        number=number,
        kind=kind,
        status=Round.Status.DRAFT,
        explanation=explanation,
        **fields,
    )
    tables = _tables(event, {r.table for r in rows if r.table is not None})
    matches = [
        Match(
            round=rnd,
            table=tables[r.table] if r.table is not None else None,
            entry_a_id=r.entry_a,
            entry_b_id=r.entry_b,
            is_bye=r.is_bye,
            explanation=r.explanation,
            bracket_slot=r.bracket_slot,
            best_of=r.best_of,
            target=r.target,
            table_entries=2 + len(r.others),
        )
        for r in rows
    ]
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
        + [
            RoundSeat(round=rnd, entry_id=entry_id, match=m, side=2 + i)
            for r, m in zip(rows, created, strict=True)
            for i, entry_id in enumerate(r.others)
        ]
    )
    return rnd


def _tables(event: Event, wanted: set[int]) -> dict[int, Table]:
    """The event's tables of these numbers, created as needed."""
    tables = {t.number: t for t in Table.objects.filter(event=event, number__in=wanted)}
    missing = sorted(wanted - tables.keys())
    if missing:
        Table.objects.bulk_create([Table(event=event, number=n) for n in missing])
        tables = {t.number: t for t in Table.objects.filter(event=event, number__in=wanted)}
    return tables


def _round_explanation(
    event: Event, result: RoundPairing, inputs: pairing_inputs.PairingInputs
) -> dict[str, Any]:
    """A paired round's explanation: the method, ranking, draws and each entry's standing."""
    return {
        "kind": result.kind,
        "round": result.round_no,
        "ranking": list(result.ranking),
        "draws": [pairing_json.draw_to_dict(d) for d in result.draws],
        "notes": list(result.notes),
        **pairing_json.note_parts_to_dict(result),
        "total_weight": result.total_weight,
        "rematches": result.rematches,
        "window": result.window,
        **_round_explanation_common(event, inputs),
    }


def _pairing_rows(
    result: RoundPairing,
    inputs: pairing_inputs.PairingInputs,
    bracket_slots: dict[int, str],
    formats: dict[int, tuple[int, int | None]],
) -> list[MatchRow]:
    """The pairing's games (with the first leader's draw) and byes, as rows to write."""
    known = {e.entry_id for e in inputs.entries}
    leaders = {
        tuple(d.context): d for d in result.draws if d.purpose == draw.LEADER_PURPOSE and d.outcome
    }
    rows: list[MatchRow] = []
    for p in result.pairings:
        for entry_id in (p.entry_a, p.entry_b):
            if entry_id not in known:
                raise ValueError(f"the pairing returned unknown entry {entry_id}")
        data = _explanation_json(p.explanation, p.override)
        leader = leaders.get((p.entry_a, p.entry_b))
        if leader is not None:
            data["first_leader"] = {
                "player": leader.outcome[0],
                "draw": pairing_json.draw_to_dict(leader),
            }
        best_of, target = formats.get(p.table, (1, None))
        rows.append(
            MatchRow(
                p.entry_a,
                p.entry_b,
                data,
                p.table,
                bracket_slots.get(p.table, ""),
                best_of=best_of,
                target=target,
            )
        )
    for b in result.byes:
        data = _explanation_json(b.explanation, b.override)
        data["bye"] = True
        rows.append(MatchRow(b.entry_id, None, data))
    return rows


def write_round(
    *,
    event: Event,
    number: int,
    kind: str,
    result: RoundPairing,
    inputs: pairing_inputs.PairingInputs,
    bracket_slots: dict[int, str] | None = None,
    formats: dict[int, tuple[int, int | None]] | None = None,
    explanation: dict[str, Any] | None = None,
) -> Round:
    """Write a paired round as a draft (through :func:`write_draft_round`).

    ``bracket_slots`` maps a table number to its bracket slot (play-off rounds), ``formats`` to
    its stage's (best of, raw target or None); ``explanation`` adds to the round's own.
    """
    return write_draft_round(
        event=event,
        number=number,
        kind=kind,
        explanation={**_round_explanation(event, result, inputs), **(explanation or {})},
        rows=_pairing_rows(result, inputs, bracket_slots or {}, formats or {}),
        time_limit_minutes=event.round_minutes,
    )


def write_tables_round(
    *,
    event: Event,
    number: int,
    kind: str,
    result: TablesRound,
    inputs: pairing_inputs.PairingInputs,
) -> Round:
    """Write a round at tables of many (``pairing.pair_tables``) as a draft: one match per table
    (seats 0 and 1 in ``entry_a`` / ``entry_b``, seats 2 and 3 in ``RoundSeat``; a table of two
    is an ordinary two-entry match), a bye as today. The round's explanation is the pairing's
    own (``export.tables_round_to_dict``) with the salt, the active entries and their standing;
    each table's is its ``TableExplanation`` with its seats and the first leader's draw."""
    known = {e.entry_id for e in inputs.entries}
    leaders = {tuple(d.context): d for d in result.draws if d.purpose == draw.LEADER_PURPOSE}
    rows: list[MatchRow] = []
    for t in result.tables:
        unknown = [e for e in t.entries if e not in known]
        if unknown or len(t.entries) < 2:
            raise ValueError(f"the seating returned unknown entries {unknown} or a lone seat")
        data = {
            **pairing_json.table_explanation_to_dict(t.explanation),
            "reason_parts": [p.to_dict() for p in table_reason_parts(t.explanation)],
            "seats": list(t.entries),
            "overrides": _explanation_json(Explanation(method="", reason=""), t.override)[
                "overrides"
            ],
        }
        leader = leaders.get(t.entries)
        if leader is not None and leader.outcome:
            data["first_leader"] = {
                "player": leader.outcome[0],
                "draw": pairing_json.draw_to_dict(leader),
            }
        rows.append(
            MatchRow(t.entries[0], t.entries[1], data, t.table, others=tuple(t.entries[2:]))
        )
    for b in result.byes:
        data = {
            **pairing_json.table_explanation_to_dict(b.explanation),
            "reason_parts": [
                p.to_dict() for p in bye_reason_parts(b.explanation, result, len(inputs.active))
            ],
            "overrides": _explanation_json(Explanation(method="", reason=""), b.override)[
                "overrides"
            ],
            "bye": True,
        }
        rows.append(MatchRow(b.entry_id, None, data))
    base = _round_explanation_common(event, inputs)
    explanation = {**pairing_json.tables_round_to_dict(result), **base}
    return write_draft_round(
        event=event,
        number=number,
        kind=kind,
        explanation=explanation,
        rows=rows,
        time_limit_minutes=event.round_minutes,
    )


def _round_explanation_common(event: Event, inputs: pairing_inputs.PairingInputs) -> dict[str, Any]:
    """What every generated round's explanation records besides the pairing's own: the salt,
    the active entries, each one's standing before the round and when it was made."""
    return {
        "salt": event.salt,
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


def table_reason_parts(why: TableExplanation) -> list[Reason]:
    """A table's reason (``pairing.tables_of_many``'s English sentence) as templates and
    arguments, so its page shows it in the reader's language."""
    ranks = ", ".join(str(r) for r in sorted(why.ranks))
    groups = sorted(set(why.score_groups), reverse=True)
    if len(groups) == 1:
        parts = [
            reason(
                gettext_noop("score group %(group)s: ranks %(ranks)s"),
                group=pairing_json.number(groups[0]) or 0,
                ranks=ranks,
            )
        ]
    else:
        parts = [
            reason(
                gettext_noop("mixed score groups %(groups)s: ranks %(ranks)s"),
                groups="/".join(str(pairing_json.number(g)) for g in groups),
                ranks=ranks,
            )
        ]
    if why.repeats:
        parts.append(
            reason(
                gettext_noop("repeat meetings %(count)s: the search found no seating without them"),
                count=len(why.repeats),
            )
        )
    if why.constraints:
        parts.append(
            reason(
                gettext_noop("director's constraint not kept: %(pairs)s"),
                pairs=", ".join(why.constraints),
            )
        )
    return parts


def bye_reason_parts(why: TableExplanation, result: TablesRound, active: int) -> list[Reason]:
    """A bye's reason at tables of many as templates and arguments."""
    rank = why.ranks[0] if why.ranks else 0
    return [
        reason(
            gettext_noop(
                "%(active)s players at tables of %(sizes)s: %(byes)s sit out; rank %(rank)s, "
                "the lowest-ranked of those with the fewest byes"
            ),
            active=active,
            sizes="/".join(str(s) for s in result.table_sizes),
            byes=len(result.byes),
            rank=rank,
        )
    ]
