"""The results API's serializers and schema parts: what a table or a director sends (sheets,
final scores in RAW points, reasons) and what they get back (claims, results, a match's state),
with the shared OpenAPI parameters (``Idempotency-Key``, ``If-Match``) and error responses."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema_field,
)
from rest_framework import serializers

from tournaments.api.claim_data import claim_data, result_data, scores_of
from tournaments.api.errors import ERROR
from tournaments.errors import ValidationFailed
from tournaments.models import Claim, MatchResult
from tournaments.selectors import results as selectors
from tournaments.services import assessment

IDEMPOTENCY_REQUIRED = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="A new random value per submission; the same value on a retry gets the same "
    "answer. 1-200 of A-Z a-z 0-9 . _ : -",
    pattern=r"^[A-Za-z0-9._:\-]{1,200}$",
)


IDEMPOTENCY_OPTIONAL = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Optional: the same value on a retry gets the same answer.",
    pattern=r"^[A-Za-z0-9._:\-]{1,200}$",
)


def if_match(what: str, *, required: bool = False) -> OpenApiParameter:
    return OpenApiParameter(
        "If-Match",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        required=required,
        description=f'The version of {what} this request changes, e.g. "2".',
        pattern=r'^\s*(W/)?"?[0-9]{1,9}"?\s*$',
    )


def if_match_tag(what: str) -> OpenApiParameter:
    """``If-Match`` for a row whose version is a fingerprint (``services.versions``): the
    ``ETag`` read, or ``*`` (any version)."""
    return OpenApiParameter(
        "If-Match",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        required=False,
        description=f"The version of {what} this request changes: the ETag you read, e.g. "
        '"0123456789abcdef" (412 stale_version if it changed since).',
        pattern=r'^\s*(\*|(W/)?"?[0-9a-f]{16}"?)\s*$',
    )


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(ERROR) for code in codes}


def check_json_tree(value: Any) -> None:
    """Refuse JSON no database can keep or no person meant (``assessment.check_sheet_tree``).

    A sheet over the size limits is answered with its own code (``sheet_too_large`` 400, with
    the limits in its details), anything else as a field error."""
    try:
        assessment.check_sheet_tree(value)
    except ValidationFailed as exc:
        if exc.code == "sheet_too_large":
            raise
        raise serializers.ValidationError(exc.message) from exc


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": True,
        "description": "A fives-scoresheet/1 sheet (see the scoresheet format).",
        "example": {"format": "fives-scoresheet/1", "rules": "five-up", "players": 4, "hands": []},
    }
)
class SheetField(serializers.JSONField):
    """A ``fives-scoresheet/1`` object (its content is the engine's to judge)."""

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            raise serializers.ValidationError("A scoresheet is a JSON object.")
        check_json_tree(value)
        return value


class StrictInput(serializers.Serializer[Any]):
    """An input that refuses fields it does not know (a typo is not silently ignored); the
    schema says so (``additionalProperties: false``, ``schema_hooks``)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(str(name) for name in set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {name: ["Unknown field."] for name in unknown[:20]}
                )
        return super().to_internal_value(data)


class FinalScoreSerializer(StrictInput):
    """A final score only: RAW points per side (halves allowed), unverified.

    Raw, as the scoresheet and the database keep them, not the displayed points people read:
    in ``five-up`` and ``five-up-7`` 5 raw = 1 displayed point, so a paper acta of 61-40 is
    ``[305, 200]``; in ``all-fives`` raw and displayed are the same. (The director's HTML form
    takes displayed points and converts them.)"""

    scores = serializers.ListField(
        child=serializers.FloatField(min_value=-100_000, max_value=100_000),
        min_length=2,
        max_length=4,
        help_text=(
            "RAW points of side 0 (entry_a) and side 1 (entry_b), not displayed points: "
            "five-up's 61-40 is [305, 200]. At a table of three or four players: one per seat, "
            "seat order."
        ),
    )
    winner = serializers.IntegerField(
        min_value=0,
        max_value=3,
        allow_null=True,
        required=False,
        help_text="Optional: must be the higher side, or at a table of many the seat with the "
        "highest score (null: drawn, or the top shared).",
    )


def sheet_or_final_score(data: dict[str, Any]) -> dict[str, Any]:
    if ("sheet" in data) == ("final_score" in data):
        raise serializers.ValidationError(
            {"sheet": ["Send exactly one of 'sheet' and 'final_score'."]}
        )
    return data


class VerdictErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    hand = serializers.IntegerField(allow_null=True)
    move = serializers.IntegerField(allow_null=True)
    message = serializers.CharField()


class VerdictSerializer(serializers.Serializer[Any]):
    valid = serializers.BooleanField()
    errors = VerdictErrorSerializer(many=True)  # type: ignore[assignment]
    scores = serializers.ListField(child=serializers.FloatField())
    winner = serializers.IntegerField(allow_null=True)
    finished = serializers.BooleanField()


class ClaimOutputSerializer(serializers.ModelSerializer[Claim]):
    scores = serializers.SerializerMethodField(
        help_text="Raw points per side (halves as .5); at a table of many, per seat."
    )
    verdict = VerdictSerializer(allow_null=True)
    sheet = SheetField(allow_null=True)

    class Meta:
        model = Claim
        fields = [
            "id",
            "match",
            "side",
            "version",
            "kind",
            "status",
            "sheet",
            "verdict",
            "verified",
            "scores",
            "winner_side",
            "finished",
            "confirms",
            "origin",
            "created_at",
        ]

    @extend_schema_field(serializers.ListField(child=serializers.FloatField(), allow_null=True))
    def get_scores(self, obj: Claim) -> list[int | float] | None:
        return scores_of(obj)


class ResultOutputSerializer(serializers.ModelSerializer[MatchResult]):
    scores = serializers.SerializerMethodField(
        help_text="Raw points per side (halves as .5); at a table of many, per seat."
    )
    placings = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        read_only=True,
        help_text="At a table of many: each seat's place (1 = first; equal scores share a "
        "place: 1, 2, 2, 4). Null for a match of two sides.",
    )
    verdict = VerdictSerializer(allow_null=True)
    sheet = SheetField(allow_null=True)

    class Meta:
        model = MatchResult
        fields = [
            "id",
            "match",
            "version",
            "source",
            "kind",
            "claim",
            "sheet",
            "verdict",
            "verified",
            "scores",
            "winner_side",
            "placings",
            "forfeit",
            "reason",
            "created_at",
        ]
        extra_kwargs = {
            "forfeit": {
                "help_text": "Who forfeited: empty for a played match, a or b (that side "
                "forfeited or did not show up), both (a double forfeit)."
            }
        }

    @extend_schema_field(serializers.ListField(child=serializers.FloatField()))
    def get_scores(self, obj: MatchResult) -> list[int | float] | None:
        return scores_of(obj)


class SideEntrySerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField(
        help_text="0: entry_a (seats 0 and 2), 1: entry_b; at a table of many, the seat (0-3)."
    )
    entry = serializers.IntegerField()
    name = serializers.CharField()
    claim = ClaimOutputSerializer(
        allow_null=True, help_text="This side's current claim (null: none yet)."
    )


class DivergenceSerializer(serializers.Serializer[Any]):
    hand = serializers.IntegerField(allow_null=True)
    move = serializers.IntegerField(allow_null=True)
    note = serializers.CharField(required=False)


class MatchStateSerializer(serializers.Serializer[Any]):
    """A match as the tables and the director see it."""

    id = serializers.IntegerField()
    event = serializers.CharField(help_text="The event's slug.")
    round = serializers.IntegerField(help_text="The round's number.")
    table = serializers.IntegerField(allow_null=True, help_text="The table's number.")
    sides = SideEntrySerializer(many=True)
    state = serializers.ChoiceField(choices=list(selectors.STATES))
    result = ResultOutputSerializer(allow_null=True)
    divergence = DivergenceSerializer(allow_null=True)


def match_state(board: selectors.MatchBoard) -> dict[str, Any]:
    match = board.match

    def claim(side: int) -> Any:
        found = board.claims[side]
        return claim_data(found) if found is not None else None

    sides = [{"side": 0, "entry": match.entry_a_id, "name": match.entry_a.name, "claim": claim(0)}]
    if match.table_entries > 2:  # a table of many: every seat
        sides = [
            {"side": seat, "entry": entry.pk, "name": entry.name, "claim": claim(seat)}
            for seat, entry in enumerate(board.seat_entries)
        ]
    elif match.entry_b is not None:
        sides.append(
            {"side": 1, "entry": match.entry_b.pk, "name": match.entry_b.name, "claim": claim(1)}
        )
    return {
        "id": match.pk,
        "event": match.round.event.slug,
        "round": match.round.number,
        "table": board.table_number,
        "sides": sides,
        "state": board.state,
        "result": result_data(board.result) if board.result else None,
        "divergence": board.divergence(),
    }


class ClaimAnswerSerializer(serializers.Serializer[Any]):
    claim = ClaimOutputSerializer()
    created = serializers.BooleanField(help_text="False: the same claim was already there.")
    match = MatchStateSerializer()


class ResultAnswerSerializer(serializers.Serializer[Any]):
    result = ResultOutputSerializer()
    match = MatchStateSerializer()


class GameSerializer(serializers.Serializer[Any]):
    rules = serializers.CharField()
    players = serializers.IntegerField()
    partnerships = serializers.BooleanField()
    target = serializers.IntegerField()
    hand_size = serializers.IntegerField()
    time_policy = serializers.CharField()
    allow_final_score_only = serializers.BooleanField()


class RoundClockSerializer(serializers.Serializer[Any]):
    """The round's clock (``tournaments.clock_math.ClockState.as_dict``)."""

    state = serializers.ChoiceField(
        choices=["not_started", "running", "paused", "expired"],
        help_text="expired: time is up (run out, or called by the director): the table records "
        "time called on its sheet.",
    )
    seconds_left = serializers.IntegerField(
        allow_null=True, help_text="Whole seconds left (null: not started; 0: expired)."
    )
    ends_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When time is up if nothing changes (null while not started or paused; when "
        "it was up once expired).",
    )
    seconds_over = serializers.IntegerField(help_text="Seconds since time was up (0 before).")


class TableMatchSerializer(serializers.Serializer[Any]):
    event = serializers.CharField()
    event_name = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    side = serializers.IntegerField(
        help_text="The link's side: 0 (side A) or 1 (side B); at a table of many, its seat (0-3)."
    )
    side_names = serializers.ListField(
        child=serializers.CharField(),
        help_text="The two sides' team (or player) names; at a table of many, every seat's player.",
    )
    game = GameSerializer(help_text="What every sheet of this event must say.")
    match = MatchStateSerializer(allow_null=True)
    clock = RoundClockSerializer(help_text="The round's clock now.")


class SheetVerifyInputSerializer(StrictInput):
    sheet = SheetField()
    compare = SheetField(
        required=False,
        help_text="This phone's own sheet, when it checks another's: the answer's difference "
        "names where ``sheet`` first differs from it.",
    )


class ScoreLimitsSerializer(serializers.Serializer[Any]):
    placement = serializers.IntegerField(help_text="The most any placement can score.")
    rare = serializers.IntegerField(help_text="A placement score above this is rare.")


class SheetVerifyOutputSerializer(serializers.Serializer[Any]):
    verdict = VerdictSerializer()
    complete = serializers.BooleanField(help_text="Valid and finished: it would be submitted.")
    running = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(), allow_null=True),
        help_text="The engine's scores (raw) after each hand; null from a hand with a fault on.",
    )
    time_last_hand = serializers.IntegerField(
        allow_null=True,
        help_text="With time called on the sheet: the index of the last hand the match plays, "
        "as the engine applies the time policy (null without time called).",
    )
    warnings = VerdictErrorSerializer(
        many=True,
        help_text="Claims the engine accepts but that are rare (a tally score above what a "
        "layout with two doubles in the line can make): 'check this', not faults.",
    )
    limits = ScoreLimitsSerializer(help_text="The rule set's score limits (raw points).")
    difference = serializers.DictField(
        allow_null=True,
        help_text="With ``compare``: the first difference in words (hand, move, what, text: "
        '"Hand 3, play 2: your sheet gives 2 to Ana (N); theirs gives 2 to Luis (S)"), or '
        "null when the two sheets agree or none was given.",
    )


