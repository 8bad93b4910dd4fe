"""A round's status flow: draft -> published -> in play (optional) -> closed.

Errors (``code``):
    round_not_draft         only a draft can be published
    round_not_published     only a published (or in-play) round can be started or closed
    round_has_violations    publishing a draft the checker rejects (fix or edit with a reason)
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from tournaments import follow_versions
from tournaments.errors import Conflict
from tournaments.models import (
    Event,
    Round,
)
from tournaments.selectors import rounds as selectors
from tournaments.services import audit, push, round_clock, webhooks
from tournaments.services.audit import Actor
from tournaments.services.results import round_results_complete
from tournaments.services.round_edits import lock_round, require_draft

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
    follow_versions.bump_event(rnd.event)  # "my table" pages show the round's status
    return rnd


@transaction.atomic
def publish_round(*, round: Round, actor: Actor) -> Round:
    """Publish a draft: its pairings become public (where the event shows pairings).

    Refused while the pairing checker finds violations (edits made with a reason are overrides,
    not violations).
    """
    rnd = lock_round(round)
    require_draft(rnd)
    problems = [v for v in selectors.check_round_record(rnd) if v.is_violation]
    if problems:
        raise Conflict(
            ngettext(
                "Round %(number)s has %(len)s problem: fix it, or edit with a reason.",
                "Round %(number)s has %(len)s problems: fix them, or edit with a reason.",
                len(problems),
            )
            % {"number": rnd.number, "len": len(problems)},
            code="round_has_violations",
            details={"violations": [str(v) for v in problems]},
        )
    _move_round(rnd, Round.Status.PUBLISHED, actor=actor, stamp="published_at")
    _mark_running(rnd, actor)
    webhooks.round_published(rnd)  # queued for the event's endpoints, sent after commit
    push.announce_round(rnd)  # the subscribed players' phones get their tables (after commit)
    return rnd


def _mark_running(rnd: Round, actor: Actor) -> None:
    """The first published round moves an event whose registration is open to "Running" (the
    desk, the lists and the API say so while rounds are played; audited as a settings change,
    as the settings' status would be). A draft event stays a draft: its status also keeps it
    off the public pages."""
    event = Event.objects.select_for_update().get(pk=rnd.event_id)
    if event.status != Event.Status.REGISTRATION:
        return
    event.status = Event.Status.RUNNING
    event.save(update_fields=["status"])
    rnd.event = event
    audit.record(
        event=event,
        actor=actor,
        action="event.update",
        obj=event,
        before={"status": Event.Status.REGISTRATION},
        after={"status": event.status},
        reason=gettext("Round %(n)s is published: the event is running.") % {"n": rnd.number},
    )


@transaction.atomic
def start_round(*, round: Round, actor: Actor) -> Round:
    """Mark a published round as in play and start its clock (``services/round_clock.py``;
    a round with no time limit is in play without one)."""
    rnd = lock_round(round)
    if rnd.status != Round.Status.PUBLISHED:
        raise Conflict(
            gettext("Round %(number)s is %(lower)s: only a published round can start.")
            % {"number": rnd.number, "lower": rnd.get_status_display().lower()},
            code="round_not_published",
            details={"round": rnd.number, "status": rnd.status},
        )
    _move_round(rnd, Round.Status.IN_PLAY, actor=actor)
    if round_clock.round_limit_minutes(rnd) is not None and rnd.clock_started_at is None:
        round_clock.start_clock_locked(rnd, actor=actor, now=timezone.now())
    return rnd


def ensure_round_can_close(rnd: Round) -> None:
    """Refuse to close a round while a match has no confirmed result.

    The director settles a missing result first (an arbitral result, with a reason, from the
    round's results page), so the standings never silently count a missing game as nothing.
    """
    if not round_results_complete(rnd):
        raise Conflict(
            gettext(
                "Round %(number)s still has matches without a confirmed result: confirm them or "
                "enter an arbitral result for each before closing."
            )
            % {"number": rnd.number},
            code="results_missing",
        )


@transaction.atomic
def close_round(*, round: Round, actor: Actor) -> Round:
    """Close a published or in-play round (the next round may then be generated)."""
    rnd = lock_round(round)
    if rnd.status not in (Round.Status.PUBLISHED, Round.Status.IN_PLAY):
        raise Conflict(
            gettext("Round %(number)s is %(lower)s: only a published round can close.")
            % {"number": rnd.number, "lower": rnd.get_status_display().lower()},
            code="round_not_published",
            details={"round": rnd.number, "status": rnd.status},
        )
    ensure_round_can_close(rnd)
    return _move_round(rnd, Round.Status.CLOSED, actor=actor, stamp="closed_at")
