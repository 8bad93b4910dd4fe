"""Results: claims from the tables, confirmation, conflicts, the director's decisions.

Vocabulary:
    claim     one side's account of a match (a ``fives-scoresheet/1`` sheet, or where the event
              allows it a final score only, unverified), versioned per side; never overwritten
    side      0 is the match's ``entry_a`` (seats 0 and 2, or seat 0 head to head), 1 ``entry_b``
    result    the confirmed outcome of a match (``MatchResult``), versioned; one current per match
    state     of a match: ``missing`` (no side has submitted), ``pending`` (one side has),
              ``conflict`` (both have, and they differ), ``confirmed`` (a current result exists),
              ``bye``

The flow: a side submits (``submit_claim``); the engine verifies the sheet on arrival; an invalid
or unfinished sheet, or one for another game (``sheet_mismatch``), is stored as a ``draft`` with
its verdict, and a draft never confirms anything. When both sides' current claims are
submitted and equal (the same canonical sheet), the result is confirmed; when they differ the match
is in conflict and the director sees where they diverge (``divergence``). The other side may also
confirm the first claim as it stands (``confirm_claim``). The director resolves a conflict by
picking a side's claim (``resolve_conflict``), enters an arbitral result (``override_result``) or
corrects a confirmed one (``correct_result``): each needs a reason, makes a new result version and
is recorded in the audit log. Every change to a confirmed result marks the event's standings dirty
in the same transaction and asks for a recompute once it commits (a broker outage never fails it).

Concurrency: every write locks the match row first (``SELECT ... FOR UPDATE OF`` the match alone,
never its round or event, so tables do not queue behind one another), so the decisions for one
match are serialized; the unique constraints on (match, side, version) and on the current
result are the database's backstop, and their ``IntegrityError`` becomes ``stale_version``.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Coalesce, Now

from tournaments.errors import Conflict, NotAllowed, SpinnerError, ValidationFailed
from tournaments.models import Claim, Event, Match, MatchResult, Round, StandingsState
from tournaments.services import audit

FORMAT = "fives-scoresheet/1"
SIDES = (0, 1)
MAX_SHEET_DEPTH = 24  # a scoresheet is about six levels deep
MAX_SHEET_NODES = 50_000
MAX_HALVES = 200_000  # |score| <= 100000 raw points: far beyond any game, inside the columns
# Raw targets and deal sizes per rule set when the event leaves them to the rule set
# (rules.md's table: five-up 305 and 5 tiles; all-fives 250 with two players, else 200, and
# 9/7/5 tiles; five-up-7 305 and 7 tiles).
DEFAULT_TARGET = {
    ("five-up", 2): 305,
    ("five-up", 4): 305,
    ("all-fives", 2): 250,
    ("all-fives", 4): 200,
    ("five-up-7", 2): 305,
    ("five-up-7", 4): 305,
}
DEFAULT_HAND_SIZE = {
    ("five-up", 2): 5,
    ("five-up", 4): 5,
    ("all-fives", 2): 9,
    ("all-fives", 4): 5,
    ("five-up-7", 2): 7,
    ("five-up-7", 4): 7,
}
_TILE = re.compile(r"^\[?\s*([0-6])\s*[-|]\s*([0-6])\s*\]?$")

Actor = User | AnonymousUser | None


class StaleVersion(Conflict):
    code = "stale_version"
    status = 412


class VersionRequired(Conflict):
    code = "version_required"
    status = 428


class AlreadyConfirmed(Conflict):
    code = "already_confirmed"
    status = 409


class SheetMismatch(ValidationFailed):
    """A sheet for another game than the event's; ``details["fields"]`` says which, field by
    field (``{"field", "expected", "given"}``)."""

    code = "sheet_mismatch"
    status = 400


# --- The engine ---------------------------------------------------------------------------


def engine_verify(sheet: Any) -> dict[str, Any]:
    """The engine's verdict on a sheet, as a JSON-safe dict (``scoring.verify(...).as_dict()``)."""
    import scoring

    verdict: dict[str, Any] = scoring.verify(sheet).as_dict()
    return verdict


