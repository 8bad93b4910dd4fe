"""Advancing a seeded play-off, round after round, to its champion.

Once every bracket match of the open play-off round is decided (``selectors.bracket``: its games'
current results through the pure series and progress), :func:`advance_playoff` closes that round
(``services.round_status.close_round``) and writes the next play-off round with every bracket
match that is now ``ready`` (``pairing.progression.bracket_progress``): tables assigned as for
every round (``pairing.tables.assign_tables``, pins kept), each match with its bracket slot and
its stage's format (best of, target: ``game.playoff_format``). Byes never reach a table (the pure
bracket has removed them); ``GF2`` is tabled only when the progress says the reset is needed.

The new round is a **draft**, as every generated round: the director reviews and publishes it
(the pages' "Publish"), so nothing reaches the players unseen. When the bracket is finished,
nothing more is created (finishing the event is its own action).

Two ways in, one service: the job runner (a decided bracket match enqueues
``tournaments.advance_playoff`` after commit; :func:`advance_when_ready` stays quiet when there is
nothing to do yet) and the director's one tap ("Next play-off round", and "Generate the next
round" of a seeded play-off). The event row is locked, so two runs at once advance once.

Errors (``code``):
    playoff_needs_seeding   the bracket is not seeded yet
    previous_round_open     a round that is not a play-off round is still open
    playoff_round_draft     the latest play-off round is a draft: publish it first
    playoff_round_in_play   bracket matches of the open round are undecided (``details``: them)
    playoff_finished        the bracket is finished: nothing more to play
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext

from tournaments.errors import Conflict
from tournaments.models import Event, Round
from tournaments.pairing.brackets import Bracket, BracketMatch, LoserOf, SeedSlot, Slot
from tournaments.pairing.records import Explanation, Pairing, RoundPairing
from tournaments.pairing.stages import stage_label
from tournaments.pairing.tables import assign_tables
from tournaments.selectors import pairing_inputs
from tournaments.selectors.bracket import BracketView, bracket_view
from tournaments.services import audit
from tournaments.services.audit import Actor
from tournaments.services.playoffs import stage_formats
from tournaments.services.round_status import close_round
from tournaments.services.round_writer import write_round

QUIET_CODES = frozenset(
    {"playoff_round_in_play", "playoff_round_draft", "playoff_finished", "previous_round_open"}
)
"""What the job runner meets when there is nothing to do yet (or any more): not a failure."""


def is_seeded(event: Event) -> bool:
    """Whether the event's play-off bracket is seeded (its first round holds the bracket)."""
    first = event.rounds.filter(kind=Round.Kind.PLAYOFF).order_by("number").first()
    return first is not None and "bracket" in first.explanation


def check_can_advance(event: Event, view: BracketView | None = None) -> list[Round]:
    """Raise unless the play-off can advance now (see the module's errors); return the open
    play-off rounds to close first (none when the director closed them already)."""
    view = view if view is not None else bracket_view(event)
    if view is None or view.progress is None:
        raise Conflict(
            gettext("The play-off bracket is not seeded yet: seed it from the final standings."),
            code="playoff_needs_seeding",
        )
    to_close: list[Round] = []
    for rnd in event.rounds.exclude(status=Round.Status.CLOSED).order_by("number"):
        if rnd.kind != Round.Kind.PLAYOFF:
            raise Conflict(
                gettext("Round %(number)s is %(lower)s: close it first.")
                % {"number": rnd.number, "lower": rnd.get_status_display().lower()},
                code="previous_round_open",
                details={"round": rnd.number, "status": rnd.status},
            )
        if rnd.status == Round.Status.DRAFT:
            raise Conflict(
                gettext(
                    "Round %(number)s (play-off) is a draft: review and publish it; the next "
                    "play-off round follows once its matches are decided."
                )
                % {"number": rnd.number},
                code="playoff_round_draft",
                details={"round": rnd.number},
            )
        undecided = sorted(
            slot for slot, s in view.tabled.items() if s.round.pk == rnd.pk and not s.decided
        )
        if undecided:
            raise Conflict(
                gettext(
                    "Round %(number)s still has undecided bracket matches: %(join)s. Confirm "
                    "their results first."
                )
                % {"number": rnd.number, "join": ", ".join(undecided)},
                code="playoff_round_in_play",
                details={"round": rnd.number, "matches": undecided},
            )
        to_close.append(rnd)
    if view.progress.finished:
        raise Conflict(
            gettext("The bracket is finished: every match is decided."),
            code="playoff_finished",
            details={"champion": view.progress.champion},
        )
    return to_close


