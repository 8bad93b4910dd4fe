"""The results API: tables submit, verify and confirm; directors list, resolve, override, correct.

Endpoints (all under ``/api/``; errors are ``{code, message, details}``):

    GET  table/                                  TableMatchApi        the table token's match
    GET  matches/<id>/                           MatchDetailApi       a match's state
    POST matches/<id>/verify/                    SheetVerifyApi       dry run: sheet in, verdict out
    GET  matches/<id>/claims/                    MatchClaimsApi       every claim version
    POST matches/<id>/claims/                    MatchClaimsApi       table: submit a side's claim
    POST matches/<id>/confirm/                   ClaimConfirmApi      table: confirm the other's
    POST matches/<id>/resolve/                   ResultResolveApi     director: pick a side's claim
    POST matches/<id>/override/                  ResultOverrideApi    director: arbitral result
    POST matches/<id>/correct/                   ResultCorrectApi     director: correct a result
    GET  events/<slug>/rounds/<n>/matches/       RoundMatchListApi    director: the round's board
    GET  events/<slug>/rounds/<n>/claims/        RoundClaimListApi    director: every claim
    POST events/<slug>/rounds/<n>/revoke-links/  RoundLinksRevokeApi  director: new table links

Writes take ``Idempotency-Key`` (required for submit and confirm) and ``If-Match`` (the version
changed: a side's claim version for submit, the other side's claim version for confirm, the
result version for override/correct); a claim answer carries its version as ``ETag``.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.authentication import TableTokenAuthentication, table_access
from tournaments.api.errors import ERROR
from tournaments.api.idempotency import etag, parse_version, run_idempotent
from tournaments.api.parsers import SafeJSONParser
from tournaments.api.permissions import (
    DirectorOnly,
    OwnTableOrDirector,
    TableOnly,
    TableOnlyToWrite,
)
from tournaments.api.throttles import TableTokenThrottle
from tournaments.errors import ValidationFailed
from tournaments.game import expected_game
from tournaments.models import Claim, Match, MatchResult, Round
from tournaments.results_math import from_halves
from tournaments.selectors import results as selectors
from tournaments.services import assessment, claims, decisions, table_links
from tournaments.services import results as services

IDEMPOTENCY_REQUIRED = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="A new random value per submission; the same value on a retry gets the same "
    "answer. 1-200 of A-Z a-z 0-9 . _ : -",
)
IDEMPOTENCY_OPTIONAL = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Optional: the same value on a retry gets the same answer.",
)


def if_match(what: str, *, required: bool = False) -> OpenApiParameter:
    return OpenApiParameter(
        "If-Match",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        required=required,
        description=f'The version of {what} this request changes, e.g. "2".',
    )


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(ERROR) for code in codes}


# --- Input checks -------------------------------------------------------------------------


def check_json_tree(value: Any) -> None:
    """Refuse JSON no database can keep or no person meant (``assessment.check_sheet_tree``)."""
    try:
        assessment.check_sheet_tree(value)
    except ValidationFailed as exc:
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


class FinalScoreSerializer(serializers.Serializer[Any]):
    """A final score only: raw points per side (halves allowed), unverified."""

    scores = serializers.ListField(
        child=serializers.FloatField(min_value=-100_000, max_value=100_000),
        min_length=2,
        max_length=2,
        help_text="Raw points of side 0 (entry_a) and side 1 (entry_b).",
    )
    winner = serializers.IntegerField(
        min_value=0,
        max_value=1,
        allow_null=True,
        required=False,
        help_text="Optional: must be the higher side (null: drawn).",
    )


def _one_of(data: dict[str, Any]) -> dict[str, Any]:
    if ("sheet" in data) == ("final_score" in data):
        raise serializers.ValidationError(
            {"sheet": ["Send exactly one of 'sheet' and 'final_score'."]}
        )
    return data


# --- Output -------------------------------------------------------------------------------


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


def _scores(obj: Claim | MatchResult) -> list[int | float] | None:
    if obj.score_a_halves is None or obj.score_b_halves is None:
        return None
    return [from_halves(obj.score_a_halves) or 0, from_halves(obj.score_b_halves) or 0]


class ClaimOutputSerializer(serializers.ModelSerializer[Claim]):
    scores = serializers.SerializerMethodField(help_text="Raw points per side (halves as .5).")
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
        return _scores(obj)


class ResultOutputSerializer(serializers.ModelSerializer[MatchResult]):
    scores = serializers.SerializerMethodField(help_text="Raw points per side (halves as .5).")
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
            "reason",
            "created_at",
        ]

    @extend_schema_field(serializers.ListField(child=serializers.FloatField()))
    def get_scores(self, obj: MatchResult) -> list[int | float] | None:
        return _scores(obj)


class SideEntrySerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField(help_text="0: entry_a (seats 0 and 2), 1: entry_b.")
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
        return ClaimOutputSerializer(found).data if found is not None else None

    sides = [{"side": 0, "entry": match.entry_a_id, "name": match.entry_a.name, "claim": claim(0)}]
    if match.entry_b is not None:
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
        "result": ResultOutputSerializer(board.result).data if board.result else None,
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


class TableMatchSerializer(serializers.Serializer[Any]):
    event = serializers.CharField()
    event_name = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    game = GameSerializer(help_text="What every sheet of this event must say.")
    match = MatchStateSerializer(allow_null=True)


# --- Base views ---------------------------------------------------------------------------


class ResultsApi(APIView):
    """Shared: authentication (table tokens first), throttling per table, object checks, and
    a JSON parser that answers 400 for a body nested too deeply."""

    parser_classes = [SafeJSONParser, FormParser, MultiPartParser]

    authentication_classes = [
        TableTokenAuthentication,
        TokenAuthentication,
        SessionAuthentication,
    ]
    permission_classes = [OwnTableOrDirector]
    throttle_classes = [TableTokenThrottle]
    throttle_scope = "table_token"

    def get_match(self, request: Request, match_id: int) -> Match:
        match = get_object_or_404(
            Match.objects.select_related("round__event", "table", "entry_a", "entry_b"),
            pk=match_id,
        )
        self.check_object_permissions(request, match)
        return match

    def board(self, match: Match) -> dict[str, Any]:
        board = selectors.match_board(match.pk)
        assert board is not None
        return match_state(board)


class DirectorApi(ResultsApi):
    permission_classes = [DirectorOnly]
    throttle_classes = []


# --- Tables (directors read) ---------------------------------------------------------------


class TableMatchApi(ResultsApi):
    permission_classes = [TableOnly]

    @extend_schema(
        operation_id="table_match",
        summary="The table token's round, table, game and match",
        responses={200: TableMatchSerializer, **errors(401, 403, 429)},
        tags=["tables"],
    )
    def get(self, request: Request) -> Response:
        access = table_access(request)
        assert access is not None
        event = access.round.event
        game = expected_game(event)
        board = selectors.match_board(access.match_id) if access.match_id else None
        return Response(
            {
                "event": event.slug,
                "event_name": event.name,
                "round": access.round.number,
                "table": access.table.number,
                "game": {
                    **game,
                    "time_policy": event.time_policy,
                    "allow_final_score_only": event.allow_final_score_only,
                },
                "match": match_state(board) if board is not None else None,
            }
        )


class MatchDetailApi(ResultsApi):
    @extend_schema(
        operation_id="match_detail",
        summary="A match's state: each side's current claim, the result, the divergence",
        responses={200: MatchStateSerializer, **errors(401, 403, 404, 429)},
        tags=["results"],
    )
    def get(self, request: Request, match_id: int) -> Response:
        return Response(self.board(self.get_match(request, match_id)))


class SheetVerifyInputSerializer(serializers.Serializer[Any]):
    sheet = SheetField()


class SheetVerifyOutputSerializer(serializers.Serializer[Any]):
    verdict = VerdictSerializer()
    complete = serializers.BooleanField(help_text="Valid and finished: it would be submitted.")


class SheetVerifyApi(ResultsApi):
    @extend_schema(
        operation_id="sheet_verify",
        summary="Dry run: the engine's verdict on a sheet for this match (nothing is stored)",
        request=SheetVerifyInputSerializer,
        responses={200: SheetVerifyOutputSerializer, **errors(400, 401, 403, 404, 429)},
        tags=["results"],
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = self.get_match(request, match_id)
        data = SheetVerifyInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        found = assessment.assess_sheet(match.round.event, data.validated_data["sheet"])
        return Response({"verdict": found.verdict, "complete": found.complete})


class ClaimSubmitInputSerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField(min_value=0, max_value=1, help_text="0: entry_a, 1: entry_b.")
    sheet = SheetField(required=False)
    final_score = FinalScoreSerializer(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return _one_of(attrs)


class MatchClaimsApi(ResultsApi):
    """GET: the table or a director; POST: the table only (``table_link_required``)."""

    permission_classes = [OwnTableOrDirector, TableOnlyToWrite]

    @extend_schema(
        operation_id="match_claims_list",
        summary="Every claim version of a match, oldest first",
        responses={200: ClaimOutputSerializer(many=True), **errors(401, 403, 404, 429)},
        tags=["results"],
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = self.get_match(request, match_id)
        board = selectors.match_board(match.pk)
        assert board is not None
        return Response(ClaimOutputSerializer(board.history, many=True).data)

    @extend_schema(
        operation_id="match_claims_submit",
        summary="Submit one side's claim: a sheet (verified now) or a final score (unverified)",
        description=(
            "Table link only (a director resolves, overrides or corrects instead). "
            "201: a new claim version was stored (a draft when the sheet is invalid or "
            "unfinished: see its verdict); 400 sheet_mismatch: a sheet for another game, kept "
            "as a draft all the same (details: fields, and the draft claim; ETag its version); "
            "200: the same claim was already there. Both sides' "
            "equal claims confirm the result; different ones put the match in conflict. "
            "If-Match: the side's current claim version (omit for its first claim)."
        ),
        request=ClaimSubmitInputSerializer,
        parameters=[IDEMPOTENCY_REQUIRED, if_match("this side's current claim")],
        responses={
            201: ClaimAnswerSerializer,
            200: ClaimAnswerSerializer,
            **errors(400, 401, 403, 404, 409, 412, 422, 428, 429),
        },
        tags=["results"],
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = self.get_match(request, match_id)
        data = ClaimSubmitInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        expected = parse_version(request)

        def submit() -> Response:
            out = claims.submit_claim(
                match=match,
                side=values["side"],
                sheet=values.get("sheet"),
                final_score=_final(values.get("final_score")),
                expected_version=expected,
            )
            claim = ClaimOutputSerializer(out.claim).data
            if out.refusal is not None:
                # A sheet for another game: kept as a draft (returned, not raised, so that the
                # draft is not rolled back), and the client gets the error with its details.
                refused = out.refusal.as_dict()
                details = refused["details"] if isinstance(refused["details"], dict) else {}
                refused["details"] = {**details, "claim": claim, "created": out.created}
                return Response(
                    refused, status=out.refusal.status, headers={"ETag": etag(out.claim.version)}
                )
            return Response(
                {"claim": claim, "created": out.created, "match": self.board(match)},
                status=status.HTTP_201_CREATED if out.created else status.HTTP_200_OK,
                headers={"ETag": etag(out.claim.version)},
            )

        return run_idempotent(request, submit)


def _final(value: dict[str, Any] | None) -> dict[str, Any] | None:
    if value is None:
        return None
    return {k: v for k, v in value.items()}


class ClaimConfirmInputSerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField(
        min_value=0, max_value=1, help_text="The confirming side (the other side's claim)."
    )


class ClaimConfirmApi(ResultsApi):
    """The table only (a director gets ``table_link_required``)."""

    permission_classes = [OwnTableOrDirector, TableOnlyToWrite]

    @extend_schema(
        operation_id="claim_confirm",
        summary="The other side confirms the first claim as it stands",
        description="Table link only. If-Match: the version of the other side's claim being "
        "confirmed.",
        request=ClaimConfirmInputSerializer,
        parameters=[IDEMPOTENCY_REQUIRED, if_match("the other side's claim", required=True)],
        responses={
            201: ClaimAnswerSerializer,
            200: ClaimAnswerSerializer,
            **errors(400, 401, 403, 404, 409, 412, 422, 428, 429),
        },
        tags=["results"],
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = self.get_match(request, match_id)
        data = ClaimConfirmInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        expected = parse_version(request)
        if expected is None:
            raise services.VersionRequired(
                "Say which version of the other side's claim you confirm (If-Match)."
            )

        def confirm() -> Response:
            out = claims.confirm_claim(
                match=match,
                side=data.validated_data["side"],
                expected_version=expected,
            )
            return Response(
                {
                    "claim": ClaimOutputSerializer(out.claim).data,
                    "created": out.created,
                    "match": self.board(match),
                },
                status=status.HTTP_201_CREATED if out.created else status.HTTP_200_OK,
                headers={"ETag": etag(out.claim.version)},
            )

        return run_idempotent(request, confirm)


# --- The director -------------------------------------------------------------------------


class ResultResolveInputSerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField(min_value=0, max_value=1, help_text="Whose claim stands.")
    reason = serializers.CharField(max_length=2000, help_text="Why (goes in the audit log).")


class ResultResolveApi(DirectorApi):
    @extend_schema(
        operation_id="result_resolve",
        summary="Director: settle a conflict (or a one-sided match) with a side's claim",
        request=ResultResolveInputSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL],
        responses={201: ResultAnswerSerializer, **errors(400, 401, 403, 404, 409, 422)},
        tags=["director"],
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = self.get_match(request, match_id)
        data = ResultResolveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)

        def resolve() -> Response:
            result = decisions.resolve_conflict(
                match=match,
                side=data.validated_data["side"],
                reason=data.validated_data["reason"],
                actor=request.user,
            )
            return self.answer(match, result)

        return run_idempotent(request, resolve, required=False)

    def answer(self, match: Match, result: MatchResult) -> Response:
        return Response(
            {"result": ResultOutputSerializer(result).data, "match": self.board(match)},
            status=status.HTTP_201_CREATED,
            headers={"ETag": etag(result.version)},
        )


class ResultEntryInputSerializer(serializers.Serializer[Any]):
    sheet = SheetField(required=False)
    final_score = FinalScoreSerializer(required=False)
    reason = serializers.CharField(max_length=2000, help_text="Why (goes in the audit log).")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        return _one_of(attrs)


class ResultOverrideApi(ResultResolveApi):
    @extend_schema(
        operation_id="result_override",
        summary="Director: enter an arbitral result (a valid finished sheet, or a final score)",
        description="If-Match: the current result's version when the match has one.",
        request=ResultEntryInputSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL, if_match("the match's current result")],
        responses={201: ResultAnswerSerializer, **errors(400, 401, 403, 404, 409, 412, 422, 428)},
        tags=["director"],
    )
    def post(self, request: Request, match_id: int) -> Response:
        return self.enter(request, match_id, decisions.override_result)

    def enter(
        self, request: Request, match_id: int, service: Any, *, version_required: bool = False
    ) -> Response:
        """Validate a director's result (sheet or final score, and a reason), then call
        ``service`` (override or correct) once per idempotency key."""
        match = self.get_match(request, match_id)
        data = ResultEntryInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        expected = parse_version(request)
        if version_required and expected is None:
            raise services.VersionRequired("Say which result version you correct (If-Match).")

        def write() -> Response:
            result = service(
                match=match,
                sheet=values.get("sheet"),
                final_score=_final(values.get("final_score")),
                reason=values["reason"],
                actor=request.user,
                expected_version=expected,
            )
            return self.answer(match, result)

        return run_idempotent(request, write, required=False)


class ResultCorrectApi(ResultOverrideApi):
    @extend_schema(
        operation_id="result_correct",
        summary="Director: correct a confirmed result (a new version; the old one is kept)",
        request=ResultEntryInputSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL, if_match("the result being corrected", required=True)],
        responses={201: ResultAnswerSerializer, **errors(400, 401, 403, 404, 409, 412, 422, 428)},
        tags=["director"],
    )
    def post(self, request: Request, match_id: int) -> Response:
        return self.enter(request, match_id, decisions.correct_result, version_required=True)


class RoundApi(DirectorApi):
    def get_round(self, request: Request, slug: str, number: int) -> Round:
        round_ = get_object_or_404(
            Round.objects.select_related("event"), event__slug=slug, number=number
        )
        self.check_object_permissions(request, round_)
        return round_


class RoundMatchListApi(RoundApi):
    @extend_schema(
        operation_id="round_matches",
        summary="Director: every match of a round with its state (the entry board)",
        responses={200: MatchStateSerializer(many=True), **errors(401, 403, 404)},
        tags=["director"],
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        round_ = self.get_round(request, slug, number)
        return Response([match_state(b) for b in selectors.round_board(round_)])


class RoundClaimListApi(RoundApi):
    @extend_schema(
        operation_id="round_claims",
        summary="Director: every claim version of a round",
        responses={200: ClaimOutputSerializer(many=True), **errors(401, 403, 404)},
        tags=["director"],
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        round_ = self.get_round(request, slug, number)
        history = [c for b in selectors.round_board(round_) for c in b.history]
        return Response(ClaimOutputSerializer(history, many=True).data)


class RoundLinksRevokeInputSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=2000)


class RoundLinksRevokeOutputSerializer(serializers.Serializer[Any]):
    revoked = serializers.BooleanField()


class RoundLinksRevokeApi(RoundApi):
    @extend_schema(
        operation_id="round_links_revoke",
        summary="Director: revoke every table link of a round (new links work at once)",
        request=RoundLinksRevokeInputSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL],
        responses={200: RoundLinksRevokeOutputSerializer, **errors(400, 401, 403, 404, 422)},
        tags=["director"],
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        round_ = self.get_round(request, slug, number)
        data = RoundLinksRevokeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)

        def revoke() -> Response:
            table_links.revoke_table_links(
                round_=round_, actor=request.user, reason=data.validated_data["reason"]
            )
            return Response({"revoked": True})

        return run_idempotent(request, revoke, required=False)


__all__ = [
    "ClaimConfirmApi",
    "MatchClaimsApi",
    "MatchDetailApi",
    "ResultCorrectApi",
    "ResultOverrideApi",
    "ResultResolveApi",
    "RoundClaimListApi",
    "RoundLinksRevokeApi",
    "RoundMatchListApi",
    "SheetVerifyApi",
    "TableMatchApi",
    "ValidationFailed",
]