def divergence(sheet_a: Any, sheet_b: Any) -> dict[str, int | None] | None:
    """Where two sheets first differ, ``{"hand", "move"}`` (``scoring.first_divergence``)."""
    import scoring

    found = scoring.first_divergence(sheet_a, sheet_b)
    if found is None:
        return None
    hand, move = found
    return {"hand": hand, "move": move}


# --- Sheets against the event -------------------------------------------------------------


def expected_game(event: Event) -> dict[str, Any]:
    """The game an event's sheets must describe: rules, players, partnerships, target, hand size.

    Partnership events play four at a table as two partnerships (also in ``five-up-7``, where the
    sheet must then say ``partnerships: true``); head-to-head events play two.
    """
    players = 4 if event.entry_kind == Event.EntryKind.PARTNERSHIP else 2
    key = (event.rules, players)
    return {
        "rules": event.rules,
        "players": players,
        "partnerships": players == 4,
        "target": event.target if event.target is not None else DEFAULT_TARGET[key],
        "hand_size": event.hand_size if event.hand_size is not None else DEFAULT_HAND_SIZE[key],
    }


def _default_partnerships(sheet: dict[str, Any]) -> bool:
    return sheet.get("players") == 4 and sheet.get("rules") in ("five-up", "all-fives")


def check_sheet_matches_event(event: Event, sheet: Any) -> None:
    """Refuse a sheet for another game than the event's (``sheet_mismatch``, field by field).

    Absent ``partnerships``, ``target`` and ``hand_size`` take the rule set's defaults, which must
    then be the event's. A ``time`` entry must carry the event's time policy.
    """
    if not isinstance(sheet, dict):
        raise ValidationFailed(
            "A scoresheet is a JSON object.", code="invalid", details={"sheet": "not an object"}
        )
    game = expected_game(event)
    rules, players = sheet.get("rules"), sheet.get("players")
    key = (str(rules), players if isinstance(players, int) else 0)
    given = {
        "rules": rules,
        "players": players,
        "partnerships": sheet.get("partnerships", _default_partnerships(sheet)),
        "target": sheet.get("target", DEFAULT_TARGET.get(key)),
        "hand_size": sheet.get("hand_size", DEFAULT_HAND_SIZE.get(key)),
    }
    fields = [
        {"field": name, "expected": game[name], "given": given[name]}
        for name in ("rules", "players", "partnerships", "target", "hand_size")
        if given[name] != game[name] or type(given[name]) is not type(game[name])
    ]
    time = sheet.get("time")
    if isinstance(time, dict) and time.get("policy") != event.time_policy:
        fields.append(
            {"field": "time.policy", "expected": event.time_policy, "given": time.get("policy")}
        )
    if fields:
        names = ", ".join(f["field"] for f in fields)
        raise SheetMismatch(
            f"This sheet is not for this event's game ({names}): "
            "set them as the event says and submit again.",
            details={"fields": fields},
        )


