"""Claims from the tables: a side submits its account of a match, or confirms the other side's.

The engine verifies a sheet on arrival; an invalid or unfinished sheet, or one for another game
(``sheet_mismatch``), is stored as a ``draft`` with its verdict, and a draft never confirms
anything. When both sides' current claims are submitted and equal (the same canonical sheet), the
result is confirmed (``services.results``); when they differ the match is in conflict and the
director sees where they diverge (``tournaments.results_math.divergence``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from tournaments.errors import Conflict, SpinnerError, ValidationFailed
from tournaments.models import Claim, Match, MatchResult
from tournaments.results_math import state_of, table_agreement
from tournaments.services import audit
from tournaments.services.assessment import (
    Assessment,
    SheetMismatch,
    assess,
    assess_mismatch,
)
from tournaments.services.results import (
    AlreadyConfirmed,
    StaleVersion,
    check_not_finished,
    check_open,
    check_side,
    check_version,
    current_claims,
    current_result,
    lock_match,
    write_result,
)
from tournaments.services.table_links import side_actor

# Bounded storage per table: claims are kept for good (the database refuses their deletion), so a
# side stores at most this many drafts (invalid or unfinished sheets) and this many versions in
# all per match. A real table sends a handful; beyond the cap the new version is refused
# (``claim_limit_reached``) and nothing already stored is lost: the phone keeps its own copy, a
# finished sheet is still taken until the versions' cap, and the director can always decide.
MAX_DRAFTS_PER_SIDE = 20
MAX_VERSIONS_PER_SIDE = 40


class ClaimLimitReached(Conflict):
    code = "claim_limit_reached"


class SameDevice(Conflict):
    """A confirmation from the phone that sent the claim, where the event requires another."""

    code = "same_device"


def clean_device(value: Any) -> str:
    """A phone's device id as stored: up to 64 letters, digits and hyphens, else ""."""
    text = value if isinstance(value, str) else ""
    text = text.strip()[:64]
    return text if text and all(c.isalnum() or c == "-" for c in text) and text.isascii() else ""


@dataclass(frozen=True)
class ClaimOutcome:
    """What a submission did: the side's current claim, whether a new version was stored, the
    match's state after it and its current result (if any)."""

    claim: Claim
    created: bool
    state: str
    result: MatchResult | None
    # Set when the claim was kept only as a draft because the sheet is for another game: the
    # caller reports this error (``sheet_mismatch``) while the draft stays stored.
    refusal: SpinnerError | None = None
    # The match as read under its lock (round, event, entries, table) and each side's current
    # claim after the submission: the answer shows the match from them, without reading it again.
    match: Match | None = None
    claims: list[Claim | None] | None = None


@transaction.atomic
def submit_claim(
    *,
    match: Match,
    side: int,
    sheet: Any = None,
    final_score: Any = None,
    expected_version: int | None = None,
    device: str = "",
) -> ClaimOutcome:
    """Store a side's claim (a new version) and confirm the match if both sides now agree.
    ``device``: the sending phone's device id (``clean_device``), kept with the claim.

    Claims are the tables' (their link; ``manage.py demo`` plays tables the same way): no
    director submits or confirms one, since two equal claims make an ``agreed`` result with no
    reason and no actor. A director decides with ``resolve_conflict``, ``override_result`` or
    ``correct_result``, which take a reason and record who.

    ``expected_version``: None for the side's first claim, else the version being changed (a
    different one raises ``stale_version``; none at all when a claim exists, ``version_required``).
    A submission equal to the side's current claim stores nothing and returns it (a safe retry).
    Raises ``event_finished`` (a finished event takes no claim), ``final_score_not_allowed``,
    ``round_not_open`` (the round is not published or in
    play), ``already_confirmed`` (the director corrects a confirmed result), ``sheet_too_large``,
    ``claim_limit_reached`` (``MAX_DRAFTS_PER_SIDE``, ``MAX_VERSIONS_PER_SIDE``).
    An invalid or unfinished sheet is stored as a draft with its verdict. So is a sheet for
    another game (``sheet_mismatch``): its draft's verdict is the mismatch, field by field, and
    the outcome's ``refusal`` carries the error for the caller to report. A draft never
    confirms a result.
    """
    check_side(match, side)
    check_not_finished(match.round)  # before the engine's work (checked again under the lock)
    # Verify before taking the match's lock: the engine's work never holds up the other side.
    refusal: SheetMismatch | None = None
    try:
        found = assess(match.round.event, sheet=sheet, final_score=final_score, match=match)
    except SheetMismatch as exc:  # kept as a draft with the mismatch as its verdict
        refusal = exc
        found = assess_mismatch(sheet, exc)
    locked = lock_match(match)
    check_open(locked.round)
    claims = current_claims(locked)
    current = claims[side]
    result = current_result(locked)
    if current is not None and current.digest == found.digest and _same_status(current, found):
        state = state_of(locked, claims, result)
        return ClaimOutcome(current, False, state, result, refusal, locked, claims)
    if result is not None:
        raise AlreadyConfirmed(
            "This match's result is confirmed; ask the director for a correction.",
            details={"result_version": result.version},
        )
    check_version(current, expected_version)
    check_claim_room(locked, side, current, draft=not found.complete)
    claim = _store_claim(locked, side, found, current, device=clean_device(device))
    _audit_claim(locked, claim, "claim.submit")
    claims[side] = claim
    result = _confirm_if_agreed(locked, claims, side)
    return ClaimOutcome(
        claim, True, state_of(locked, claims, result), result, refusal, locked, claims
    )


