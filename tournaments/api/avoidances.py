"""The keep-apart pairs API (``EntryAvoidance``: a family, a couple), as the director's entries
page has them: list the event's pairs, add one, remove one. Director permissions as every
director endpoint (the event's directors change, staff read, anyone else 404); each change is a
``services.avoidances`` call, audited there, and applies from the next round generated.

Error codes: ``avoidance_same_entry`` and ``avoidance_other_event`` (400),
``avoidance_exists`` (409), ``avoidance_not_found`` (404).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import DirectorApi
from tournaments.api.idempotency import run_idempotent
from tournaments.api.serializers import IDEMPOTENCY_OPTIONAL, StrictInput, errors
from tournaments.models import EntryAvoidance, Event
from tournaments.selectors import avoidances as selectors
from tournaments.services import avoidances as services

MAX_ID = 2_147_483_647  # the largest id PostgreSQL's and SQLite's id columns both hold here


class AvoidanceInputSerializer(StrictInput):
    # An id no table can hold is a 400, not the database's overflow (a 500).
    entry_x = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="One entry's id.")
    entry_y = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The other entry's id."
    )
    note = serializers.CharField(
        max_length=services.NOTE_LENGTH,
        allow_blank=True,
        required=False,
        help_text='Why ("sisters", "a couple"); shown to the directors only.',
    )


class AvoidanceSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    entries = serializers.SerializerMethodField(help_text="The two entries' ids, lower first.")
    names = serializers.SerializerMethodField(help_text="The two entries' names, in that order.")
    note = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()

    def get_entries(self, pair: EntryAvoidance) -> list[int]:
        return [pair.entry_a_id, pair.entry_b_id]

    def get_names(self, pair: EntryAvoidance) -> list[str]:
        return [pair.entry_a.name, pair.entry_b.name]


CREATE_EXAMPLE = OpenApiExample(
    "Two sisters",
    value={"entry_x": 12, "entry_y": 31, "note": "sisters"},
    request_only=True,
)


class AvoidanceApi(DirectorApi):
    def get_event(self, request: Request, slug: str) -> Event:
        event = get_object_or_404(Event, slug=slug)
        self.check_object_permissions(request, event)
        return event


class AvoidanceListApi(AvoidanceApi):
    @extend_schema(
        operation_id="avoidance_list",
        summary="Director: the event's pairs kept apart",
        responses={200: AvoidanceSerializer(many=True), **errors(401, 403, 404)},
        tags=["director"],
    )
    def get(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)
        return Response(AvoidanceSerializer(selectors.list_avoidances(event), many=True).data)

    @extend_schema(
        operation_id="avoidance_create",
        summary="Director: keep two entries apart while possible (from the next round)",
        request=AvoidanceInputSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL],
        examples=[CREATE_EXAMPLE],
        responses={201: AvoidanceSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["director"],
    )
    def post(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)
        data = AvoidanceInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)

        def add() -> Response:
            pair = services.add_avoidance(
                actor=request.user,
                event=event,
                entry_x=data.validated_data["entry_x"],
                entry_y=data.validated_data["entry_y"],
                note=data.validated_data.get("note", ""),
            )
            pair = EntryAvoidance.objects.select_related("entry_a", "entry_b").get(pk=pair.pk)
            return Response(AvoidanceSerializer(pair).data, status=status.HTTP_201_CREATED)

        return run_idempotent(request, add, required=False)


class AvoidanceDetailApi(AvoidanceApi):
    @extend_schema(
        operation_id="avoidance_delete",
        summary="Director: stop keeping a pair apart (from the next round generated)",
        responses={204: None, **errors(401, 403, 404)},
        tags=["director"],
    )
    def delete(self, request: Request, slug: str, avoidance_id: int) -> Response:
        event = self.get_event(request, slug)
        services.remove_avoidance(actor=request.user, event=event, avoidance_id=avoidance_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
