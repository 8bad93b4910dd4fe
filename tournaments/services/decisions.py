"""The director's decisions on a match's result: resolve a conflict by picking a side's claim,
enter an arbitral result, or correct a confirmed one. Each needs a reason, makes a new result
version (``services.results``) and is recorded in the audit log.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from tournaments.errors import ValidationFailed
from tournaments.models import Claim, Event, Match, MatchResult
from tournaments.services.assessment import Assessment, assess
from tournaments.services.audit import Actor
from tournaments.services.finish import refreeze_placings
from tournaments.services.results import (
    AlreadyConfirmed,
    check_not_bye,
    check_not_draft,
    check_not_finished,
    check_result_version,
    check_side,
    current_claims,
    current_result,
    lock_match,
    require_reason,
    write_result,
)


@transaction.atomic
def resolve_conflict(*, match: Match, side: int, reason: str, actor: Actor) -> MatchResult:
    """The director settles an unconfirmed match with side ``side``'s current submitted claim.

    Meant for a conflict, and allowed for a match only one side has submitted (the other left).
    Raises ``round_not_published`` on a draft round, ``already_confirmed`` when a result exists
    (correct it instead), ``nothing_to_confirm`` when that side has no submitted claim.
    """
    reason = require_reason(reason)
    check_side(match, side)
    locked = lock_match(match)
    check_not_draft(locked.round)
    check_not_finished(locked.round)
    if current_result(locked) is not None:
        raise AlreadyConfirmed("This match already has a confirmed result; correct it instead.")
    claim = current_claims(locked)[side]
    if claim is None or claim.status != Claim.Status.SUBMITTED:
        raise ValidationFailed(
            gettext("That side has no submitted claim to accept."), code="nothing_to_confirm"
        )
    return write_result(
        locked,
        source=MatchResult.Source.RESOLVED,
        claim=claim,
        found=None,
        reason=reason,
        actor=actor,
        action="result.resolve",
    )


def _director_assessment(
    event: Event, *, sheet: Any, final_score: Any, match: Match | None = None
) -> Assessment:
    found = assess(event, sheet=sheet, final_score=final_score, allow_final=True, match=match)
    if not found.complete:
        raise ValidationFailed(
            gettext(
                "The engine does not accept this sheet as a finished match: fix it, or enter a "
                "final score."
            ),
            code="invalid_sheet",
            details={"verdict": found.verdict},
        )
    return found


@transaction.atomic
def override_result(
    *,
    match: Match,
    reason: str,
    actor: Actor,
    sheet: Any = None,
    final_score: Any = None,
    expected_version: int | None = None,
) -> MatchResult:
    """The director enters an arbitral result (a valid finished sheet, or a final score).

    Over an unconfirmed match (missing, pending or in conflict) it becomes version 1; over a
    confirmed one it is a new version, and ``expected_version`` (the current result's version)
    is then required. Final scores are allowed to the director even where tables may not use them.
    """
    reason = require_reason(reason)
    check_not_bye(match)
    found = _director_assessment(
        match.round.event, sheet=sheet, final_score=final_score, match=match
    )
    locked = lock_match(match)
    check_not_draft(locked.round)
    check_not_finished(locked.round)
    check_result_version(current_result(locked), expected_version)
    return write_result(
        locked,
        source=MatchResult.Source.ARBITRAL,
        claim=None,
        found=found,
        reason=reason,
        actor=actor,
        action="result.override",
    )


@transaction.atomic
def correct_result(
    *,
    match: Match,
    reason: str,
    actor: Actor,
    expected_version: int,
    sheet: Any = None,
    final_score: Any = None,
) -> MatchResult:
    """The director corrects a confirmed result: a new version, the old one kept.

    ``expected_version`` is the version being corrected (``stale_version`` if another came since).
    Raises ``not_confirmed`` when the match has no confirmed result. In a finished event it is
    the one result still taken: the placings are frozen again (``services.finish``).
    """
    reason = require_reason(reason)
    check_not_bye(match)
    found = _director_assessment(
        match.round.event, sheet=sheet, final_score=final_score, match=match
    )
    locked = lock_match(match)
    check_not_draft(locked.round)
    current = current_result(locked)
    if current is None:
        raise ValidationFailed(
            gettext("This match has no confirmed result to correct."), code="not_confirmed"
        )
    check_result_version(current, expected_version)
    result = write_result(
        locked,
        source=MatchResult.Source.CORRECTION,
        claim=None,
        found=found,
        reason=reason,
        actor=actor,
        action="result.correct",
    )
    if locked.round.event.status == Event.Status.FINISHED:
        refreeze_placings(event=locked.round.event, actor=actor, reason=reason)
    return result