class ClaimSubmitInputSerializer(StrictInput):
    side = serializers.IntegerField(
        min_value=0,
        max_value=3,
        required=False,
        help_text="0: entry_a (side A), 1: entry_b (side B); at a table of many, the seat (0-3). "
        "Defaults to the link's own side; another is refused (403 not_your_side).",
    )
    sheet = SheetField(required=False)
    final_score = FinalScoreSerializer(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return sheet_or_final_score(attrs)


def final_score_of(value: dict[str, Any] | None) -> dict[str, Any] | None:
    if value is None:
        return None
    return {k: v for k, v in value.items()}


class ClaimConfirmInputSerializer(StrictInput):
    side = serializers.IntegerField(
        min_value=0,
        max_value=3,
        required=False,
        help_text="The confirming side (it confirms the other side's claim). Defaults to the "
        "link's own side; the other side is refused (403 not_your_side).",
    )
    of_side = serializers.IntegerField(
        min_value=0,
        max_value=3,
        required=False,
        help_text="At a table of many: the seat whose claim is confirmed (when omitted: the "
        "other players' claim when they all sent the same, else 400 confirm_whose).",
    )


# A reason is text a person wrote: at least one visible character and no NUL (a database cannot
# store it; lone surrogates are refused too, but JSON text from a conforming client has none).
# The schema says so (minLength, pattern), so a request valid by the schema is one the API takes.
STORABLE_TEXT = r"^[^\x00]*[^\s\x00][^\x00]*$"


class TextField(serializers.CharField):
    """A string, and only a string: DRF's ``CharField`` would take the number 5 as "5", which
    the schema (``type: string``) refuses, so the API refuses it too."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class NumberField(serializers.IntegerField):
    """A JSON integer, and only that (not "5" or true, which DRF would take; 5.0 is one, as
    JSON Schema counts it)."""

    def to_internal_value(self, data: Any) -> int:
        whole = isinstance(data, int) or (isinstance(data, float) and data.is_integer())
        if isinstance(data, bool) or not whole:
            self.fail("invalid")
        return int(super().to_internal_value(data))


class FlagField(serializers.BooleanField):
    """A JSON true or false, and only that (not "yes" or 1, which DRF would take)."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


def reason_field(help_text: str = "Why (goes in the audit log).") -> serializers.CharField:
    return TextField(
        min_length=1,
        max_length=2000,
        validators=[RegexValidator(STORABLE_TEXT, message="Give a reason (some visible text).")],
        help_text=help_text,
    )


class ResultResolveInputSerializer(StrictInput):
    side = serializers.IntegerField(
        min_value=0, max_value=3, help_text="Whose claim stands (a seat 0-3 at a table of many)."
    )
    reason = reason_field()


class ResultEntryInputSerializer(StrictInput):
    sheet = SheetField(required=False)
    final_score = FinalScoreSerializer(required=False)
    reason = reason_field()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return sheet_or_final_score(attrs)


class ResultForfeitInputSerializer(StrictInput):
    forfeited = serializers.ChoiceField(
        choices=["a", "b", "both"],
        help_text="Who forfeited: a (entry_a), b (entry_b) or both (a double forfeit: 0-0, no "
        "winner; refused in a play-off match, 400 bracket_needs_winner).",
    )
    no_show = serializers.BooleanField(
        default=False,
        help_text="The side that forfeited did not show up: its entry is also withdrawn from "
        "later rounds (a or b only).",
    )
    reason = reason_field()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("no_show") and attrs["forfeited"] == "both":
            raise serializers.ValidationError({"no_show": ["A no-show is one side's: say a or b."]})
        return attrs


class RoundLinksRevokeInputSerializer(StrictInput):
    reason = reason_field("Why the links are replaced (goes in the audit log).")


class RoundLinksRevokeOutputSerializer(serializers.Serializer[Any]):
    revoked = serializers.BooleanField()
