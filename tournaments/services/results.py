"""Confirmed results: the one writer of ``MatchResult`` versions, the match lock, the version
checks shared by claims and decisions, and the standings' dirty mark.

Vocabulary:
    claim     one side's account of a match, versioned per side; never overwritten
    side      0 is the match's ``entry_a``, 1 ``entry_b``; at a table of many (``table_entries``
              3 or 4) the seat, 0 to 3, whose scores and placings the result keeps per seat
    result    the confirmed outcome of a match (``MatchResult``), versioned; one current per match
    state     ``missing``, ``pending``, ``conflict``, ``confirmed`` or ``bye``
              (``tournaments.results_math.state_of``)

A play-off game's result also keeps its best-of series consistent (``services.series``: the next
game, or a refusal) and, once the bracket match is decided, asks for the play-off to advance
(``services.playoff_rounds``, through a task after commit).

The flow: tables submit claims (``services.claims``); equal claims confirm the match; the
director resolves, overrides or corrects (``services.decisions``). Every change to a confirmed
result goes through :func:`write_result`, which marks the event's standings dirty in the same
transaction and asks for a recompute once it commits (a broker outage never fails it).

Concurrency: every write locks the match row first (``SELECT ... FOR UPDATE OF`` the match alone,
never its round or event, so tables do not queue behind one another), so the decisions for one
match are serialized; the unique constraints on (match, side, version) and on the current
result are the database's backstop, and their ``IntegrityError`` becomes ``stale_version``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, ForeignKey, Model
from django.db.models.functions import Coalesce, Now
from django.utils.translation import gettext

from tournaments import follow_versions, metrics, shared_rows
from tournaments.errors import Conflict, NotAllowed, ValidationFailed
from tournaments.models import Claim, Event, Match, MatchResult, Round, RoundSeat, StandingsState
from tournaments.queueing import enqueue_after_commit
from tournaments.results_math import from_halves, table_placings
from tournaments.services import audit, ratings, series, webhooks
from tournaments.services.assessment import SIDES, Assessment
from tournaments.services.audit import Actor


class StaleVersion(Conflict):
    code = "stale_version"
    status = 412


class VersionRequired(Conflict):
    code = "version_required"
    status = 428


class AlreadyConfirmed(Conflict):
    code = "already_confirmed"
    status = 409


def current_claims(match: Match) -> list[Claim | None]:
    """Each side's latest claim (None where that side has none); at a table of many, each
    seat's (``match.table_entries`` of them)."""
    found: list[Claim | None] = [None] * max(2, match.table_entries)
    for claim in Claim.objects.filter(match=match).order_by("side", "-version"):
        if found[claim.side] is None:
            found[claim.side] = claim
    return found


def current_result(match: Match) -> MatchResult | None:
    # One current result per match (a constraint): ordered by its key, not by the model's default
    # ordering, which joins the match, round, event and table only to sort one row.
    return MatchResult.objects.filter(match=match, is_current=True).order_by("pk").first()


def lock_match(match: Match) -> Match:
    """The match, its round and event read, with the MATCH row alone locked (``of=self``).

    Locking the joined round and event rows too (a plain ``select_for_update`` with
    ``select_related``) queued every table's write in the event on the event row. The round is
    not locked either, on purpose: its status only moves forward (draft, published, in play,
    closed), a table's write checks it is open, and a round closes only when every match has a
    current result, which a write re-reads under the match lock (so a write racing the close
    finds the result and stores nothing: ``already_confirmed``). Nothing a write does depends
    on a round or event value that could change under it otherwise.

    The entries and the table are read in the same query (not locked either): the audit names
    the side that acted by them and the answer shows them, without a query of their own. When
    ``match`` already carries them (``_read_with_its_rows``: a table's match as its token read
    it), the match row alone is read: a row it no longer points at is read when first used.
    """
    if not _read_with_its_rows(match):
        return (
            Match.objects.select_for_update(of=("self",))
            .select_related("round__event", "entry_a", "entry_b", "table")
            .defer("round__explanation")  # how the round was paired: large, never read by a write
            .get(pk=match.pk)
        )
    # The caller read them a moment ago (a table's write: with its token): only the match row
    # is read again, under its lock, and given the rows it still points at.
    locked = Match.objects.select_for_update().get(pk=match.pk)
    for name in _MATCH_ROWS:
        row = getattr(match, name)
        if getattr(locked, f"{name}_id") == (row.pk if row is not None else None):
            setattr(locked, name, row)
    return locked


_MATCH_ROWS = ("round", "entry_a", "entry_b", "table")
"""What a write reads with its match (the round with its event): ``lock_match``."""


def _read_with_its_rows(match: Match) -> bool:
    """``match`` carries its round with the event, its entries and its table, already read."""
    if not all(_cached(Match, name, match) for name in _MATCH_ROWS):
        return False
    return match.round is not None and _cached(Round, "event", match.round)


def _cached(model: type[Model], name: str, row: Model) -> bool:
    """The relation ``name`` of ``row`` is read already (a select_related, an assignment)."""
    field = model._meta.get_field(name)
    return isinstance(field, ForeignKey) and field.is_cached(row)