def check_sheet_tree(value: Any) -> None:
    """Refuse JSON no database can keep or no person meant: nested deeper than
    ``MAX_SHEET_DEPTH``, more than ``MAX_SHEET_NODES`` values, NUL characters, integers beyond
    10**9 (``sheet_too_large`` or ``sheet_malformed``). Iterative: safe on any depth, so the
    recursive steps after it (canonical form, JSON encoding) are safe too."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    nodes = 0
    while stack:
        item, depth = stack.pop()
        nodes += 1
        if depth > MAX_SHEET_DEPTH or nodes > MAX_SHEET_NODES:
            raise ValidationFailed(
                "This scoresheet is too deep or too large.",
                code="sheet_too_large",
                details={"max_depth": MAX_SHEET_DEPTH, "max_nodes": MAX_SHEET_NODES},
            )
        if isinstance(item, dict):
            for key, child in item.items():
                if "\x00" in str(key):
                    raise ValidationFailed(
                        "NUL characters are not allowed.", code="sheet_malformed"
                    )
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str) and "\x00" in item:
            raise ValidationFailed("NUL characters are not allowed.", code="sheet_malformed")
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > 10**9:
            raise ValidationFailed(
                "A number in this scoresheet is out of range.", code="sheet_malformed"
            )


def _normalize(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _normalize(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalize(v) for v in value]
    if isinstance(value, str):
        found = _TILE.match(value)
        if found:
            a, b = sorted((int(found.group(1)), int(found.group(2))))
            return f"{a}-{b}"
    return value


def canonical_sheet(event: Event, sheet: dict[str, Any]) -> dict[str, Any]:
    """The sheet in one spelling, so that two sides' accounts of one game compare equal.

    Tiles written ``a-b`` with ``a <= b``; the game fields filled in from the event; the claimed
    ``result`` and per-hand ``settlement`` left out (a valid sheet's are fixed by its plays, and
    the verdict gives the true figures).
    """
    canon: dict[str, Any] = _normalize(sheet)
    canon.pop("result", None)
    canon.update(expected_game(event))
    canon["format"] = FORMAT
    hands = canon.get("hands")
    if isinstance(hands, list):
        for hand in hands:
            if isinstance(hand, dict):
                hand.pop("settlement", None)
    return canon


def digest(value: Any) -> str:
    """sha256 of the value's canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def to_halves(score: Any) -> int:
    """A raw score (int, or a float or Decimal half) as an exact integer of half-points."""
    if isinstance(score, bool) or not isinstance(score, int | float | Decimal):
        raise ValidationFailed(
            "A score is a number.", code="invalid_score", details={"score": score}
        )
    doubled = Decimal(str(score)) * 2
    if not doubled.is_finite() or abs(doubled) > MAX_HALVES:
        raise ValidationFailed(
            "A score is a number of points between -100000 and 100000.",
            code="invalid_score",
            details={"score": str(score)},
        )
    if doubled != doubled.to_integral_value():
        raise ValidationFailed(
            "A score is a whole number of points, or a half.",
            code="invalid_score",
            details={"score": score},
        )
    return int(doubled)


def from_halves(halves: int | None) -> int | float | None:
    """Half-points back to a raw score: an int, or a float ending in .5."""
    if halves is None:
        return None
    return halves // 2 if halves % 2 == 0 else halves / 2


@dataclass(frozen=True)
class Assessment:
    """What the server makes of one submitted sheet or final score (nothing stored yet)."""

    kind: str
    sheet: dict[str, Any] | None
    digest: str
    verdict: dict[str, Any] | None
    verified: bool
    complete: bool  # valid and finished (a sheet), or a well-formed final score
    score_a_halves: int | None
    score_b_halves: int | None
    winner_side: int | None
    finished: bool


def assess_sheet(event: Event, sheet: Any) -> Assessment:
    """Check the sheet against the event, then have the engine verify it (a dry run).

    Raises ``sheet_too_large``/``sheet_malformed`` for JSON no one meant (``check_sheet_tree``),
    ``sheet_mismatch`` for another game than the event's; otherwise returns the verdict, valid
    or not.
    """
    check_sheet_tree(sheet)
    check_sheet_matches_event(event, sheet)
    verdict = engine_verify(sheet)
    scores = verdict.get("scores") or []
    halves: list[int | None] = [None, None]
    if len(scores) == 2:
        halves = [to_halves(s) for s in scores]
    complete = bool(verdict.get("valid")) and bool(verdict.get("finished"))
    return Assessment(
        kind=Claim.Kind.SHEET,
        sheet=sheet,
        digest=digest({"kind": "sheet", "sheet": canonical_sheet(event, sheet)}),
        verdict=verdict,
        verified=bool(verdict.get("valid")),
        complete=complete,
        score_a_halves=halves[0],
        score_b_halves=halves[1],
        winner_side=verdict.get("winner"),
        finished=bool(verdict.get("finished")),
    )


