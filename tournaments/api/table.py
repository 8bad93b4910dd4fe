"""The table's endpoints of the results API: a table (with its table link's token) reads its
match, verifies a sheet, submits its side's claim and confirms the other side's; directors read.

Endpoints (all under ``/api/``; errors are ``{code, message, details}``):

    GET  table/                                  TableMatchApi        the table token's match
    GET  matches/<id>/                           MatchDetailApi       a match's state
    POST matches/<id>/verify/                    SheetVerifyApi       dry run: sheet in, verdict out
    GET  matches/<id>/claims/                    MatchClaimsApi       every claim version
    POST matches/<id>/claims/                    MatchClaimsApi       side link: submit its claim
    POST matches/<id>/confirm/                   ClaimConfirmApi      side link: confirm the other's
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

from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import game
from tournaments.api.authentication import table_access
from tournaments.api.base import ResultsApi
from tournaments.api.claim_data import claim_data
from tournaments.api.idempotency import etag, parse_version, run_idempotent
from tournaments.api.permissions import (
    OwnTableOrDirector,
    TableOnly,
    TableOnlyToWrite,
)
from tournaments.api.serializers import (
    IDEMPOTENCY_REQUIRED,
    ClaimAnswerSerializer,
    ClaimConfirmInputSerializer,
    ClaimOutputSerializer,
    ClaimSubmitInputSerializer,
    MatchStateSerializer,
    SheetVerifyInputSerializer,
    SheetVerifyOutputSerializer,
    TableMatchSerializer,
    errors,
    final_score_of,
    if_match,
    match_state,
)
from tournaments.presenters import table as table_pages
from tournaments.selectors import results as selectors
from tournaments.selectors.desk import round_clock
from tournaments.services import assessment, claims
from tournaments.services import results as services


def acting_side(request: Request, side: int | None) -> int:
    """The side a table link writes as: its own (``not_your_side`` for the other one)."""
    access = table_access(request)
    assert access is not None  # TableOnlyToWrite let only table links this far
    if side is not None:
        access.check_side(side)
    return access.side


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
        expected = game.expected_game(event, access.match)  # read with the token
        board = selectors.match_board(access.match_id) if access.match_id else None
        return Response(
            {
                "event": event.slug,
                "event_name": event.name,
                "round": access.round.number,
                "table": access.table.number,
                "side": access.side,
                "side_names": board.side_names if board is not None else [],
                "game": {
                    **expected,
                    "time_policy": event.time_policy,
                    "allow_final_score_only": event.allow_final_score_only,
                },
                "match": match_state(board) if board is not None else None,
                "clock": round_clock(access.round).as_dict(),
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
        sheet = data.validated_data["sheet"]
        with assessment.tree_checked(sheet):  # by its SheetField
            found = assessment.assess_sheet(match.round.event, sheet, match=match)
        running = game.running_scores(sheet)
        compare = data.validated_data.get("compare")
        return Response(
            {
                "verdict": found.verdict,
                "complete": found.complete,
                "running": running,
                "time_last_hand": game.time_last_hand(sheet),
                "warnings": list(found.warnings),
                "limits": game.score_limits(match.round.event),
                "difference": None
                if compare is None
                else table_pages.own_difference(match, compare, sheet),
            }
        )


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
        side = acting_side(request, values.get("side"))
        expected = parse_version(request)

        def submit() -> Response:
            with assessment.tree_checked(values.get("sheet")):  # by its SheetField
                out = claims.submit_claim(
                    match=match,
                    side=side,
                    sheet=values.get("sheet"),
                    final_score=final_score_of(values.get("final_score")),
                    expected_version=expected,
                    device=request.headers.get("X-Spinner-Device", ""),
                )
            claim = claim_data(out.claim)
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
                {"claim": claim, "created": out.created, "match": self.board_after(match, out)},
                status=status.HTTP_201_CREATED if out.created else status.HTTP_200_OK,
                headers={"ETag": etag(out.claim.version)},
            )

        return run_idempotent(request, submit)


class ClaimConfirmApi(ResultsApi):
    """The table only (a director gets ``table_link_required``)."""

    permission_classes = [OwnTableOrDirector, TableOnlyToWrite]

    @extend_schema(
        operation_id="claim_confirm",
        summary="The other side confirms the first claim as it stands",
        description="Table link only. If-Match: the version of the other side's claim being "
        "confirmed. At a table of three or four players, a seat confirms another seat's claim "
        "(of_side); the result is confirmed once every other player holds it, or most of them, "
        "as the event says (table_confirmation).",
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
        side = acting_side(request, data.validated_data.get("side"))
        expected = parse_version(request)
        if expected is None:
            raise services.VersionRequired(
                "Say which version of the other side's claim you confirm (If-Match)."
            )

        def confirm() -> Response:
            out = claims.confirm_claim(
                match=match,
                side=side,
                expected_version=expected,
                of_side=data.validated_data.get("of_side"),
                device=request.headers.get("X-Spinner-Device", ""),
            )
            return Response(
                {
                    "claim": claim_data(out.claim),
                    "created": out.created,
                    "match": self.board_after(match, out),
                },
                status=status.HTTP_201_CREATED if out.created else status.HTTP_200_OK,
                headers={"ETag": etag(out.claim.version)},
            )

        return run_idempotent(request, confirm)