def check_claim_room(match: Match, side: int, current: Claim | None, *, draft: bool) -> None:
    """Refuse a side's new version beyond ``MAX_VERSIONS_PER_SIDE``, or a new draft beyond
    ``MAX_DRAFTS_PER_SIDE`` (``claim_limit_reached``). Called under the match's lock."""
    if current is None:
        return
    if current.version >= MAX_VERSIONS_PER_SIDE:
        raise ClaimLimitReached(
            f"This side has sent {current.version} versions of its result: ask the director, "
            "who can enter it. Nothing you sent before is lost.",
            details={"limit": MAX_VERSIONS_PER_SIDE, "of": "versions"},
        )
    if draft:
        drafts = Claim.objects.filter(match=match, side=side, status=Claim.Status.DRAFT).count()
        if drafts >= MAX_DRAFTS_PER_SIDE:
            raise ClaimLimitReached(
                f"This side has {drafts} unfinished sheets stored: finish the sheet and send "
                "it, or ask the director. Your sheet is still on your phone.",
                details={"limit": MAX_DRAFTS_PER_SIDE, "of": "drafts"},
            )


def _same_status(claim: Claim, found: Assessment) -> bool:
    wanted = Claim.Status.SUBMITTED if found.complete else Claim.Status.DRAFT
    return claim.status == wanted


def _store_claim(
    match: Match,
    side: int,
    found: Assessment,
    current: Claim | None,
    *,
    confirms: Claim | None = None,
    device: str = "",
    same_device: bool = False,
) -> Claim:
    version = 1 if current is None else current.version + 1
    try:
        with transaction.atomic():
            return Claim.objects.create(
                match=match,
                side=side,
                version=version,
                kind=found.kind,
                status=Claim.Status.SUBMITTED if found.complete else Claim.Status.DRAFT,
                sheet=found.sheet,
                digest=found.digest,
                verdict=found.verdict,
                verified=found.verified,
                score_a_halves=found.score_a_halves,
                score_b_halves=found.score_b_halves,
                winner_side=found.winner_side,
                scores_halves=list(found.scores_halves) if found.scores_halves else None,
                finished=found.finished,
                confirms=confirms,
                origin=Claim.Origin.TABLE,
                actor=None,
                device=device,
                same_device=same_device,
            )
    except IntegrityError as exc:  # a concurrent writer took this version (the lock prevents it)
        raise StaleVersion(
            "This claim changed while you were sending yours: reload it.",
            details={"given_version": version - 1},
        ) from exc


def _audit_claim(match: Match, claim: Claim, action: str) -> None:
    """The audit entry of a side's act through its link, naming the side that acted."""
    audit.record(
        event=match.round.event,
        actor=None,
        action=action,
        obj=claim,
        after={
            "match": match.pk,
            "side": claim.side,
            "version": claim.version,
            "status": claim.status,
            "confirms": claim.confirms_id,
        },
        actor_label=side_actor(match, claim.side),
    )


def _confirm_if_agreed(
    match: Match, claims: list[Claim | None], acting_side: int
) -> MatchResult | None:
    if match.table_entries > 2:  # a table of many: every other seat, or most, as the event says
        return _confirm_table_if_agreed(match, claims, acting_side)
    a, b = claims
    if (
        a is None
        or b is None
        or a.status != Claim.Status.SUBMITTED
        or b.status != Claim.Status.SUBMITTED
        or a.digest != b.digest
    ):
        return None
    return write_result(
        match,
        source=MatchResult.Source.AGREED,
        claim=b if b.created_at >= a.created_at else a,
        found=None,
        reason="",
        actor=None,
        action="result.confirm",
        actor_label=side_actor(match, acting_side),
        current=None,  # both callers read it under the lock and stopped at a confirmed one
    )