def assess_mismatch(sheet: dict[str, Any], refusal: SheetMismatch) -> Assessment:
    """A sheet for another game, to be kept as a draft: its verdict is the mismatch (one error,
    code ``sheet_mismatch``, with the fields), never valid, never complete, no scores.

    ``sheet`` has passed ``check_sheet_tree``. Its digest is over the sheet as sent (tiles
    normalized), not the canonical form, which would overwrite the very fields that differ.
    """
    fields = refusal.details.get("fields", []) if isinstance(refusal.details, dict) else []
    verdict = {
        "valid": False,
        "finished": False,
        "scores": [],
        "winner": None,
        "errors": [
            {
                "code": refusal.code,
                "hand": None,
                "move": None,
                "message": refusal.message,
                "fields": fields,
            }
        ],
    }
    return Assessment(
        kind=Claim.Kind.SHEET,
        sheet=sheet,
        digest=digest({"kind": "sheet_mismatch", "sheet": _normalize(sheet)}),
        verdict=verdict,
        verified=False,
        complete=False,
        score_a_halves=None,
        score_b_halves=None,
        winner_side=None,
        finished=False,
    )


def assess_final_score(event: Event, final_score: Any, *, allow: bool | None = None) -> Assessment:
    """A final score only: ``{"scores": [side 0, side 1], "winner": 0 | 1 | null}`` (raw points).

    Allowed where the event allows it (``allow`` lets a director enter one anyway). The winner is
    the uniquely highest side (null: drawn); a ``winner`` given must agree. Marked unverified.
    """
    if not (event.allow_final_score_only if allow is None else allow):
        raise NotAllowed(
            "This event needs the scoresheet, not only the final score.",
            code="final_score_not_allowed",
        )
    if not isinstance(final_score, dict) or not isinstance(final_score.get("scores"), list):
        raise ValidationFailed(
            'A final score is {"scores": [side 0, side 1]}.', code="invalid_score"
        )
    scores = final_score["scores"]
    if len(scores) != 2:
        raise ValidationFailed(
            "A final score has one score per side, two in all.", code="invalid_score"
        )
    a, b = (to_halves(s) for s in scores)
    winner = None if a == b else (0 if a > b else 1)
    if "winner" in final_score and final_score["winner"] != winner:
        raise ValidationFailed(
            "The winner is the side with the higher score (null when they are equal).",
            code="invalid_score",
            details={"winner": final_score["winner"], "expected": winner},
        )
    return Assessment(
        kind=Claim.Kind.FINAL_SCORE,
        sheet=None,
        digest=digest({"kind": "final_score", "halves": [a, b]}),
        verdict=None,
        verified=False,
        complete=True,
        score_a_halves=a,
        score_b_halves=b,
        winner_side=winner,
        finished=True,
    )


def assess(
    event: Event, *, sheet: Any = None, final_score: Any = None, allow_final: bool | None = None
) -> Assessment:
    """One of ``sheet`` and ``final_score`` (exactly one), assessed."""
    if (sheet is None) == (final_score is None):
        raise ValidationFailed(
            "Send either a scoresheet or a final score.",
            code="invalid",
            details={"sheet": "one of sheet and final_score is required"},
        )
    if sheet is not None:
        return assess_sheet(event, sheet)
    return assess_final_score(event, final_score, allow=allow_final)


# --- Match state --------------------------------------------------------------------------


def current_claims(match: Match) -> list[Claim | None]:
    """Each side's latest claim (None where that side has none)."""
    found: list[Claim | None] = [None, None]
    for claim in Claim.objects.filter(match=match).order_by("side", "-version"):
        if found[claim.side] is None:
            found[claim.side] = claim
    return found


def state_of(match: Match, claims: list[Claim | None], result: MatchResult | None) -> str:
    """``bye``, ``confirmed``, ``conflict``, ``pending`` or ``missing`` (see the module doc)."""
    if match.is_bye:
        return "bye"
    if result is not None:
        return "confirmed"
    submitted = [c for c in claims if c is not None and c.status == Claim.Status.SUBMITTED]
    if len(submitted) == 2:
        return "conflict" if submitted[0].digest != submitted[1].digest else "pending"
    return "pending" if submitted else "missing"


def current_result(match: Match) -> MatchResult | None:
    return MatchResult.objects.filter(match=match, is_current=True).first()


