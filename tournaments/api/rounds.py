"""The director's rounds through the API: the rounds page, generation as a background job,
the review, swaps with a reason, publish / start / close / discard, and the round clock.

Endpoints (all under ``/api/events/<slug>/``; the director's token; errors ``{code, message,
details}``; every write takes an optional ``Idempotency-Key``):

    GET  rounds/                         RoundListApi      the rounds, with status (cursor pages)
    POST rounds/generate/                RoundGenerateApi  202: a job (next, play-off, tiebreak)
    GET  jobs/<id>/                      JobDetailApi      a job's status, progress and round
    GET  rounds/<n>/                     RoundDetailApi    the review: tables, checks, explanation
    GET  rounds/<n>/links/               RoundLinksApi     each table's two side links
    POST rounds/<n>/swap/                RoundSwapApi      swap two entries or tables (a reason)
    POST rounds/<n>/<action>/            RoundActionApi    publish, start, close, discard
    POST rounds/<n>/clock/<action>/      RoundClockApi     start, pause, resume, extend, end

Each write is the service the pages call (``round_generation``, ``playoffs``,
``tiebreak_rounds``, ``round_edits``, ``round_status``, ``round_clock``), with their audit
entries and error codes. Rounds have no versions: the services refuse a move from the wrong
status (``round_not_draft``, ``round_not_published``...), which is what ``If-Match`` guards
elsewhere.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.director import RoundApi
from tournaments.api.idempotency import run_idempotent
from tournaments.api.pagination import Keyset, PageQuerySerializer, query_of
from tournaments.api.permissions import DirectorOnly
from tournaments.api.round_serializers import (
    CLOCK_ACTIONS,
    GENERATE_EXAMPLES,
    GENERATE_KINDS,
    ROUND_ACTIONS,
    SWAP_EXAMPLES,
    ClockInputSerializer,
    JobAnswerSerializer,
    JobSerializer,
    RoundActionInputSerializer,
    RoundClockAnswerSerializer,
    RoundDetailSerializer,
    RoundGenerateInputSerializer,
    RoundListQuerySerializer,
    RoundPageSerializer,
    RoundSummarySerializer,
    RoundSwapInputSerializer,
    SwapPreviewSerializer,
    TableLinksSerializer,
    job_url,
)
from tournaments.api.serializers import IDEMPOTENCY_OPTIONAL, errors
from tournaments.game import side_letter
from tournaments.models import ApiToken, BackgroundJob, Event, Round
from tournaments.permissions import can_direct, read_only_staff_error
from tournaments.selectors import rounds as selectors
from tournaments.selectors.desk import round_clock as clock_now
from tournaments.services import (
    playoffs,
    round_clock,
    round_edits,
    round_generation,
    round_status,
    table_links,
    tiebreak_rounds,
)

TAGS = ["director"]

STARTERS: dict[str, Any] = {
    "next": round_generation.start_round_generation,
    "playoff": playoffs.start_playoff_seeding,
    "tiebreak": tiebreak_rounds.start_tiebreak_proposal,
}
"""The service that starts each kind of ``GENERATE_KINDS``' job."""
assert set(STARTERS) == set(GENERATE_KINDS)


class DirectorEventApi(RoundApi):
    """A director's endpoint of one event (its rounds, jobs, play-off)."""

    def get_event(self, request: Request, slug: str) -> Event:
        event = get_object_or_404(Event, slug=slug)
        self.check_object_permissions(request, event)
        return event


ROUNDS = Keyset("rounds", ("number",))


class RoundListApi(DirectorEventApi):
    @extend_schema(
        operation_id="round_list",
        summary="Director: the event's rounds with their status (cursor pages)",
        description="Filter by ``status`` or ``kind``; follow ``next`` until it is null.",
        parameters=[RoundListQuerySerializer, PageQuerySerializer],
        responses={200: RoundPageSerializer, **errors(400, 401, 403, 404)},
        tags=TAGS,
    )
    def get(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)
        query = RoundListQuerySerializer(data=query_of(request))
        query.is_valid(raise_exception=True)
        rounds = selectors.rounds_with_counts(event).select_related("event")
        for name in ("status", "kind"):
            if name in query.validated_data:
                rounds = rounds.filter(**{name: query.validated_data[name]})
        page = ROUNDS.page(request, rounds)
        return Response(page.body(RoundSummarySerializer(page.rows, many=True).data))


