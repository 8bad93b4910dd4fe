"""The events API, the director's event pages in another form: list and create events, read and
change an event's settings, take its status steps (publish, open registration, start, finish).

Every write is the pages' own service call (``services.events``, ``services.finish``), audited
there, inside ``run_idempotent`` (an ``Idempotency-Key`` replays the first answer). An event's
settings have a version, sent as the ``ETag``; a change that sends it back in ``If-Match`` is
refused with 412 ``stale_version`` when the settings changed since (``services.versions``).

Who may: anyone lists the public listed events and reads an event out of draft; an event's
directors (and superusers) change it and read its drafts; staff read every event and change none
(403 ``read_only_staff``); creating an event takes an organiser. An event the caller may not see
is a 404.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.authentication import TableTokenAuthentication
from tournaments.api.event_serializers import (
    CREATE_EXAMPLE,
    PUBLISH_EXAMPLE,
    UPDATE_EXAMPLE,
    EventCreateSerializer,
    EventPageSerializer,
    EventQuerySerializer,
    EventSerializer,
    EventStatusSerializer,
    EventSummarySerializer,
    EventUpdateSerializer,
)
from tournaments.api.idempotency import etag, parse_tag, run_idempotent
from tournaments.api.pagination import Keyset, PageQuerySerializer, query_of
from tournaments.api.parsers import SafeJSONParser
from tournaments.api.permissions import (
    EventCreatorsToWrite,
    NotEventScopedKey,
    PublicReadDirectorWrite,
    in_key_scope,
)
from tournaments.api.serializers import IDEMPOTENCY_OPTIONAL, errors, if_match_tag
from tournaments.api.tokens import HashedTokenAuthentication
from tournaments.models import Event
from tournaments.selectors import registration as selectors
from tournaments.services import events as event_services
from tournaments.services import versions

EVENTS = Keyset("events", ("-start_date", "name", "pk"))
AUTHENTICATION = [TableTokenAuthentication, HashedTokenAuthentication, SessionAuthentication]
SETTINGS_VERSION = "the event's settings (its ETag)"


class PublicReadsSchema(AutoSchema):
    """The schema of a view whose reads are public (its permission class is ours, so
    drf-spectacular cannot tell): its GET takes no credentials too (``{}`` among the security
    requirements)."""

    def get_auth(self) -> list[Any]:
        auths: list[Any] = super().get_auth()
        if self.method in SAFE_METHODS and {} not in auths:
            auths.append({})
        return auths


def acting_user(request: Request) -> User:
    """The signed-in user a write acts as (the permissions let no one else write)."""
    user = request.user
    assert isinstance(user, User)
    return user


def event_answer(
    event: Event, *, code: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """The event with its settings' version as the ``ETag``."""
    body = EventSerializer(event).data
    return Response(body, status=code, headers={"ETag": etag(body["version"]), **(headers or {})})


class EventApi(APIView):
    """Shared: table links, API keys and sessions authenticate (a table link may read what the
    public reads); JSON bodies; the event looked up by slug with its object check."""

    authentication_classes = AUTHENTICATION
    parser_classes = [SafeJSONParser]
    permission_classes = [PublicReadDirectorWrite]

    def get_event(self, request: Request, slug: str) -> Event:
        event = get_object_or_404(Event, slug=slug)
        self.check_object_permissions(request, event)
        return event