def _lock(match: Match) -> Match:
    """The match, its round and event read, with the MATCH row alone locked (``of=self``).

    Locking the joined round and event rows too (a plain ``select_for_update`` with
    ``select_related``) queued every table's write in the event on the event row. The round is
    not locked either, on purpose: its status only moves forward (draft, published, in play,
    closed), a table's write checks it is open, and a round closes only when every match has a
    current result, which a write re-reads under the match lock (so a write racing the close
    finds the result and stores nothing: ``already_confirmed``). Nothing a write does depends
    on a round or event value that could change under it otherwise.
    """
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__event")
        .get(pk=match.pk)
    )


# --- Claims -------------------------------------------------------------------------------


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


def _check_side(match: Match, side: int) -> None:
    if side not in SIDES:
        raise ValidationFailed("The side is 0 (first entry) or 1 (second).", code="invalid_side")
    _check_not_bye(match)


def _check_not_bye(match: Match) -> None:
    if match.is_bye:
        raise ValidationFailed("A bye has no result to enter.", code="match_is_bye")


def _check_open(round_: Round) -> None:
    if round_.status not in (Round.Status.PUBLISHED, Round.Status.IN_PLAY):
        raise NotAllowed(
            "This round is not open for entry; ask the director.",
            code="round_not_open",
            details={"round_status": round_.status},
        )


def _check_expected_version(
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


def _check_version(current: Claim | None, expected_version: int | None) -> None:
    version = current.version if current is not None else None
    _check_expected_version(
        version,
        expected_version,
        missing="This side has no claim yet: submit without a version.",
        required=f"This side already has claim version {version}: "
        "say which version you change (If-Match).",
        changed=f"This claim has changed (now version {version}): "
        "reload it and make your change again.",
    )


@transaction.atomic
def submit_claim(
    *,
    match: Match,
    side: int,
    sheet: Any = None,
    final_score: Any = None,
    expected_version: int | None = None,
) -> ClaimOutcome:
    """Store a side's claim (a new version) and confirm the match if both sides now agree.

    Claims are the tables' (their link; ``manage.py demo`` plays tables the same way): no
    director submits or confirms one, since two equal claims make an ``agreed`` result with no
    reason and no actor. A director decides with ``resolve_conflict``, ``override_result`` or
    ``correct_result``, which take a reason and record who.

    ``expected_version``: None for the side's first claim, else the version being changed (a
    different one raises ``stale_version``; none at all when a claim exists, ``version_required``).
    A submission equal to the side's current claim stores nothing and returns it (a safe retry).
    Raises ``final_score_not_allowed``, ``round_not_open`` (the round is not published or in
    play), ``already_confirmed`` (the director corrects a confirmed result), ``sheet_too_large``.
    An invalid or unfinished sheet is stored as a draft with its verdict. So is a sheet for
    another game (``sheet_mismatch``): its draft's verdict is the mismatch, field by field, and
    the outcome's ``refusal`` carries the error for the caller to report. A draft never
    confirms a result.
    """
    _check_side(match, side)
    # Verify before taking the match's lock: the engine's work never holds up the other side.
    refusal: SheetMismatch | None = None
    try:
        found = assess(match.round.event, sheet=sheet, final_score=final_score)
    except SheetMismatch as exc:  # kept as a draft with the mismatch as its verdict
        refusal = exc
        found = assess_mismatch(sheet, exc)
    locked = _lock(match)
    _check_open(locked.round)
    claims = current_claims(locked)
    current = claims[side]
    result = current_result(locked)
    if current is not None and current.digest == found.digest and _same_status(current, found):
        return ClaimOutcome(current, False, state_of(locked, claims, result), result, refusal)
    if result is not None:
        raise AlreadyConfirmed(
            "This match's result is confirmed; ask the director for a correction.",
            details={"result_version": result.version},
        )
    _check_version(current, expected_version)
    claim = _store_claim(locked, side, found, current)
    claims[side] = claim
    result = _confirm_if_agreed(locked, claims)
    return ClaimOutcome(claim, True, state_of(locked, claims, result), result, refusal)


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
                finished=found.finished,
                confirms=confirms,
                origin=Claim.Origin.TABLE,
                actor=None,
            )
    except IntegrityError as exc:  # a concurrent writer took this version (the lock prevents it)
        raise StaleVersion(
            "This claim changed while you were sending yours: reload it.",
            details={"given_version": version - 1},
        ) from exc