class RoundGenerateApi(DirectorEventApi):
    @extend_schema(
        operation_id="round_generate",
        summary="Director: start generating a round (a background job; poll its URL)",
        description=(
            "202 with the job and its URL (``Location``). ``kind`` says what the rounds and "
            "standings pages would start: "
            + "; ".join(f"``{k}``: {v}" for k, v in GENERATE_KINDS.items())
            + ". The round the job makes is a draft: review it, then publish it. Refusals: "
            "previous_round_open, too_few_entries, schedule_complete, playoff_needs_seeding, "
            "standings_updating (wait a few seconds), generation_running (details.job: the job "
            "already running), playoff_round_draft, playoff_round_in_play, playoff_finished, "
            "no_playoff, playoff_started, tied_at_cut (propose a tiebreak round first), "
            "no_unbroken_ties."
        ),
        request=RoundGenerateInputSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL],
        examples=GENERATE_EXAMPLES,
        responses={202: JobAnswerSerializer, **errors(400, 401, 403, 404, 409, 422)},
        tags=TAGS,
    )
    def post(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)
        data = RoundGenerateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        start = STARTERS[data.validated_data["kind"]]

        def generate() -> Response:
            job = start(event=event, actor=request.user)
            return Response(
                {"job": JobSerializer(job).data},
                status=status.HTTP_202_ACCEPTED,
                headers={"Location": job_url(event, job.pk)},
            )

        return run_idempotent(request, generate, required=False)


class JobDetailApi(DirectorEventApi):
    @extend_schema(
        operation_id="job_detail",
        summary="Director: a background job's status, progress, message and the round it made",
        description="Poll until ``status`` is ``done`` (``round``: the draft it made) or "
        "``failed`` (``error``: why, with the code the page would show).",
        responses={200: JobSerializer, **errors(401, 403, 404)},
        tags=TAGS,
    )
    def get(self, request: Request, slug: str, job_id: int) -> Response:
        event = self.get_event(request, slug)
        try:
            job = selectors.director_job(event, job_id)
        except BackgroundJob.DoesNotExist:
            raise NotFound("No such job among yours.") from None
        return Response(JobSerializer(job).data)


