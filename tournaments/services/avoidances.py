"""The director's named pairs to keep apart (``EntryAvoidance``: a family, a couple): add one,
remove one. A pairing constraint of every format (``selectors.pairing_inputs`` feeds it to the
pairing as ``EntryRecord.avoid``), kept while possible, below "no rematch".

Every function is keyword-only, runs in one transaction and records the change in the audit log.
Error codes (``tournaments.errors``):

    avoidance_same_entry    the two entries are the same entry
    avoidance_other_event   an entry is not of this event
    avoidance_exists        the pair is already kept apart (Conflict)
    avoidance_not_found     no such pair in this event
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from tournaments.errors import Conflict, NotFound, ValidationFailed
from tournaments.models import Entry, EntryAvoidance, Event
from tournaments.services.audit import Actor, record

NOTE_LENGTH = 200
"""The longest note (``EntryAvoidance.note``)."""


@transaction.atomic
def add_avoidance(
    *, actor: Actor, event: Event, entry_x: int, entry_y: int, note: str = ""
) -> EntryAvoidance:
    """Keep entries ``entry_x`` and ``entry_y`` of ``event`` apart while possible, with an
    optional ``note`` (why: "sisters", "a couple"). Stored with the lower entry id first."""
    if entry_x == entry_y:
        raise ValidationFailed(
            gettext("Choose two different entries to keep apart."),
            code="avoidance_same_entry",
            details={"field": "entry_y", "errors": {"entry_y": "The same entry twice."}},
        )
    Event.objects.select_for_update().filter(pk=event.pk).first()
    found = {e.pk: e for e in Entry.objects.filter(event=event, pk__in=[entry_x, entry_y])}
    for field, entry_id in (("entry_x", entry_x), ("entry_y", entry_y)):
        if entry_id not in found:
            raise ValidationFailed(
                gettext("Entry %(entry)s is not an entry of %(event)s: choose one from the list.")
                % {"entry": entry_id, "event": event.name},
                code="avoidance_other_event",
                details={"field": field, "errors": {field: "Not an entry of this event."}},
            )
    low, high = sorted((entry_x, entry_y))
    names = (found[low].name, found[high].name)
    if EntryAvoidance.objects.filter(event=event, entry_a_id=low, entry_b_id=high).exists():
        raise _exists(names)
    try:
        with transaction.atomic():
            pair = EntryAvoidance.objects.create(
                event=event, entry_a_id=low, entry_b_id=high, note=note.strip()[:NOTE_LENGTH]
            )
    except IntegrityError as exc:  # a concurrent request added it
        raise _exists(names) from exc
    record(
        event=event,
        actor=actor,
        action="entry.avoid_add",
        obj=pair,
        after={"entries": [low, high], "names": list(names), "note": pair.note},
    )
    return pair


def _exists(names: tuple[str, str]) -> Conflict:
    return Conflict(
        gettext("%(a)s and %(b)s are already kept apart.") % {"a": names[0], "b": names[1]},
        code="avoidance_exists",
    )


@transaction.atomic
def remove_avoidance(*, actor: Actor, event: Event, avoidance_id: int) -> None:
    """Stop keeping a pair apart (from the next round generated)."""
    pair = (
        EntryAvoidance.objects.select_for_update()
        .select_related("entry_a", "entry_b")
        .filter(event=event, pk=avoidance_id)
        .first()
    )
    if pair is None:
        raise NotFound(
            gettext("That pair is not kept apart in this event (already removed?)."),
            code="avoidance_not_found",
        )
    before = {
        "entries": [pair.entry_a_id, pair.entry_b_id],
        "names": [pair.entry_a.name, pair.entry_b.name],
        "note": pair.note,
    }
    pair.delete()
    record(
        event=event,
        actor=actor,
        action="entry.avoid_remove",
        object_type="entryavoidance",
        object_id=str(avoidance_id),
        before=before,
    )