def _confirm_table_if_agreed(
    match: Match, claims: list[Claim | None], acting_side: int
) -> MatchResult | None:
    """A table of many's result, once enough seats hold the same claim
    (``results_math.table_agreement`` with the event's ``table_confirmation``): the latest of
    them becomes the result."""
    agreed = table_agreement(claims, match.round.event.table_confirmation)
    if agreed is None:
        return None
    return write_result(
        match,
        source=MatchResult.Source.AGREED,
        claim=max(agreed, key=lambda c: (c.created_at, c.pk)),
        found=None,
        reason="",
        actor=None,
        action="result.confirm",
        actor_label=side_actor(match, acting_side),
    )


def _claim_to_confirm(
    match: Match, claims: list[Claim | None], side: int, of_side: int | None
) -> int:
    """Whose claim ``side`` confirms: the other side's in a match of two; at a table of many
    ``of_side`` (another seat), or, when not given, the one other seat's submitted claim when
    every submitted claim of the others is the same sheet."""
    if match.table_entries <= 2:
        return 1 - side
    if of_side is not None:
        check_side(match, of_side)
        if of_side == side:
            raise ValidationFailed(
                gettext("Confirm another player's claim, not your own."), code="invalid_side"
            )
        return of_side
    others = [
        c for c in claims if c is not None and c.side != side and c.status == Claim.Status.SUBMITTED
    ]
    if len({c.digest for c in others}) > 1:
        raise ValidationFailed(
            gettext("The other players sent different results: say whose you confirm."),
            code="confirm_whose",
            details={"sides": [c.side for c in others]},
        )
    # none submitted: the check below says so; several alike: the earliest stands for them all
    return (
        min(others, key=lambda c: (c.created_at, c.pk)).side if others else (side + 1) % len(claims)
    )


@transaction.atomic
def confirm_claim(
    *,
    match: Match,
    side: int,
    expected_version: int,
    of_side: int | None = None,
    device: str = "",
) -> ClaimOutcome:
    """The other side confirms side ``1 - side``'s current claim as it stands (a table's act,
    like ``submit_claim``).

    ``device``: the confirming phone's device id. The same device as the claim's is refused
    when the event requires another (``same_device``), else taken and marked ``same_device``
    (the phone asked "Are you the other team?" first; the desk shows it).

    ``expected_version`` is the version of the claim being confirmed (what the confirming side was
    shown): if it has changed since, ``stale_version`` and nothing is stored. Stores the same
    sheet (or final score) as a claim of ``side`` and so confirms the result. Confirming again
    what is already confirmed returns it.

    At a table of many, ``of_side`` is the seat whose claim is confirmed (when not given: the
    other seats' claim when they all sent the same, else ``confirm_whose``); the result is
    confirmed once enough seats hold it (``Event.table_confirmation``).
    """
    check_side(match, side)
    locked = lock_match(match)
    check_open(locked.round)
    claims = current_claims(locked)
    other, mine = claims[_claim_to_confirm(locked, claims, side, of_side)], claims[side]
    result = current_result(locked)
    if other is None or other.status != Claim.Status.SUBMITTED:
        raise ValidationFailed(
            gettext("The other side has not submitted a result to confirm yet."),
            code="nothing_to_confirm",
        )
    if other.version != expected_version:
        raise StaleVersion(
            f"The other side's claim has changed (now version {other.version}): look at it again.",
            details={"current_version": other.version, "given_version": expected_version},
        )
    if mine is not None and mine.digest == other.digest and mine.status == other.status:
        state = state_of(locked, claims, result)
        return ClaimOutcome(mine, False, state, result, match=locked, claims=claims)
    if result is not None:
        raise AlreadyConfirmed(
            "This match's result is confirmed; ask the director for a correction.",
            details={"result_version": result.version},
        )
    found = Assessment(
        kind=other.kind,
        sheet=other.sheet,
        digest=other.digest,
        verdict=other.verdict,
        verified=other.verified,
        complete=True,
        score_a_halves=other.score_a_halves,
        score_b_halves=other.score_b_halves,
        winner_side=other.winner_side,
        finished=other.finished,
        scores_halves=tuple(other.scores_halves) if other.scores_halves else None,
    )
    check_claim_room(locked, side, mine, draft=False)
    device = clean_device(device)
    same = bool(device) and device == other.device
    if same and locked.round.event.require_other_device:
        raise SameDevice(
            gettext(
                "This phone sent this result: the event asks for it to be confirmed on the "
                "other team's own phone (its own link)."
            ),
        )
    claim = _store_claim(locked, side, found, mine, confirms=other, device=device, same_device=same)
    _audit_claim(locked, claim, "claim.confirm")
    claims[side] = claim
    result = _confirm_if_agreed(locked, claims, side)
    state = state_of(locked, claims, result)
    return ClaimOutcome(claim, True, state, result, match=locked, claims=claims)