def _confirm_if_agreed(match: Match, claims: list[Claim | None]) -> MatchResult | None:
    a, b = claims
    if (
        a is None
        or b is None
        or a.status != Claim.Status.SUBMITTED
        or b.status != Claim.Status.SUBMITTED
        or a.digest != b.digest
    ):
        return None
    return _write_result(
        match,
        source=MatchResult.Source.AGREED,
        claim=b if b.created_at >= a.created_at else a,
        found=None,
        reason="",
        actor=None,
        action="result.confirm",
    )


@transaction.atomic
def confirm_claim(
    *,
    match: Match,
    side: int,
    expected_version: int,
) -> ClaimOutcome:
    """The other side confirms side ``1 - side``'s current claim as it stands (a table's act,
    like ``submit_claim``).

    ``expected_version`` is the version of the claim being confirmed (what the confirming side was
    shown): if it has changed since, ``stale_version`` and nothing is stored. Stores the same
    sheet (or final score) as a claim of ``side`` and so confirms the result. Confirming again
    what is already confirmed returns it.
    """
    _check_side(match, side)
    locked = _lock(match)
    _check_open(locked.round)
    claims = current_claims(locked)
    other, mine = claims[1 - side], claims[side]
    result = current_result(locked)
    if other is None or other.status != Claim.Status.SUBMITTED:
        raise ValidationFailed(
            "The other side has not submitted a result to confirm yet.", code="nothing_to_confirm"
        )
    if other.version != expected_version:
        raise StaleVersion(
            f"The other side's claim has changed (now version {other.version}): look at it again.",
            details={"current_version": other.version, "given_version": expected_version},
        )
    if mine is not None and mine.digest == other.digest and mine.status == other.status:
        return ClaimOutcome(mine, False, state_of(locked, claims, result), result)
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
    )
    claim = _store_claim(locked, side, found, mine, confirms=other)
    claims[side] = claim
    result = _confirm_if_agreed(locked, claims)
    return ClaimOutcome(claim, True, state_of(locked, claims, result), result)


# --- The director -------------------------------------------------------------------------


def _require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationFailed(
            "Say why (the reason goes in the audit log).",
            code="reason_required",
            details={"reason": "required"},
        )
    return reason


def _write_result(
    match: Match,
    *,
    source: str,
    claim: Claim | None,
    found: Assessment | None,
    reason: str,
    actor: Actor,
    action: str,
) -> MatchResult:
    """Make a new current result version (the previous one, if any, stops being current)."""
    previous = current_result(match)
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
    )
    note_results_changed(event_id=match.round.event_id)
    return result


def result_summary(result: MatchResult) -> dict[str, Any]:
    """A small JSON picture of a result version (for the audit log and the API)."""
    return {
        "match": result.match_id,
        "version": result.version,
        "source": result.source,
        "kind": result.kind,
        "scores": [from_halves(result.score_a_halves), from_halves(result.score_b_halves)],
        "winner_side": result.winner_side,
        "verified": result.verified,
        "claim": result.claim_id,
    }


@transaction.atomic
def resolve_conflict(*, match: Match, side: int, reason: str, actor: Actor) -> MatchResult:
    """The director settles an unconfirmed match with side ``side``'s current submitted claim.

    Meant for a conflict, and allowed for a match only one side has submitted (the other left).
    Raises ``already_confirmed`` when a result exists (correct it instead), ``nothing_to_confirm``
    when that side has no submitted claim.
    """
    reason = _require_reason(reason)
    _check_side(match, side)
    locked = _lock(match)
    if current_result(locked) is not None:
        raise AlreadyConfirmed("This match already has a confirmed result; correct it instead.")
    claim = current_claims(locked)[side]
    if claim is None or claim.status != Claim.Status.SUBMITTED:
        raise ValidationFailed(
            "That side has no submitted claim to accept.", code="nothing_to_confirm"
        )
    return _write_result(
        locked,
        source=MatchResult.Source.RESOLVED,
        claim=claim,
        found=None,
        reason=reason,
        actor=actor,
        action="result.resolve",
    )