def check_side(match: Match, side: int) -> None:
    """A side of the match: 0 or 1, or at a table of many a seat, 0 to ``table_entries - 1``
    (``invalid_side`` otherwise)."""
    if match.table_entries > 2:
        if isinstance(side, bool) or side not in range(match.table_entries):
            raise ValidationFailed(
                gettext("This table has %(seats)s players: the seat is 0 to %(last)s.")
                % {"seats": match.table_entries, "last": match.table_entries - 1},
                code="invalid_side",
                details={"side": side, "seats": match.table_entries},
            )
        check_not_bye(match)
        return
    if side not in SIDES:
        raise ValidationFailed(
            gettext("The side is 0 (first entry) or 1 (second)."), code="invalid_side"
        )
    check_not_bye(match)


def check_two_sides(match: Match) -> None:
    """Refuse what only a match of two sides has (a forfeit by side "a" or "b") at a table of
    many (``not_at_table_of_many``)."""
    if match.table_entries > 2:
        raise ValidationFailed(
            gettext(
                "This is a table of %(seats)s players: enter its result with every player's "
                "score instead."
            )
            % {"seats": match.table_entries},
            code="not_at_table_of_many",
        )


def check_not_bye(match: Match) -> None:
    if match.is_bye:
        raise ValidationFailed(gettext("A bye has no result to enter."), code="match_is_bye")


def check_not_finished(round_: Round) -> None:
    """A finished event takes no further result but a director's correction (which freezes its
    placings again): ``event_finished``."""
    if round_.event.status == Event.Status.FINISHED:
        raise NotAllowed(
            gettext(
                "This event is finished: its results are final. A director may still correct one."
            ),
            code="event_finished",
            details={"event": round_.event.slug},
        )


def check_open(round_: Round) -> None:
    check_not_finished(round_)
    if round_.status not in (Round.Status.PUBLISHED, Round.Status.IN_PLAY):
        raise NotAllowed(
            gettext("This round is not open for entry; ask the director."),
            code="round_not_open",
            details={"round_status": round_.status},
        )


def check_not_draft(round_: Round) -> None:
    """A director's result (resolve, override, correct) needs a published round: a draft's
    pairing is not public yet, may be swapped or discarded, and its results would reach the
    standings at once. Closed rounds stay correctable."""
    if round_.status == Round.Status.DRAFT:
        raise NotAllowed(
            gettext("This round is still a draft: publish it before entering results."),
            code="round_not_published",
            details={"round_status": round_.status},
        )


def check_expected_version(
    current: int | None, expected: int | None, *, missing: str, required: str, changed: str
) -> None:
    """If-Match for claims and results alike: ``current`` is the stored version (None while
    nothing is stored), ``expected`` the version the client says it changes."""
    if current is None:
        if expected not in (None, 0):
            raise StaleVersion(
                missing, details={"current_version": None, "given_version": expected}
            )
        return
    if expected is None:
        raise VersionRequired(required, details={"current_version": current})
    if expected != current:
        raise StaleVersion(changed, details={"current_version": current, "given_version": expected})


def check_version(current: Claim | None, expected_version: int | None) -> None:
    version = current.version if current is not None else None
    check_expected_version(
        version,
        expected_version,
        missing="This side has no claim yet: submit without a version.",
        required=f"This side already has claim version {version}: "
        "say which version you change (If-Match).",
        changed=f"This claim has changed (now version {version}): "
        "reload it and make your change again.",
    )


def require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed(
            gettext("Say why (the reason goes in the audit log)."),
            code="reason_required",
            details={"reason": "required"},
        )
    return reason


class Unread:
    """A value not read yet (``write_result``'s ``current``)."""


UNREAD = Unread()


