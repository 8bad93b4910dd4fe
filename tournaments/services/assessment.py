"""Assessing a sheet or a final score against the event it was played in (no writes).

The engine verifies a sheet (``scoring.verify``); this module checks that it describes the event's
game (``tournaments.game.expected_game``), that it is a sane JSON tree, and turns it into the
canonical text and digest two claims are compared by.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import orjson
from django.utils.translation import gettext

import scoring
from tournaments import game
from tournaments.errors import NotAllowed, ValidationFailed
from tournaments.game import SEAT_LETTERS, SIDE_LETTERS, expected_game
from tournaments.models import Claim, Event, Match
from tournaments.results_math import to_halves

FORMAT = "fives-scoresheet/1"


SIDES = (0, 1)


MAX_SHEET_DEPTH = 24  # a scoresheet is about six levels deep


# The size of a sheet, measured on the engine's own matches (``manage.py simulate``, 200 matches
# per rule set, player count and bot; benchmarks/engine/SHEET_SIZES.md): the longest with bots
# playing like people (greedy) is 40 kB and 5,200 values; the longest with bots playing at
# random (far longer than any real match: they rarely score) is 445 kB and 57,000 values. The
# limits leave room over that worst case: a little over twice the random bots' longest match and
# 25 times the longest greedy one.
MAX_SHEET_NODES = 150_000
MAX_SHEET_BYTES = 1_000_000  # compact JSON, ASCII-escaped


class SheetMismatch(ValidationFailed):
    """A sheet for another game than the event's; ``details["fields"]`` says which, field by
    field (``{"field", "expected", "given"}``)."""

    code = "sheet_mismatch"
    status = 400


def engine_verify(sheet: Any) -> dict[str, Any]:
    """The engine's verdict on a sheet, as a JSON-safe dict (``scoring.verify(...).as_dict()``)."""
    verdict: dict[str, Any] = scoring.verify(sheet).as_dict()
    return verdict


def engine_check(sheet: Any) -> tuple[dict[str, Any], tuple[dict[str, Any], ...]]:
    """The engine's verdict on a sheet and its warnings (possible but rare claims, "check
    this"), both JSON-safe; the verdict is exactly the spec's shape."""
    v = scoring.verify(sheet)
    return v.as_dict(), tuple(v.warnings_as_list())


def _sheet_game_defaults(sheet: dict[str, Any]) -> dict[str, Any]:
    """What a sheet's absent ``partnerships``, ``target`` and ``hand_size`` mean: its rule set's
    defaults for its number of players, as the engine has them (None where the engine has none:
    an unknown rule set or player count, which then differs from the event's game)."""
    try:
        rules = scoring.find_ruleset(str(sheet.get("rules")))
        players = sheet.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError(players)
        return {
            "partnerships": rules.default_partnerships(players),
            "target": rules.default_target(players),
            "hand_size": rules.deal_size(players),
        }
    except (scoring.UnknownRuleSet, ValueError):
        return {"partnerships": False, "target": None, "hand_size": None}


