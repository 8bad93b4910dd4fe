"""A claim and a result as the results API shows them, without building a DRF serializer.

``ClaimOutputSerializer(claim).data`` builds its dozen fields from the model on every call (a
``ModelSerializer`` introspects the model each time it is instantiated): about a millisecond per
claim, three or four times in every answer of a table's write. These functions give the same
dict, field by field, as the serializers in ``api/serializers.py`` (which still describe the
schema, and which tests compare these with): the same keys in the same order, the same values
(choices as their text, numbers as the fields cast them, times as DRF writes them in the
current time zone).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Claim, MatchResult
from tournaments.results_math import from_halves

_TIME = serializers.DateTimeField()
"""DRF's own rendering of a time (``DATETIME_FORMAT``, the current time zone, ``Z`` for UTC)."""


def claim_data(claim: Claim) -> dict[str, Any]:
    """``ClaimOutputSerializer(claim).data``."""
    return {
        "id": claim.pk,
        "match": claim.match_id,
        "side": _int(claim.side),
        "version": _int(claim.version),
        "kind": _choice(claim.kind),
        "status": _choice(claim.status),
        "sheet": claim.sheet,
        "verdict": verdict_data(claim.verdict),
        "verified": _bool(claim.verified),
        "scores": scores_of(claim),
        "winner_side": _int(claim.winner_side),
        "finished": _bool(claim.finished),
        "confirms": claim.confirms_id,
        "origin": _choice(claim.origin),
        "created_at": _time(claim.created_at),
    }


def result_data(result: MatchResult) -> dict[str, Any]:
    """``ResultOutputSerializer(result).data``."""
    return {
        "id": result.pk,
        "match": result.match_id,
        "version": _int(result.version),
        "source": _choice(result.source),
        "kind": _choice(result.kind),
        "claim": result.claim_id,
        "sheet": result.sheet,
        "verdict": verdict_data(result.verdict),
        "verified": _bool(result.verified),
        "scores": scores_of(result),
        "winner_side": _int(result.winner_side),
        "placings": None if result.placings is None else [int(p) for p in result.placings],
        "forfeit": _choice(result.forfeit),
        "reason": None if result.reason is None else str(result.reason),
        "created_at": _time(result.created_at),
    }


def scores_of(obj: Claim | MatchResult) -> list[int | float] | None:
    """Raw points per side (halves as .5; at a table of many, per seat), None without a score."""
    if obj.scores_halves:  # a table of many: every seat's, seat order
        return [from_halves(h) or 0 for h in obj.scores_halves]
    if obj.score_a_halves is None or obj.score_b_halves is None:
        return None
    return [from_halves(obj.score_a_halves) or 0, from_halves(obj.score_b_halves) or 0]


def verdict_data(verdict: Any) -> dict[str, Any] | None:
    """``VerdictSerializer(verdict).data``: the engine's verdict, its declared fields only."""
    if verdict is None:
        return None
    return {
        "valid": _bool(verdict["valid"]),
        "errors": [
            {
                "code": _str(error["code"]),
                "hand": _int(error.get("hand")),
                "move": _int(error.get("move")),
                "message": _str(error["message"]),
            }
            for error in verdict["errors"]
        ]
        if verdict["errors"] is not None
        else None,
        "scores": [None if s is None else float(s) for s in verdict["scores"]]
        if verdict["scores"] is not None
        else None,
        "winner": _int(verdict.get("winner")),
        "finished": _bool(verdict["finished"]),
    }


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


def _bool(value: Any) -> bool | None:
    # serializers.BooleanField.to_representation
    if value is None:
        return None
    if value in serializers.BooleanField.TRUE_VALUES:
        return True
    if value in serializers.BooleanField.FALSE_VALUES:
        return False
    return bool(value)


def _choice(value: Any) -> Any:
    # serializers.ChoiceField.to_representation: the stored text ("" and None as they are)
    if value in ("", None):
        return value
    return str(value)


def _time(value: Any) -> Any:
    return None if value is None else _TIME.to_representation(value)
