"""The director's endpoints of the results API: resolve a conflict, override or correct a
result (a sheet, or a final score in RAW points as the scoresheet keeps them), record a forfeit,
list a round's matches and claims, revoke its table links."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import DirectorApi
from tournaments.api.idempotency import etag, parse_version, run_idempotent
from tournaments.api.serializers import (
    IDEMPOTENCY_OPTIONAL,
    ClaimOutputSerializer,
    MatchStateSerializer,
    ResultAnswerSerializer,
    ResultEntryInputSerializer,
    ResultForfeitInputSerializer,
    ResultOutputSerializer,
    ResultResolveInputSerializer,
    RoundLinksRevokeInputSerializer,
    RoundLinksRevokeOutputSerializer,
    errors,
    final_score_of,
    if_match,
    match_state,
)
from tournaments.models import Match, MatchResult, Round
from tournaments.selectors import results as selectors
from tournaments.services import decisions, forfeits, table_links
from tournaments.services import results as services


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
                final_score=final_score_of(values.get("final_score")),
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


class ResultForfeitApi(ResultResolveApi):
    @extend_schema(
        operation_id="result_forfeit",
        summary="Director: record a forfeit, a double forfeit or a no-show (with a reason)",
        description="The side that turned up wins by the event's forfeit score to 0; a double "
        "forfeit is 0-0 with no winner; a no-show also withdraws the absent entry. If-Match: "
        "the current result's version when the match has one (the forfeit corrects it).",
        request=ResultForfeitInputSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL, if_match("the match's current result")],
        responses={201: ResultAnswerSerializer, **errors(400, 401, 403, 404, 409, 412, 422, 428)},
        tags=["director"],
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = self.get_match(request, match_id)
        data = ResultForfeitInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        expected = parse_version(request)

        def write() -> Response:
            common = {
                "match": match,
                "reason": values["reason"],
                "actor": request.user,
                "expected_version": expected,
            }
            if values["forfeited"] == "both":
                result = forfeits.record_double_forfeit(**common)
            elif values["no_show"]:
                result = forfeits.record_no_show(side="ab".index(values["forfeited"]), **common)
            else:
                result = forfeits.record_forfeit(side="ab".index(values["forfeited"]), **common)
            return self.answer(match, result)

        return run_idempotent(request, write, required=False)


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
        return Response(ClaimOutputSerializer(selectors.round_claims(round_), many=True).data)


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
