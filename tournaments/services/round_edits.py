"""Editing a draft round: swap two entries or two tables, or discard the draft.

Only a draft can be edited; every edit needs a reason and is audit-logged, and the pairing
checker then reports the edited matches as ``override`` rather than as violations.

Errors (``code``):
    round_not_draft         only a draft can be edited (or discarded)
    reason_required         an edit needs a reason
    not_in_round            the entry or table is not in this round
    same_entry / same_table a swap needs two different entries / tables
    bye_has_no_table        a bye cannot swap tables
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tournaments.errors import Conflict, NotFound, ValidationFailed
from tournaments.models import (
    Claim,
    Entry,
    EntryPlayer,
    Event,
    Match,
    MatchResult,
    Round,
    RoundSeat,
)
from tournaments.pairing import draw
from tournaments.pairing import export as pairing_json
from tournaments.services import audit
from tournaments.services.audit import Actor


def lock_round(rnd: Round) -> Round:
    return Round.objects.select_for_update().select_related("event").get(pk=rnd.pk)


def require_draft(rnd: Round) -> None:
    if rnd.status != Round.Status.DRAFT:
        raise Conflict(
            gettext("Round %(number)s is %(lower)s: only a draft can change.")
            % {"number": rnd.number, "lower": rnd.get_status_display().lower()},
            code="round_not_draft",
            details={"round": rnd.number, "status": rnd.status},
        )


def _require_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise ValidationFailed(
            gettext("Say why you are changing the pairing (the reason goes in the audit log)."),
            code="reason_required",
            details={"reason": "required"},
        )
    return reason


def _note_override(
    match: Match,
    *,
    action: str,
    reason: str,
    actor: Actor,
    what: str,
    swapped: tuple[Any, Any] | None = None,
) -> None:
    """Note a director's edit on the match's explanation: ``what`` in English (the export's),
    and ``swapped`` (the two entries' names or table numbers), from which a page says it in
    its reader's language (``selectors.pairing_reasons.override_what``)."""
    overrides = list(match.explanation.get("overrides") or [])
    overrides.append(
        {
            "action": action,
            "reason": reason,
            "what": what,
            **({"swapped": list(swapped)} if swapped is not None else {}),
            "by": actor.get_username() if isinstance(actor, User) else "",
            "at": timezone.now().isoformat(),
        }
    )
    match.explanation = {**match.explanation, "overrides": overrides}


def _redraw_first_leader(
    match: Match, event: Event, round_no: int, seats: list[int] | None = None
) -> None:
    """After an edit changes who sits at a match, draw its first leader again (same rule, new
    candidates) so the recorded draw matches the table. ``seats``: a table of many's entries in
    seat order (its draw is over all its players, as ``pairing.pair_tables`` draws it)."""
    if seats is not None and len(seats) > 2:
        members = EntryPlayer.objects.filter(entry_id__in=seats).values_list("player_id", flat=True)
        chosen, record = draw.choose(
            event.salt, draw.LEADER_PURPOSE, round_no, sorted(members), context=seats
        )
        match.explanation = {
            **match.explanation,
            "seats": list(seats),
            "first_leader": {"player": chosen, "draw": pairing_json.draw_to_dict(record)},
        }
        return
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
    rnd = lock_round(round)
    require_draft(rnd)
    reason = _require_reason(reason)
    if entry_x == entry_y:
        raise ValidationFailed(
            gettext("Choose two different entries."), code="same_entry", details={"entry": entry_x}
        )
    sx, sy = _seats_of(rnd, entry_x, entry_y)
    mx, my = sx.match, sy.match
    table_seats = _table_seats(mx, my, sx, sy)
    before = [_match_picture(mx)] + ([_match_picture(my)] if my.pk != mx.pk else [])
    names = dict(Entry.objects.filter(pk__in=[entry_x, entry_y]).values_list("pk", "name"))
    what = f"swapped {names[entry_x]} and {names[entry_y]}"
    RoundSeat.objects.filter(pk__in=[sx.pk, sy.pk]).delete()
    changed = _swap_places(
        rnd,
        sx,
        sy,
        reason=reason,
        actor=actor,
        what=what,
        names=(names[entry_x], names[entry_y]),
        table_seats=table_seats,
    )
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


def _table_seats(mx: Match, my: Match, sx: RoundSeat, sy: RoundSeat) -> dict[int, list[int]]:
    """The seats of the tables of many among ``mx`` and ``my`` (entries in seat order) as they
    will be after ``sx``'s and ``sy``'s entries change places; empty for two-entry matches."""
    many = [m.pk for m in {mx.pk: mx, my.pk: my}.values() if m.table_entries > 2]
    if not many:
        return {}
    seats: dict[int, dict[int, int]] = {pk: {} for pk in many}
    for match_id, side, entry_id in RoundSeat.objects.filter(match_id__in=many).values_list(
        "match_id", "side", "entry_id"
    ):
        seats[match_id][side] = entry_id
    for seat, other in ((sx, sy), (sy, sx)):
        if seat.match_id in seats:
            seats[seat.match_id][seat.side] = other.entry_id
    return {pk: [by_side[s] for s in sorted(by_side)] for pk, by_side in seats.items()}


def _seats_of(rnd: Round, entry_x: int, entry_y: int) -> tuple[RoundSeat, RoundSeat]:
    """The two entries' seats in the round (with their matches and tables); NotFound for an
    entry not in it."""
    seats = {
        s.entry_id: s
        for s in RoundSeat.objects.select_related("match", "match__table").filter(
            round=rnd, entry_id__in=[entry_x, entry_y]
        )
    }
    for entry_id in (entry_x, entry_y):
        if entry_id not in seats:
            raise NotFound(
                gettext("Entry %(entry_id)s is not in round %(number)s.")
                % {"entry_id": entry_id, "number": rnd.number},
                code="not_in_round",
                details={"entry": entry_id},
            )
    return seats[entry_x], seats[entry_y]


def _swap_places(
    rnd: Round,
    sx: RoundSeat,
    sy: RoundSeat,
    *,
    reason: str,
    actor: Actor,
    what: str,
    names: tuple[str, str],
    table_seats: dict[int, list[int]],
) -> list[Match]:
    """Put each entry in the other's place (both in one match: swap their sides or seats), note
    the director's override and redraw the first leader of each changed match; returns them.
    At a table of many seats 0 and 1 are the match's entries, the others only ``RoundSeat``."""
    mx, my = sx.match, sy.match
    if mx.pk in table_seats and mx.pk == my.pk:
        new = table_seats[mx.pk]
        mx.entry_a_id, mx.entry_b_id = new[0], new[1]
        _note_override(
            mx, action="swap_entries", reason=reason, actor=actor, what=what, swapped=names
        )
        _redraw_first_leader(mx, rnd.event, rnd.number, new)
        mx.save(update_fields=["entry_a", "entry_b", "explanation"])
        return [mx]
    if mx.pk == my.pk:
        assert mx.entry_b_id is not None  # two entries in one match: not a bye
        mx.entry_a_id, mx.entry_b_id = mx.entry_b_id, mx.entry_a_id
        _note_override(
            mx, action="swap_entries", reason=reason, actor=actor, what=what, swapped=names
        )
        _redraw_first_leader(mx, rnd.event, rnd.number)
        mx.save(update_fields=["entry_a", "entry_b", "explanation"])
        return [mx]
    for match, seat, new_entry in ((mx, sx, sy.entry_id), (my, sy, sx.entry_id)):
        if seat.side == 0:
            match.entry_a_id = new_entry
        elif seat.side == 1:
            match.entry_b_id = new_entry
        _note_override(
            match, action="swap_entries", reason=reason, actor=actor, what=what, swapped=names
        )
        _redraw_first_leader(match, rnd.event, rnd.number, table_seats.get(match.pk))
    # Neither match holds an entry twice at any point: each loses one entry and gains
    # the other's.
    mx.save(update_fields=["entry_a", "entry_b", "explanation"])
    my.save(update_fields=["entry_a", "entry_b", "explanation"])
    return [mx, my]


@transaction.atomic
def swap_tables(*, round: Round, table_x: int, table_y: int, reason: str, actor: Actor) -> Round:
    """Swap the tables of two matches of a draft round (by table number). Needs a reason."""
    rnd = lock_round(round)
    require_draft(rnd)
    reason = _require_reason(reason)
    if table_x == table_y:
        raise ValidationFailed(
            gettext("Choose two different tables."), code="same_table", details={"table": table_x}
        )
    matches = {
        m.table.number: m
        for m in rnd.matches.select_related("table").filter(table__number__in=[table_x, table_y])
        if m.table is not None
    }
    for number in (table_x, table_y):
        if number not in matches:
            raise NotFound(
                gettext("No match at table %(number)s in round %(number2)s.")
                % {"number": number, "number2": rnd.number},
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
    _note_override(
        my, action="swap_tables", reason=reason, actor=actor, what=what, swapped=(table_x, table_y)
    )
    my.save(update_fields=["table", "explanation"])
    mx.table = ty
    _note_override(
        mx, action="swap_tables", reason=reason, actor=actor, what=what, swapped=(table_x, table_y)
    )
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
    """Delete a draft round (to generate it again). Needs a reason; logged.

    Refused (``round_has_results``) when any of its matches has a claim or a result: those are
    kept for good (the database refuses their deletion), and the services never let one onto a
    draft, so this only guards rounds written by other means."""
    rnd = lock_round(round)
    require_draft(rnd)
    if (
        Claim.objects.filter(match__round=rnd).exists()
        or MatchResult.objects.filter(match__round=rnd).exists()
    ):
        raise Conflict(
            gettext("Round %(number)s has results or claims: it cannot be discarded.")
            % {"number": rnd.number},
            code="round_has_results",
        )
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
