"""The director records forfeits: a forfeit by one side, a double forfeit, and a no-show.

Each is a result version (``services.results.write_result``, source ``forfeit``, the result's
``forfeit`` saying who forfeited), needs a reason and is audited (``result.forfeit``); a no-show
also withdraws the absent entry from later rounds (``services.entries.withdraw_entry``) and is
audited as ``entry.no_show`` (the mark the pages read: ``selectors.forfeits``). The standings
are recomputed as after any result, and count a forfeit as the event's settings say (the
standings package decides: ``PointsConfig``'s forfeit points and ``forfeit_spread``).

Scores: the side that turned up wins by the event's forfeit score to 0 (``Event.forfeit_score``,
raw; empty: the match's target, the event's or a play-off stage's own); a double forfeit is 0-0
with no winner, and is refused in a play-off bracket, where a match must send someone through.

Like the director's other results (``services.decisions``): never on a draft round; over a
confirmed result it is a correction (a new version, the old one kept) and needs the version
being changed (``expected_version``, If-Match); a closed round takes corrections only.

Error codes: ``reason_required``, ``match_is_bye``, ``invalid_side``, ``round_not_published``,
``round_not_open`` (a closed round without a result), ``version_required`` / ``stale_version``,
``bracket_needs_winner`` (a double forfeit in the play-off).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from tournaments.errors import NotAllowed, ValidationFailed
from tournaments.models import Claim, Entry, Match, MatchResult, Round
from tournaments.results_math import to_halves
from tournaments.selectors.forfeits import FORFEIT_ACTION, NO_SHOW_ACTION, forfeit_score
from tournaments.services import audit
from tournaments.services.assessment import Assessment
from tournaments.services.audit import Actor
from tournaments.services.entries import withdraw_entry
from tournaments.services.results import (
    check_not_bye,
    check_not_draft,
    check_result_version,
    check_side,
    check_two_sides,
    current_result,
    lock_match,
    require_reason,
    write_result,
)

SIDE_FORFEITS = (MatchResult.Forfeit.A, MatchResult.Forfeit.B)
"""Who forfeited, by side: side 0 (A) and side 1 (B)."""


def _assessment(score_a: int, score_b: int, winner_side: int | None) -> Assessment:
    """A forfeit's result as the results writer takes it: scores only, no sheet, unverified."""
    return Assessment(
        kind=Claim.Kind.FINAL_SCORE,
        sheet=None,
        digest="",
        verdict=None,
        verified=False,
        complete=True,
        score_a_halves=to_halves(score_a),
        score_b_halves=to_halves(score_b),
        winner_side=winner_side,
        finished=True,
    )


def _locked_for_forfeit(match: Match, expected_version: int | None) -> Match:
    """The match locked, its round open to a director's result, the version checked."""
    locked = lock_match(match)
    check_not_draft(locked.round)
    current = current_result(locked)
    if current is None and locked.round.status == Round.Status.CLOSED:  # pragma: no cover
        raise NotAllowed(  # a closed round has every result: this only guards a bad row
            gettext("This round is closed: only a correction of a result is possible."),
            code="round_not_open",
            details={"round_status": locked.round.status},
        )
    check_result_version(current, expected_version)
    return locked


def _write(locked: Match, *, forfeit: str, reason: str, actor: Actor) -> MatchResult:
    event = locked.round.event
    score = forfeit_score(event, locked)
    if forfeit == MatchResult.Forfeit.BOTH:
        found = _assessment(0, 0, None)
    elif forfeit == MatchResult.Forfeit.A:
        found = _assessment(0, score, 1)
    else:
        found = _assessment(score, 0, 0)
    return write_result(
        locked,
        source=MatchResult.Source.FORFEIT,
        claim=None,
        found=found,
        reason=reason,
        actor=actor,
        action=FORFEIT_ACTION,
        forfeit=forfeit,
    )


@transaction.atomic
def record_forfeit(
    *, match: Match, side: int, reason: str, actor: Actor, expected_version: int | None = None
) -> MatchResult:
    """Side ``side`` (0: A, 1: B) forfeits: the other side wins by the forfeit score to 0.

    Over a confirmed result it is a correction: ``expected_version`` is that result's version.
    """
    reason = require_reason(reason)
    check_two_sides(match)
    check_side(match, side)
    locked = _locked_for_forfeit(match, expected_version)
    return _write(locked, forfeit=SIDE_FORFEITS[side], reason=reason, actor=actor)


@transaction.atomic
def record_double_forfeit(
    *, match: Match, reason: str, actor: Actor, expected_version: int | None = None
) -> MatchResult:
    """Both sides forfeit: 0-0, nobody wins (each gets the event's double-forfeit points).

    Refused in a play-off bracket (``bracket_needs_winner``): someone must go through.
    """
    reason = require_reason(reason)
    check_not_bye(match)
    check_two_sides(match)
    if match.bracket_slot or match.round.kind == Round.Kind.PLAYOFF:
        raise ValidationFailed(
            gettext(
                "A play-off match needs a winner: record a forfeit by one side (or a no-show) "
                "instead of a double forfeit."
            ),
            code="bracket_needs_winner",
            details={"forfeit": "both"},
        )
    locked = _locked_for_forfeit(match, expected_version)
    return _write(locked, forfeit=MatchResult.Forfeit.BOTH, reason=reason, actor=actor)


@transaction.atomic
def record_no_show(
    *, match: Match, side: int, reason: str, actor: Actor, expected_version: int | None = None
) -> MatchResult:
    """Side ``side`` did not show up: a forfeit by that side, and its entry withdrawn from later
    rounds (already withdrawn: left so). Audited as ``result.forfeit``, ``entry.withdraw`` and
    ``entry.no_show`` (which marks the result as a no-show on every page)."""
    reason = require_reason(reason)
    check_two_sides(match)
    check_side(match, side)
    locked = _locked_for_forfeit(match, expected_version)
    result = _write(locked, forfeit=SIDE_FORFEITS[side], reason=reason, actor=actor)
    absent = locked.entry_a if side == 0 else locked.entry_b
    assert absent is not None  # check_side refused a bye
    user = actor if isinstance(actor, User) else None
    was_withdrawn = Entry.objects.filter(pk=absent.pk, status=Entry.Status.WITHDRAWN).exists()
    if not was_withdrawn:
        withdraw_entry(actor=user, entry=absent, reason=f"No-show: {reason}")
    audit.record(
        event=locked.round.event,
        actor=actor,
        action=NO_SHOW_ACTION,
        obj=absent,
        after={
            "name": absent.name,
            "match": locked.pk,
            "round": locked.round.number,
            "result": result.pk,
            "withdrawn": True,
            "already_withdrawn": was_withdrawn,
        },
        reason=reason,
    )
    return result