def _director_assessment(event: Event, *, sheet: Any, final_score: Any) -> Assessment:
    found = assess(event, sheet=sheet, final_score=final_score, allow_final=True)
    if not found.complete:
        raise ValidationFailed(
            "The engine does not accept this sheet as a finished match: fix it, or enter a "
            "final score.",
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
    reason = _require_reason(reason)
    _check_not_bye(match)
    found = _director_assessment(match.round.event, sheet=sheet, final_score=final_score)
    locked = _lock(match)
    _check_result_version(current_result(locked), expected_version)
    return _write_result(
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
    Raises ``not_confirmed`` when the match has no confirmed result.
    """
    reason = _require_reason(reason)
    _check_not_bye(match)
    found = _director_assessment(match.round.event, sheet=sheet, final_score=final_score)
    locked = _lock(match)
    current = current_result(locked)
    if current is None:
        raise ValidationFailed(
            "This match has no confirmed result to correct.", code="not_confirmed"
        )
    _check_result_version(current, expected_version)
    return _write_result(
        locked,
        source=MatchResult.Source.CORRECTION,
        claim=None,
        found=found,
        reason=reason,
        actor=actor,
        action="result.correct",
    )


def _check_result_version(current: MatchResult | None, expected_version: int | None) -> None:
    version = current.version if current is not None else None
    _check_expected_version(
        version,
        expected_version,
        missing="This match has no confirmed result yet.",
        required=f"This match has result version {version}: say which version you change.",
        changed=f"The result has changed (now version {version}): reload it.",
    )


# --- Standings and the round --------------------------------------------------------------


def note_results_changed(*, event_id: int) -> None:
    """In the caller's transaction: bump the event's results generation, mark standings dirty,
    and ask for a recompute once the transaction commits (never failing the caller)."""
    from tournaments import tasks
    from tournaments.queueing import enqueue_after_commit

    StandingsState.objects.get_or_create(event_id=event_id)
    StandingsState.objects.filter(pk=event_id).update(
        results_generation=F("results_generation") + 1,
        dirty=True,
        dirty_since=Coalesce(F("dirty_since"), Now()),
    )
    enqueue_after_commit(tasks.request_standings_recompute, event_id)


@transaction.atomic
def mark_standings_dirty(*, event_id: int) -> StandingsState:
    """Record that the event's standings must be recomputed (safe to run any number of times).

    Issue 8's recompute clears ``dirty`` for the generation it computed from.
    """
    state, _ = StandingsState.objects.get_or_create(event_id=event_id)
    StandingsState.objects.filter(pk=event_id).update(
        dirty=True, dirty_since=Coalesce(F("dirty_since"), Now())
    )
    state.refresh_from_db()
    return state


def round_results_complete(round_: Round) -> bool:
    """True when every match of the round with a table (byes aside) has a confirmed result.

    For the round-close action: one query.
    """
    return not (
        Match.objects.filter(round=round_, is_bye=False).exclude(results__is_current=True).exists()
    )


__all__ = [
    "AlreadyConfirmed",
    "Assessment",
    "ClaimOutcome",
    "SheetMismatch",
    "SpinnerError",
    "StaleVersion",
    "VersionRequired",
    "assess",
    "assess_mismatch",
    "canonical_sheet",
    "check_sheet_matches_event",
    "check_sheet_tree",
    "confirm_claim",
    "correct_result",
    "current_claims",
    "current_result",
    "divergence",
    "engine_verify",
    "expected_game",
    "mark_standings_dirty",
    "note_results_changed",
    "override_result",
    "resolve_conflict",
    "round_results_complete",
    "state_of",
    "submit_claim",
]