def write_result(
    match: Match,
    *,
    source: str,
    claim: Claim | None,
    found: Assessment | None,
    reason: str,
    actor: Actor,
    action: str,
    actor_label: str = "",
    forfeit: str = "",
    current: MatchResult | Unread | None = UNREAD,
) -> MatchResult:
    """Make a new current result version (the previous one, if any, stops being current).

    Never on a draft round (``round_not_published``): every writer checks before, this is the
    last line. Nor, but for a correction, in a finished event (``event_finished``).
    ``actor_label`` names a side that acted through its table link (see ``audit.record``).
    ``forfeit`` (``MatchResult.Forfeit``: "a", "b" or "both") marks a result the director
    recorded as a forfeit (``services.forfeits``); empty for a played one. ``current``: the
    match's current result as the caller has just read it under the match's lock (else read
    here)."""
    check_not_draft(match.round)
    if source != MatchResult.Source.CORRECTION:
        check_not_finished(match.round)
    previous = current_result(match) if isinstance(current, Unread) else current
    if previous is not None:
        MatchResult.objects.filter(pk=previous.pk).update(is_current=False)
    origin: Claim | Assessment
    if found is not None:
        origin = found
    elif claim is not None:
        origin = claim
    else:  # pragma: no cover - callers give one of them
        raise ValueError("a result needs a claim or an assessment")
    assert origin.score_a_halves is not None and origin.score_b_halves is not None
    many = table_scores(match, origin)
    try:
        with transaction.atomic():
            result = MatchResult.objects.create(
                match=match,
                version=1 if previous is None else previous.version + 1,
                is_current=True,
                source=source,
                claim=claim,
                kind=origin.kind,
                sheet=origin.sheet,
                verdict=origin.verdict,
                verified=origin.verified,
                score_a_halves=origin.score_a_halves,
                score_b_halves=origin.score_b_halves,
                winner_side=origin.winner_side,
                scores_halves=many,
                placings=table_placings(many) if many is not None else None,
                forfeit=forfeit,
                reason=reason,
                actor=actor if isinstance(actor, User) else None,
            )
    except IntegrityError as exc:
        raise StaleVersion("The result changed meanwhile: reload it.") from exc
    audit.record(
        event=match.round.event,
        actor=actor,
        action=action,
        obj=result,
        before=None if previous is None else result_summary(previous),
        after=result_summary(result),
        reason=reason,
        actor_label=actor_label,
    )
    note_results_changed(event_id=match.round.event_id)
    metrics.count_result_after_commit(result.source)
    webhooks.result_confirmed(match, result)  # each version once, sent after commit
    # their "my table" pages
    follow_versions.bump_entries(seat_entry_ids(match) or [match.entry_a_id, match.entry_b_id])
    # a rated event's players are re-rated from this round on (coalesced, after commit)
    ratings.note_result_changed(
        event=match.round.event, round_number=match.round.number, match_id=match.pk
    )
    if series.after_result(match, result, previous):
        # a decided play-off match may let the bracket advance (the worker's job, idempotent)
        enqueue_after_commit(ADVANCE_PLAYOFF_TASK, match.round.event_id)
    return result


def table_scores(match: Match, origin: Claim | Assessment) -> list[int] | None:
    """At a table of many, every seat's score (half-points) of a claim or assessment: one per
    seat, or ``invalid_score`` (a result of a table of many needs them all). None for a match
    of two sides."""
    if match.table_entries <= 2:
        return None
    many = list(origin.scores_halves or [])
    if len(many) != match.table_entries:
        raise ValidationFailed(
            gettext("This table has %(seats)s players: its result needs every player's score.")
            % {"seats": match.table_entries},
            code="invalid_score",
            details={"seats": match.table_entries, "given": len(many)},
        )
    return many


def seat_entry_ids(match: Match) -> list[int]:
    """The entries at a table of many, seat order (empty for a match of two sides)."""
    if match.table_entries <= 2:
        return []
    return list(
        RoundSeat.objects.filter(match=match).order_by("side").values_list("entry_id", flat=True)
    )


ADVANCE_PLAYOFF_TASK = "tournaments.advance_playoff"
"""The task that advances a play-off once a bracket match is decided (``tasks.py``)."""


def result_summary(result: MatchResult) -> dict[str, Any]:
    """A small JSON picture of a result version (for the audit log and the API); ``forfeit``
    only for a forfeit (who forfeited: "a", "b" or "both")."""
    summary: dict[str, Any] = {
        "match": result.match_id,
        "version": result.version,
        "source": result.source,
        "kind": result.kind,
        "scores": [from_halves(result.score_a_halves), from_halves(result.score_b_halves)],
        "winner_side": result.winner_side,
        "verified": result.verified,
        "claim": result.claim_id,
    }
    if result.scores_halves is not None:  # a table of many: every seat's score and place
        summary["scores"] = [from_halves(h) for h in result.scores_halves]
        summary["placings"] = result.placings
    if result.forfeit:
        summary["forfeit"] = result.forfeit
    return summary


def check_result_version(current: MatchResult | None, expected_version: int | None) -> None:
    version = current.version if current is not None else None
    check_expected_version(
        version,
        expected_version,
        missing="This match has no confirmed result yet.",
        required=f"This match has result version {version}: say which version you change.",
        changed=f"The result has changed (now version {version}): reload it.",
    )


def note_results_changed(*, event_id: int) -> None:
    """In the caller's transaction: bump the event's results generation, mark standings dirty,
    and ask for a recompute once the transaction commits (never failing the caller). The
    event's one state row is written last in a table's transaction (``shared_rows``)."""
    shared_rows.last(lambda: _bump_standings_state(event_id))


def _bump_standings_state(event_id: int) -> None:
    bump = {
        "results_generation": F("results_generation") + 1,
        "dirty": True,
        "dirty_since": Coalesce(F("dirty_since"), Now()),
    }
    if not StandingsState.objects.filter(pk=event_id).update(**bump):  # the event's first
        StandingsState.objects.get_or_create(event_id=event_id)
        StandingsState.objects.filter(pk=event_id).update(**bump)
    enqueue_after_commit("tournaments.request_standings_recompute", event_id)


def round_results_complete(round_: Round) -> bool:
    """True when every match of the round with a table (byes aside) has a confirmed result.

    For the round-close action: one query.
    """
    return not (
        Match.objects.filter(round=round_, is_bye=False).exclude(results__is_current=True).exists()
    )