class RoundDetailApi(DirectorEventApi):
    @extend_schema(
        operation_id="round_detail",
        summary="Director: review a round (tables, byes, the checker's findings, how it was made)",
        responses={200: RoundDetailSerializer, **errors(401, 403, 404)},
        tags=TAGS,
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        return Response(RoundDetailSerializer(self.get_round(request, slug, number)).data)


class LinkHolders(DirectorOnly):
    """A round's table links hand out the power to enter its results: only those who may
    change the event read them (read-only staff get 403 ``read_only_staff``, as the printed
    cards' page answers them), and an API key that may only read gets 403 too."""

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        super().has_object_permission(request, view, obj)
        event = obj.event if isinstance(obj, Round) else obj
        if not can_direct(request.user, event):
            raise read_only_staff_error(event)
        if _read_only_key(request.auth):
            raise PermissionDenied(
                "This API key may only read; a table link writes results.",
                code="api_token_read_only",
            )
        return True


def _read_only_key(auth: Any) -> bool:
    """An API key that may only read (the stored key, or what its authentication made of it)."""
    if isinstance(auth, ApiToken):
        return auth.scope != ApiToken.Scope.WRITE
    return bool(getattr(auth, "read_only", False))


class RoundLinksApi(DirectorEventApi):
    permission_classes = [LinkHolders]

    @extend_schema(
        operation_id="round_links",
        summary="Director: each table's two side links (token and URL), as on the table cards",
        description="Each side's link claims only as that side and confirms only the other "
        "side's claim; a table of many (three or four individual players) has a link per seat "
        "(side = the seat, 0 to 3). Revoke them with revoke-links/. Not for read-only staff or "
        "a read-only API key: a link lets its holder enter results.",
        responses={200: TableLinksSerializer(many=True), **errors(401, 403, 404)},
        tags=TAGS,
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        rnd = self.get_round(request, slug, number)
        tables = []
        matches = selectors.tabled_matches(rnd)
        holders = table_links.link_seats(matches)  # a table of many: a link per seat
        for match in matches:
            assert match.table is not None and match.entry_b is not None
            sides = []
            for side, entry in holders.get(match.pk, []):
                table = match.table
                sides.append(
                    {
                        "side": side,
                        "letter": side_letter(side),
                        "entry": entry.pk,
                        "name": entry.name,
                        "token": table_links.table_token(round_=rnd, table=table, side=side),
                        "url": request.build_absolute_uri(
                            table_links.table_link_path(round_=rnd, table=table, side=side)
                        ),
                    }
                )
            tables.append({"table": match.table.number, "match": match.pk, "sides": sides})
        response = Response(tables)
        response["Cache-Control"] = "no-store"  # the links are credentials
        return response


class _DryRun(Exception):
    """Rolls a previewed swap back."""


class RoundSwapApi(DirectorEventApi):
    @extend_schema(
        operation_id="round_swap",
        summary="Director: swap two entries or two tables of a draft round (with a reason)",
        description=(
            "200: the round's review after the swap (the edited matches' findings become "
            "``override``s). With ``dry_run`` (entries only): 200 with the checker's findings "
            "as if swapped, and nothing changes. Refusals: round_not_draft, not_in_round, "
            "same_entry, same_table."
        ),
        request=RoundSwapInputSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL],
        examples=SWAP_EXAMPLES,
        responses={
            200: PolymorphicProxySerializer(
                component_name="RoundSwapAnswer",
                serializers=[RoundDetailSerializer, SwapPreviewSerializer],
                resource_type_field_name=None,
            ),
            **errors(400, 401, 403, 404, 409, 422),
        },
        tags=TAGS,
    )
    def post(self, request: Request, slug: str, number: int) -> Response:
        rnd = self.get_round(request, slug, number)
        data = RoundSwapInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data

        def swap() -> Response:
            common = {"round": rnd, "reason": values["reason"], "actor": request.user}
            if "tables" in values:
                x, y = values["tables"]
                round_edits.swap_tables(table_x=x, table_y=y, **common)
                return Response(RoundDetailSerializer(rnd).data)
            x, y = values["entries"]
            if not values["dry_run"]:
                round_edits.swap_entries(entry_x=x, entry_y=y, **common)
                return Response(RoundDetailSerializer(rnd).data)
            # A preview is the swap itself (its checks and refusals), read, then rolled back.
            preview: dict[str, Any] = {}
            try:
                with transaction.atomic():
                    round_edits.swap_entries(entry_x=x, entry_y=y, **common)
                    preview = RoundDetailSerializer().get_checks(rnd)
                    raise _DryRun
            except _DryRun:
                pass
            return Response({"findings": preview["violations"] + preview["overrides"]})

        return run_idempotent(request, swap, required=False)


def _action_parameter(actions: tuple[str, ...], what: str) -> OpenApiParameter:
    return OpenApiParameter(
        "action", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(actions), description=what
    )


class RoundActionApi(DirectorEventApi):
    @extend_schema(
        operation_id="round_action",
        summary="Director: publish, start, close or discard a round",
        description=(
            "``publish``: a draft goes to the tables (refused while the checker finds a "
            "violation: round_has_violations); a tiebreak round is approved so. ``start``: a "
            "published round is in play and its clock starts (where the event has a time "
            "limit). ``close``: every match has a confirmed result (else results_missing); the "
            "next round may then be generated. ``discard``: a draft is deleted (``reason`` "
            "required). 200: the round's review (204 for discard)."
        ),
        request=RoundActionInputSerializer,
        parameters=[
            IDEMPOTENCY_OPTIONAL,
            _action_parameter(ROUND_ACTIONS, "What to do with the round."),
        ],
        responses={
            200: RoundDetailSerializer,
            204: None,
            **errors(400, 401, 403, 404, 409, 422),
        },
        tags=TAGS,
    )
    def post(self, request: Request, slug: str, number: int, action: str) -> Response:
        rnd = self.get_round(request, slug, number)
        data = RoundActionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        actor = request.user

        def act() -> Response:
            if action == "discard":
                reason = data.validated_data.get("reason", "")
                round_edits.discard_draft_round(round=rnd, reason=reason, actor=actor)
                return Response(status=status.HTTP_204_NO_CONTENT)
            if action == "publish" and rnd.kind == Round.Kind.TIEBREAK:
                tiebreak_rounds.approve_tiebreak_round(
                    event=rnd.event, round_id=rnd.pk, actor=actor
                )
            else:
                MOVES[action](round=rnd, actor=actor)
            rnd.refresh_from_db()
            return Response(RoundDetailSerializer(rnd).data)

        return run_idempotent(request, act, required=False)


MOVES: dict[str, Any] = {
    "publish": round_status.publish_round,
    "start": round_status.start_round,
    "close": round_status.close_round,
}


class RoundClockApi(DirectorEventApi):
    @extend_schema(
        operation_id="round_clock",
        summary="Director: start, pause, resume, extend (minutes) or end a round's clock",
        description=(
            "The round is in play (else round_not_in_play). ``start``: once (a round started "
            "with a time limit has its clock running already: clock_already_started); "
            "``pause`` / ``resume``; ``extend``: add ``minutes`` (1 to 120) to a running or "
            "paused clock; ``end``: call time now (the tables record time called; it cannot be "
            "undone). Refusals: clock_no_limit, clock_not_started, clock_paused, "
            "clock_not_paused, clock_expired, clock_minutes_invalid."
        ),
        request=ClockInputSerializer,
        parameters=[
            IDEMPOTENCY_OPTIONAL,
            _action_parameter(CLOCK_ACTIONS, "What to do with the clock."),
        ],
        responses={200: RoundClockAnswerSerializer, **errors(400, 401, 403, 404, 409, 422)},
        tags=TAGS,
    )
    def post(self, request: Request, slug: str, number: int, action: str) -> Response:
        rnd = self.get_round(request, slug, number)
        data = ClockInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        actor = request.user

        def act() -> Response:
            if action == "extend":
                minutes = data.validated_data.get("minutes", "")
                round_clock.extend_clock(round=rnd, minutes=minutes, actor=actor)
            else:
                CLOCK[action](round=rnd, actor=actor)
            rnd.refresh_from_db()
            return Response(
                {"round": rnd.number, "status": rnd.status, "clock": clock_now(rnd).as_dict()}
            )

        return run_idempotent(request, act, required=False)


CLOCK: dict[str, Any] = {
    "start": round_clock.start_clock,
    "pause": round_clock.pause_clock,
    "resume": round_clock.resume_clock,
    "end": round_clock.end_clock,
}
