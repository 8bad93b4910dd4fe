"""The play-off's next round and the event's finish through the API.

    POST events/<slug>/playoff/advance/   PlayoffAdvanceApi  close the decided play-off round,
                                                              draft the next (the rounds page's
                                                              "Next play-off round")
    GET  events/<slug>/finish/            EventFinishApi     may it finish now, with which placings
    POST events/<slug>/finish/            EventFinishApi     freeze the final placings ("Finish
                                                              the event")

Seeding the play-off and proposing a tiebreak round are jobs: ``POST rounds/generate/`` with
``kind`` ``playoff`` or ``tiebreak`` (``tournaments.api.rounds``).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.idempotency import run_idempotent
from tournaments.api.round_serializers import (
    EventFinishedSerializer,
    FinishCheckSerializer,
    RoundAnswerSerializer,
    RoundSummarySerializer,
    round_url,
)
from tournaments.api.rounds import TAGS, DirectorEventApi
from tournaments.api.serializers import IDEMPOTENCY_OPTIONAL, errors
from tournaments.selectors.final_placings import finish_check, placings_json, unplayed_matches
from tournaments.services import finish, playoff_rounds


class PlayoffAdvanceApi(DirectorEventApi):
    @extend_schema(
        operation_id="playoff_advance",
        summary="Director: close the decided play-off round and draft the next one",
        description=(
            "201: the new play-off round, a draft to review and publish (``Location``: its "
            "review). The worker drafts it by itself once the last result of the round before "
            "is confirmed; this is the page's button for when it has not (yet). Refusals: "
            "playoff_needs_seeding, previous_round_open, playoff_round_draft (publish the "
            "draft first), playoff_round_in_play (details.matches: undecided), "
            "playoff_finished (finish the event)."
        ),
        request=None,
        parameters=[IDEMPOTENCY_OPTIONAL],
        responses={201: RoundAnswerSerializer, **errors(400, 401, 403, 404, 409, 422)},
        tags=TAGS,
    )
    def post(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)

        def advance() -> Response:
            rnd = playoff_rounds.advance_playoff(event=event, actor=request.user)
            return Response(
                {"round": RoundSummarySerializer(rnd).data},
                status=status.HTTP_201_CREATED,
                headers={"Location": round_url(rnd)},
            )

        return run_idempotent(request, advance, required=False)


FINISHED_EXAMPLE = OpenApiExample(
    "Finished",
    value={
        "event": "winter-open",
        "status": "finished",
        "finished_at": "2026-12-05T18:40:00Z",
        "placings": [
            {
                "place": 1,
                "entry_id": 7,
                "name": "Double Six",
                "eliminated_in": None,
                "shared": False,
            },
            {
                "place": 2,
                "entry_id": 3,
                "name": "The Spinners",
                "eliminated_in": "F",
                "shared": False,
            },
        ],
    },
    response_only=True,
)


class EventFinishApi(DirectorEventApi):
    @extend_schema(
        operation_id="event_finish_check",
        summary="Director: may the event finish now, and with which placings",
        responses={200: FinishCheckSerializer, **errors(401, 403, 404)},
        tags=TAGS,
    )
    def get(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)
        check = finish_check(event)
        return Response(
            {
                "ready": check.ready,
                "error": check.error.as_dict() if check.error is not None else None,
                "placings": placings_json(event, check.places) if check.ready else [],
                "unplayed": unplayed_matches(event) if check.ready else [],
            }
        )

    @extend_schema(
        operation_id="event_finish",
        summary="Director: finish the event (its final placings are frozen and published)",
        description=(
            "Once the play-off's final has a confirmed winner (without a play-off: once every "
            "Swiss round is closed). The last open rounds whose results are all in are closed. "
            "A finished event takes no further result but a director's correction. Refusals: "
            "event_finished, main_rounds_open, playoff_needs_seeding, playoff_not_decided."
        ),
        request=None,
        parameters=[IDEMPOTENCY_OPTIONAL],
        examples=[FINISHED_EXAMPLE],
        responses={200: EventFinishedSerializer, **errors(400, 401, 403, 404, 409, 422)},
        tags=TAGS,
    )
    def post(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)

        def finish_now() -> Response:
            done = finish.finish_event(event=event, actor=request.user)
            answer = {
                "event": done.slug,
                "status": done.status,
                "finished_at": done.finished_at,
                "placings": done.placings,
            }
            return Response(EventFinishedSerializer(answer).data)

        return run_idempotent(request, finish_now, required=False)