@transaction.atomic
def advance_playoff(*, event: Event, actor: Actor) -> Round:
    """Close the decided play-off round and write the next one as a draft (module docstring).

    Raises ``playoff_needs_seeding``, ``previous_round_open``, ``playoff_round_draft``,
    ``playoff_round_in_play`` or ``playoff_finished``.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    view = bracket_view(event)
    for rnd in check_can_advance(event, view):
        close_round(round=rnd, actor=actor)
    assert view is not None and view.progress is not None
    ready = [m for m in view.progress.ready if m not in view.tabled]
    last = event.rounds.aggregate(n=Max("number"))["n"] or 0
    number = int(last) + 1
    playing = frozenset(
        e for m in ready for e in (view.progress.state(m).entries or ()) if e is not None
    )
    inputs = pairing_inputs.pairing_inputs(event, round_no=number, active_ids=playing)
    result, slots = bracket_next_round(view, ready, inputs, round_no=number)
    rnd = write_round(
        event=event,
        number=number,
        kind=Round.Kind.PLAYOFF,
        result=result,
        inputs=inputs,
        bracket_slots=slots,
        formats=stage_formats(event, view.bracket, slots),
        explanation={"bracket_matches": [slots[t] for t in sorted(slots)]},
    )
    audit.record(
        event=event,
        actor=actor,
        action="round.playoff_advance",
        obj=rnd,
        after={"number": number, "matches": [slots[t] for t in sorted(slots)]},
    )
    return rnd


def advance_when_ready(*, event_id: int) -> Round | None:
    """The job runner's way in: advance if the play-off can, else nothing (the expected
    "not yet" and "no more" refusals are quiet; anything else is raised)."""
    event = Event.objects.get(pk=event_id)
    try:
        return advance_playoff(event=event, actor=None)
    except Conflict as exc:
        if exc.code in QUIET_CODES or exc.code == "playoff_needs_seeding":
            return None
        raise


def slot_text(slot: Slot) -> str:
    """How a page reads a slot: "seed 3", "winner of W1-2", "loser of W2-1"."""
    if isinstance(slot, SeedSlot):
        return f"seed {slot.seed}"
    return f"{'loser' if isinstance(slot, LoserOf) else 'winner'} of {slot.match_id}"


def _reason(bracket: Bracket, m: BracketMatch) -> str:
    return (
        f"{stage_label(bracket, m.match_id)} {m.match_id}: "
        f"{slot_text(m.slot_a)} v {slot_text(m.slot_b)}"
    )


def bracket_next_round(
    view: BracketView,
    ready: list[str],
    inputs: pairing_inputs.PairingInputs,
    *,
    round_no: int,
) -> tuple[RoundPairing, dict[int, str]]:
    """The ``ready`` bracket matches as a round: slot A's entry first, tables in bracket order
    (pins kept); returns the round and each table's bracket match id."""
    assert view.progress is not None
    bracket = view.bracket
    seed_of = {e: s for s, e in enumerate(bracket.seeds, start=1)}
    seated: list[tuple[int, int]] = []
    for match_id in ready:
        entries = view.progress.state(match_id).entries
        assert entries is not None
        seated.append(entries)
    pins = {
        e.entry_id: e.pinned_table
        for e in inputs.entries
        if e.pinned_table is not None and any(e.entry_id in pair for pair in seated)
    }
    tables, notes = assign_tables(seated, pins)
    pairings: list[Pairing] = []
    slots: dict[int, str] = {}
    for table, match_id, (a, b) in zip(tables, ready, seated, strict=True):
        why = Explanation(
            method="bracket",
            reason=_reason(bracket, bracket.match(match_id)),
            ranks=(seed_of[a], seed_of[b]),
        )
        pairings.append(Pairing(table=table, entry_a=a, entry_b=b, explanation=why))
        slots[table] = match_id
    pairings.sort(key=lambda p: p.table)
    result = RoundPairing(
        round_no=round_no,
        kind="bracket",
        pairings=tuple(pairings),
        byes=(),
        ranking=tuple(bracket.seeds),
        notes=tuple(notes),
    )
    return result, slots