def check_sheet_matches_event(event: Event, sheet: Any, match: Match | None = None) -> None:
    """Refuse a sheet for another game than the event's (``sheet_mismatch``, field by field);
    ``match``: the game it is for, whose own target (a play-off stage's) replaces the event's.

    Absent ``partnerships``, ``target`` and ``hand_size`` take the rule set's defaults, which must
    then be the event's. A ``time`` entry must carry the event's time policy.
    """
    if not isinstance(sheet, dict):
        raise ValidationFailed(
            gettext("A scoresheet is a JSON object."),
            code="invalid",
            details={"sheet": "not an object"},
        )
    game = expected_game(event, match)
    defaults = _sheet_game_defaults(sheet)
    given = {
        "rules": sheet.get("rules"),
        "players": sheet.get("players"),
        "partnerships": sheet.get("partnerships", defaults["partnerships"]),
        "target": sheet.get("target", defaults["target"]),
        "hand_size": sheet.get("hand_size", defaults["hand_size"]),
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
    ``MAX_SHEET_DEPTH``, more than ``MAX_SHEET_NODES`` values or ``MAX_SHEET_BYTES`` of compact
    JSON, NUL characters, integers beyond 10**9 (``sheet_too_large`` or ``sheet_malformed``).
    Iterative: safe on any depth, so the recursive steps after it (canonical form, JSON
    encoding) are safe too."""
    nodes = 0
    too_large, malformed, leaf = _too_large, _malformed, _check_leaf

    def visit(item: Any, depth: int) -> None:
        # Depth first, each container's values last to first (the order of an explicit stack):
        # the first problem found is the same whatever the implementation. The recursion is
        # bounded: nothing below MAX_SHEET_DEPTH is visited.
        nonlocal nodes
        nodes += 1
        if depth > MAX_SHEET_DEPTH or nodes > MAX_SHEET_NODES:
            raise too_large()
        if isinstance(item, dict):
            if any("\x00" in str(key) for key in item):
                raise malformed(gettext("NUL characters are not allowed."))
            children: Any = reversed(item.values())
        elif isinstance(item, list):
            children = reversed(item)
        else:
            leaf(item)
            return
        below = depth + 1
        for child in children:
            kind = type(child)
            if kind is int:  # the leaves, checked here (most of a sheet)
                nodes += 1
                if below > MAX_SHEET_DEPTH or nodes > MAX_SHEET_NODES:
                    raise too_large()
                if not -(10**9) <= child <= 10**9:
                    raise malformed(gettext("A number in this scoresheet is out of range."))
            elif kind is str:
                nodes += 1
                if below > MAX_SHEET_DEPTH or nodes > MAX_SHEET_NODES:
                    raise too_large()
                if "\x00" in child:
                    raise malformed(gettext("NUL characters are not allowed."))
            else:
                visit(child, below)

    visit(value, 0)
    if not _surely_small(value):
        _check_sheet_bytes(value)


def _too_large() -> ValidationFailed:
    return ValidationFailed(
        gettext("This scoresheet is too deep or too large."),
        code="sheet_too_large",
        details={"max_depth": MAX_SHEET_DEPTH, "max_nodes": MAX_SHEET_NODES},
    )


def _malformed(message: str) -> ValidationFailed:
    return ValidationFailed(message, code="sheet_malformed")


def _check_leaf(item: Any) -> None:
    """A value that is not a container, at the top of a sheet: no NUL, no integer beyond 10**9."""
    if isinstance(item, str):
        if "\x00" in item:
            raise _malformed(gettext("NUL characters are not allowed."))
    elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > 10**9:
        raise _malformed(gettext("A number in this scoresheet is out of range."))


def _check_sheet_bytes(value: Any) -> None:
    """Refuse a sheet longer than ``MAX_SHEET_BYTES`` of compact ASCII-escaped JSON."""
    size = len(json.dumps(value, separators=(",", ":"), ensure_ascii=True))
    if size > MAX_SHEET_BYTES:
        raise ValidationFailed(
            f"This scoresheet is {size:,} bytes; the longest real match is far shorter "
            f"(the limit is {MAX_SHEET_BYTES:,}).",
            code="sheet_too_large",
            details={"max_bytes": MAX_SHEET_BYTES, "bytes": size},
        )


def _surely_small(value: Any) -> bool:
    """True when ``value``'s compact ASCII-escaped JSON is surely within ``MAX_SHEET_BYTES``,
    told from orjson's UTF-8 (30 times faster): no character, number or constant takes more
    than 6 times its UTF-8 bytes once ASCII-escaped (DEL, 1 byte, becomes ``\\u007f``). False
    when unsure (near the limit, or a value orjson does not take): then the exact size is
    measured."""
    try:
        return 6 * len(orjson.dumps(value)) <= MAX_SHEET_BYTES
    except (orjson.JSONEncodeError, TypeError):
        return False


def _normalize(value: Any) -> Any:
    kind = type(value)
    if kind is int:  # most of a sheet: the scores and seats
        return value
    if kind is str:
        return _tile_text(value) if len(value) <= _SHORT_TEXT else _parse_tile_text(value)
    if isinstance(value, dict):
        return {k: _normalize(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalize(v) for v in value]
    if isinstance(value, str):
        return _parse_tile_text(value)
    return value


def _parse_tile_text(text: str) -> str:
    """A tile in one spelling (``a-b``, ``a <= b``: the engine's tile syntax); any other text
    as it is."""
    try:
        return str(scoring.Tile.parse(text.strip()))
    except scoring.TileError:
        return text


_SHORT_TEXT = 32
"""Texts up to this long are remembered (``_tile_text``): a sheet repeats its few tiles and
words hundreds of times; longer texts (never a tile) are not kept."""

_tile_text = functools.lru_cache(maxsize=2048)(_parse_tile_text)


def canonical_sheet(
    event: Event, sheet: dict[str, Any], match: Match | None = None
) -> dict[str, Any]:
    """The sheet in one spelling, so that two sides' accounts of one game compare equal.

    Tiles written ``a-b`` with ``a <= b``; the game fields filled in from the event; the claimed
    ``result`` and per-hand ``settlement`` left out (a valid sheet's are fixed by its plays, and
    the verdict gives the true figures).
    """
    canon: dict[str, Any] = _normalize(sheet)
    canon.pop("result", None)
    canon.update(expected_game(event, match))
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


_TREE_CHECKED: ContextVar[object] = ContextVar("sheet_tree_checked", default=None)


@contextmanager
def tree_checked(sheet: Any) -> Iterator[None]:
    """Within the block, ``assess_sheet`` does not walk ``sheet`` (this very object) again with
    ``check_sheet_tree``: the caller's input validation has just done it (the API's
    ``SheetField``) and nothing changes the sheet in between."""
    token = _TREE_CHECKED.set(sheet)
    try:
        yield
    finally:
        _TREE_CHECKED.reset(token)


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
    # At a table of many (three or four players, each for themselves): every seat's score in
    # half-points, seat order (``score_a_halves``/``score_b_halves``: seats 0 and 1). None else.
    scores_halves: tuple[int, ...] | None = None
    # The engine's warnings on a sheet: claims it accepts but that are rare (a fault's shape).
    warnings: tuple[dict[str, Any], ...] = ()


def assess_sheet(event: Event, sheet: Any, match: Match | None = None) -> Assessment:
    """Check the sheet against the event (and ``match``'s own target, if it has one), then have
    the engine verify it (a dry run).

    Raises ``sheet_too_large``/``sheet_malformed`` for JSON no one meant (``check_sheet_tree``),
    ``sheet_mismatch`` for another game than the event's; otherwise returns the verdict, valid
    or not.
    """
    if _TREE_CHECKED.get() is not sheet:
        check_sheet_tree(sheet)
    check_sheet_matches_event(event, sheet, match)
    verdict, warnings = engine_check(sheet)
    scores = verdict.get("scores") or []
    halves: list[int | None] = [None, None]
    many: tuple[int, ...] | None = None
    if len(scores) == 2:
        halves = [to_halves(s) for s in scores]
    elif len(scores) > 2:  # a table of many: every seat's score
        many = tuple(to_halves(s) for s in scores)
        halves = [many[0], many[1]]
    complete = bool(verdict.get("valid")) and bool(verdict.get("finished"))
    return Assessment(
        kind=Claim.Kind.SHEET,
        sheet=sheet,
        digest=digest({"kind": "sheet", "sheet": canonical_sheet(event, sheet, match)}),
        verdict=verdict,
        verified=bool(verdict.get("valid")),
        complete=complete,
        score_a_halves=halves[0],
        score_b_halves=halves[1],
        winner_side=verdict.get("winner"),
        finished=bool(verdict.get("finished")),
        scores_halves=many,
        warnings=warnings,
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


def check_final_possible(event: Event, match: Match | None, halves: tuple[int, ...]) -> None:
    """Refuse (``invalid_score``) final scores no match under the event's rules ends with: a
    score off the game's step (``game.score_step``), or more entities past the target than the
    rules allow (``game.final_score_problem``); ``details["field"]``: the score's index."""
    many = len(halves) > 2
    names = [
        gettext("Seat %(letter)s") % {"letter": SEAT_LETTERS[i]}
        if many
        else gettext("Side %(side)s") % {"side": SIDE_LETTERS[i]}
        for i in range(len(halves))
    ]
    found = game.final_score_problem(event, match, [Fraction(h, 2) for h in halves], names)
    if found is not None:
        message, field = found
        raise ValidationFailed(message, code="invalid_score", details={"field": field})


def assess_final_score(
    event: Event,
    final_score: Any,
    *,
    allow: bool | None = None,
    seats: int = 2,
    match: Match | None = None,
) -> Assessment:
    """A final score only: ``{"scores": [side 0, side 1], "winner": 0 | 1 | null}`` (raw points).

    Allowed where the event allows it (``allow`` lets a director enter one anyway). The winner is
    the uniquely highest side (null: drawn); a ``winner`` given must agree. Marked unverified.
    ``seats`` 3 or 4: a table of many, one score per seat (:func:`assess_table_final_score`).
    """
    if not (event.allow_final_score_only if allow is None else allow):
        raise NotAllowed(
            gettext("This event needs the scoresheet, not only the final score."),
            code="final_score_not_allowed",
        )
    if seats > 2:
        return assess_table_final_score(final_score, seats, event=event, match=match)
    if not isinstance(final_score, dict) or not isinstance(final_score.get("scores"), list):
        raise ValidationFailed(
            gettext('A final score is {"scores": [side 0, side 1]}.'), code="invalid_score"
        )
    scores = final_score["scores"]
    if len(scores) != 2:
        raise ValidationFailed(
            gettext("A final score has one score per side, two in all."), code="invalid_score"
        )
    halves = tuple(to_halves(s) for s in scores)
    check_final_possible(event, match, halves)
    return _final_score_assessment(
        final_score,
        halves,
        gettext("The winner is the side with the higher score (null when they are equal)."),
    )


def assess_table_final_score(
    final_score: Any, seats: int, *, event: Event | None = None, match: Match | None = None
) -> Assessment:
    """A table of many's final score: ``{"scores": [seat 0, seat 1, ...], "winner": seat | null}``
    (raw points, one per seat). The winner is the uniquely highest seat (null: a shared top, as
    time may leave it); a ``winner`` given must agree. Marked unverified."""
    if not isinstance(final_score, dict) or not isinstance(final_score.get("scores"), list):
        raise ValidationFailed(
            gettext('A final score is {"scores": [seat 1, seat 2, ...]}, one per player.'),
            code="invalid_score",
        )
    scores = final_score["scores"]
    if len(scores) != seats:
        raise ValidationFailed(
            gettext(
                "This table has %(seats)s players: give one score per player, %(seats)s in all."
            )
            % {"seats": seats},
            code="invalid_score",
            details={"seats": seats, "given": len(scores)},
        )
    halves = tuple(to_halves(s) for s in scores)
    if event is not None:
        check_final_possible(event, match, halves)
    return _final_score_assessment(
        final_score,
        halves,
        gettext("The winner is the player with the highest score (null when two share it)."),
    )


def _final_score_assessment(
    final_score: dict[str, Any], halves: tuple[int, ...], wrong_winner: str
) -> Assessment:
    """The unverified assessment of a final score's ``halves`` (one per side or seat): the winner
    is the uniquely highest (None: a shared top); a ``winner`` given must agree (else
    ``wrong_winner``). A table of many keeps every seat's score in ``scores_halves``."""
    top = max(halves)
    winner = halves.index(top) if halves.count(top) == 1 else None
    if "winner" in final_score and final_score["winner"] != winner:
        raise ValidationFailed(
            wrong_winner,
            code="invalid_score",
            details={"winner": final_score["winner"], "expected": winner},
        )
    return Assessment(
        kind=Claim.Kind.FINAL_SCORE,
        sheet=None,
        digest=digest({"kind": "final_score", "halves": list(halves)}),
        verdict=None,
        verified=False,
        complete=True,
        score_a_halves=halves[0],
        score_b_halves=halves[1],
        winner_side=winner,
        finished=True,
        scores_halves=halves if len(halves) > 2 else None,
    )


def assess(
    event: Event,
    *,
    sheet: Any = None,
    final_score: Any = None,
    allow_final: bool | None = None,
    match: Match | None = None,
) -> Assessment:
    """One of ``sheet`` and ``final_score`` (exactly one), assessed (a sheet against ``match``'s
    game when given: its target may be a play-off stage's)."""
    if (sheet is None) == (final_score is None):
        raise ValidationFailed(
            gettext("Send either a scoresheet or a final score."),
            code="invalid",
            details={"sheet": "one of sheet and final_score is required"},
        )
    if sheet is not None:
        return assess_sheet(event, sheet, match)
    seats = match.table_entries if match is not None else 2
    return assess_final_score(event, final_score, allow=allow_final, seats=seats, match=match)
