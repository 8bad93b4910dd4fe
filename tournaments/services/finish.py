"""Finishing an event: its final placings frozen, and frozen again after a director's correction.

A finished event (``Event.Status.FINISHED``) refuses every further result (claims, the
director's arbitral results and conflict resolutions: ``event_finished``, checked by
``services.results``) except a director's audited correction (``services.decisions
.correct_result``), which calls :func:`refreeze_placings`.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments import follow_versions
from tournaments.models import Event, Round
from tournaments.selectors.final_placings import current_places, finish_check, placings_json
from tournaments.services import audit, round_status, webhooks
from tournaments.services.audit import Actor
from tournaments.services.results import round_results_complete


@transaction.atomic
def finish_event(*, event: Event, actor: Actor) -> Event:
    """Finish ``event``: freeze its final placings into ``Event.placings``, set it finished.

    Allowed once the play-off's final has a confirmed winner (an event without a play-off: once
    every main round is closed and the event's number of Swiss rounds is reached). Raises what
    :func:`~tournaments.selectors.final_placings.finish_check` names: ``event_finished``,
    ``main_rounds_open``, ``playoff_needs_seeding``, ``playoff_not_decided``.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    check = finish_check(event)
    if check.error is not None:
        raise check.error
    before = {"status": event.status}
    event.placings = placings_json(event, check.places)
    event.status = Event.Status.FINISHED
    event.finished_at = timezone.now()
    event.save(update_fields=["placings", "status", "finished_at", "updated_at"])
    # The last play-off round (the final's) is over: close it, and any other open round whose
    # every match has its result. A round with a side match left unplayed (a third-place match,
    # say) stays as it is: its entries share their place, as the placings say.
    for rnd in event.rounds.exclude(status__in=[Round.Status.CLOSED, Round.Status.DRAFT]):
        if round_results_complete(rnd):
            round_status.close_round(round=rnd, actor=actor)
    audit.record(
        event=event,
        actor=actor,
        action="event.finish",
        obj=event,
        before=before,
        after={"status": event.status, "placings": event.placings},
    )
    webhooks.event_finished(event)  # sent after commit
    follow_versions.bump_event(event)
    return event


def refreeze_placings(*, event: Event, actor: Actor, reason: str) -> Event:
    """In the caller's transaction (a correction's): recompute a finished event's placings from
    the results as they now stand and freeze them again, audited with before and after (only
    when they changed). Raises ``playoff_not_decided`` when the correction leaves a later bracket
    match between entries no longer in it (the correction is then refused as a whole)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status != Event.Status.FINISHED:
        return event
    placings = placings_json(event, current_places(event))
    if placings == event.placings:
        return event
    before = event.placings
    event.placings = placings
    event.save(update_fields=["placings", "updated_at"])
    audit.record(
        event=event,
        actor=actor,
        action="event.placings",
        obj=event,
        before={"placings": before},
        after={"placings": placings},
        reason=reason,
    )
    return event