class EventListApi(EventApi):
    permission_classes = [EventCreatorsToWrite, NotEventScopedKey]
    schema = PublicReadsSchema()

    @extend_schema(
        operation_id="event_list",
        summary="Events: the public listed ones, and those you direct (staff: all), newest first",
        parameters=[EventQuerySerializer, PageQuerySerializer],
        responses={200: EventPageSerializer, **errors(400)},
        tags=["events"],
    )
    def get(self, request: Request) -> Response:
        asked = EventQuerySerializer(data=query_of(request))
        asked.is_valid(raise_exception=True)
        events = selectors.api_events(request.user, status=asked.validated_data.get("status", ""))
        events = in_key_scope(request, events)  # a key limited to some events lists those
        page = EVENTS.page(request, events)
        return Response(page.body(EventSummarySerializer(page.rows, many=True).data))

    @extend_schema(
        operation_id="event_create",
        summary="Director: create an event (you direct it); organisers only",
        description="As the director's 'New event' page: every setting may be given (raw "
        "points), the rest take their defaults; it starts as a draft unless a status is given.",
        request=EventCreateSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL],
        examples=[CREATE_EXAMPLE],
        responses={201: EventSerializer, **errors(400, 401, 403, 409, 422)},
        tags=["director"],
    )
    def post(self, request: Request) -> Response:
        data = EventCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)

        def create() -> Response:
            event = event_services.create_event(
                actor=acting_user(request),
                slug=data.validated_data.get("slug", ""),
                **data.settings(),
            )
            where = reverse("api:event-detail", args=[event.slug])
            return event_answer(event, code=status.HTTP_201_CREATED, headers={"Location": where})

        return run_idempotent(request, create, required=False)


class EventDetailApi(EventApi):
    schema = PublicReadsSchema()

    @extend_schema(
        operation_id="event_detail",
        summary="An event and its settings (drafts: its directors and staff only)",
        responses={200: EventSerializer, **errors(404)},
        tags=["events"],
    )
    def get(self, request: Request, slug: str) -> Response:
        return event_answer(self.get_event(request, slug))

    @extend_schema(
        operation_id="event_update",
        summary="Director: change an event's settings (only the fields sent)",
        description="As the director's settings page. The rules (rules, target, hand size, "
        "entry kind) are fixed once a round exists (409 locked_after_start); If-Match: the "
        "ETag read (412 stale_version if the settings changed since).",
        request=EventUpdateSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL, if_match_tag(SETTINGS_VERSION)],
        examples=[UPDATE_EXAMPLE],
        responses={200: EventSerializer, **errors(400, 401, 403, 404, 409, 412, 422)},
        tags=["director"],
    )
    def patch(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)
        data = EventUpdateSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        expected = parse_tag(request)

        def update() -> Response:
            locked = _locked_settings(event, expected)
            changed = event_services.update_event(
                actor=acting_user(request),
                event=locked,
                reason=data.validated_data.get("reason", ""),
                **data.settings(),
            )
            return event_answer(changed)

        return run_idempotent(request, update, required=False)


def _locked_settings(event: Event, expected: str | None) -> Event:
    """The event, locked, when its settings are still at the If-Match version (412 if not)."""
    return versions.lock_at_version(
        Event,
        pk=event.pk,
        fields=event_services.SETTINGS_FIELDS,
        expected=expected,
        what="event's settings",
    )


class EventPublishApi(EventApi):
    @extend_schema(
        operation_id="event_publish",
        summary="Director: take a status step (publish and open registration, start, finish)",
        description="The event page's status steps: draft, registration (the default: "
        "publish and open registration), running, finished. Finishing an event that has "
        "rounds is 'Finish the event' (the final placings frozen; 409 until the final is "
        "decided); any other step is the settings' status. If-Match: the settings' ETag.",
        request=EventStatusSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL, if_match_tag(SETTINGS_VERSION)],
        examples=[PUBLISH_EXAMPLE],
        responses={200: EventSerializer, **errors(400, 401, 403, 404, 409, 412, 422)},
        tags=["director"],
    )
    def post(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)
        data = EventStatusSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        expected = parse_tag(request)

        def publish() -> Response:
            locked = _locked_settings(event, expected)
            changed = event_services.change_event_status(
                actor=acting_user(request),
                event=locked,
                status=data.validated_data["status"],
                reason=data.validated_data.get("reason", ""),
            )
            return event_answer(changed)

        return run_idempotent(request, publish, required=False)
