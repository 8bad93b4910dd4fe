"""The webhooks API, for an integrator managing an event's endpoints as its directors do on
their page: list and register endpoints (the secret answered once, on creation), read, change
and remove one, read its deliveries (cursor-paginated, newest first) and send a failed one
again. Director permissions as every director endpoint: the event's directors change, staff
read, anyone else gets 404. Every change is a ``services.webhooks`` call, audited there."""

from __future__ import annotations

import uuid
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import DirectorApi
from tournaments.api.idempotency import run_idempotent
from tournaments.api.serializers import IDEMPOTENCY_OPTIONAL, StrictInput, errors
from tournaments.models import Event, WebhookDelivery, WebhookEndpoint
from tournaments.selectors import webhooks as selectors
from tournaments.services import webhooks as services

KIND_HELP = (
    "What to send: round.published, result.confirmed, standings.updated, event.finished. "
    "Empty or absent: every kind."
)


class WebhookInputSerializer(StrictInput):
    url = serializers.CharField(
        max_length=services.MAX_URL_LENGTH,
        help_text="The endpoint's https:// address (400 webhook_url_invalid, "
        "webhook_url_private, webhook_https_required).",
    )
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=list(services.KINDS)),
        required=False,
        max_length=len(services.KINDS),
        help_text=KIND_HELP,
    )


class WebhookUpdateInputSerializer(StrictInput):
    url = serializers.CharField(max_length=services.MAX_URL_LENGTH, required=False)
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=list(services.KINDS)),
        required=False,
        max_length=len(services.KINDS),
        help_text=KIND_HELP,
    )
    active = serializers.BooleanField(
        required=False, help_text="False pauses the endpoint (nothing is queued or sent)."
    )


class WebhookOutputSerializer(serializers.ModelSerializer[WebhookEndpoint]):
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=list(services.KINDS)), help_text=KIND_HELP
    )

    class Meta:
        model = WebhookEndpoint
        fields = ["id", "url", "kinds", "active", "created_at"]


class WebhookCreatedSerializer(WebhookOutputSerializer):
    secret = serializers.CharField(
        help_text="The signing secret (64 hex characters): answered this once, keep it."
    )

    class Meta(WebhookOutputSerializer.Meta):
        fields = [*WebhookOutputSerializer.Meta.fields, "secret"]


class WebhookDeliverySerializer(serializers.ModelSerializer[WebhookDelivery]):
    payload = serializers.JSONField(help_text="The body's data, as sent (docs/webhooks.md).")

    class Meta:
        model = WebhookDelivery
        fields = [
            "delivery_id",
            "kind",
            "status",
            "attempts",
            "last_status_code",
            "last_error",
            "next_attempt_at",
            "delivered_at",
            "created_at",
            "payload",
        ]


class WebhookDeliveryPageSerializer(serializers.Serializer[Any]):
    next = serializers.URLField(allow_null=True, help_text="The next (older) page, or null.")
    previous = serializers.URLField(allow_null=True, help_text="The previous page, or null.")
    results = WebhookDeliverySerializer(many=True)


class DeliveryCursor(CursorPagination):
    page_size = 50
    ordering = "-pk"


CREATE_EXAMPLE = OpenApiExample(
    "Standings and finished only",
    value={"url": "https://club.example.org/spinner", "kinds": ["standings.updated"]},
    request_only=True,
)


class WebhookApi(DirectorApi):
    def get_event(self, request: Request, slug: str) -> Event:
        event = get_object_or_404(Event, slug=slug)
        self.check_object_permissions(request, event)
        return event

    def get_endpoint(self, request: Request, slug: str, webhook_id: int) -> WebhookEndpoint:
        return selectors.endpoint_of(self.get_event(request, slug), webhook_id)


class WebhookListApi(WebhookApi):
    @extend_schema(
        operation_id="webhook_list",
        summary="Director: the event's webhook endpoints",
        responses={200: WebhookOutputSerializer(many=True), **errors(401, 403, 404)},
        tags=["director"],
    )
    def get(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)
        endpoints = selectors.list_endpoints(event)
        return Response(WebhookOutputSerializer(endpoints, many=True).data)

    @extend_schema(
        operation_id="webhook_create",
        summary="Director: register a webhook endpoint (its secret is answered once)",
        request=WebhookInputSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL],
        examples=[CREATE_EXAMPLE],
        responses={201: WebhookCreatedSerializer, **errors(400, 401, 403, 404, 409, 422)},
        tags=["director"],
    )
    def post(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)
        data = WebhookInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)

        def register() -> Response:
            endpoint, secret = services.register_endpoint(
                event=event,
                actor=request.user,
                url=data.validated_data["url"],
                kinds=data.validated_data.get("kinds", []),
            )
            body = {**WebhookOutputSerializer(endpoint).data, "secret": secret}
            return Response(body, status=status.HTTP_201_CREATED)

        return run_idempotent(request, register, required=False)


class WebhookDetailApi(WebhookApi):
    @extend_schema(
        operation_id="webhook_detail",
        summary="Director: one webhook endpoint",
        responses={200: WebhookOutputSerializer, **errors(401, 403, 404)},
        tags=["director"],
    )
    def get(self, request: Request, slug: str, webhook_id: int) -> Response:
        endpoint = self.get_endpoint(request, slug, webhook_id)
        return Response(WebhookOutputSerializer(endpoint).data)

    @extend_schema(
        operation_id="webhook_update",
        summary="Director: change an endpoint's address or kinds, or pause or resume it",
        request=WebhookUpdateInputSerializer,
        responses={200: WebhookOutputSerializer, **errors(400, 401, 403, 404, 409)},
        tags=["director"],
    )
    def patch(self, request: Request, slug: str, webhook_id: int) -> Response:
        endpoint = self.get_endpoint(request, slug, webhook_id)
        data = WebhookUpdateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        endpoint = services.update_endpoint(
            endpoint=endpoint,
            actor=request.user,
            url=values.get("url"),
            kinds=values.get("kinds"),
            active=values.get("active"),
        )
        return Response(WebhookOutputSerializer(endpoint).data)

    @extend_schema(
        operation_id="webhook_delete",
        summary="Director: remove an endpoint and its deliveries' log",
        responses={204: None, **errors(401, 403, 404)},
        tags=["director"],
    )
    def delete(self, request: Request, slug: str, webhook_id: int) -> Response:
        endpoint = self.get_endpoint(request, slug, webhook_id)
        services.remove_endpoint(endpoint=endpoint, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookDeliveryListApi(WebhookApi):
    @extend_schema(
        operation_id="webhook_deliveries",
        summary="Director: an endpoint's deliveries, newest first (cursor-paginated)",
        parameters=[
            OpenApiParameter("cursor", OpenApiTypes.STR, OpenApiParameter.QUERY),
            OpenApiParameter(
                "status",
                OpenApiTypes.STR,
                OpenApiParameter.QUERY,
                enum=[s.value for s in WebhookDelivery.Status],
                description="Only the deliveries with this status.",
            ),
        ],
        responses={200: WebhookDeliveryPageSerializer, **errors(400, 401, 403, 404)},
        tags=["director"],
    )
    def get(self, request: Request, slug: str, webhook_id: int) -> Response:
        endpoint = self.get_endpoint(request, slug, webhook_id)
        wanted = request.query_params.get("status", "")
        if wanted and wanted not in WebhookDelivery.Status.values:
            raise serializers.ValidationError(
                {"status": [f"One of {', '.join(WebhookDelivery.Status.values)}."]}
            )
        paginator = DeliveryCursor()
        page = paginator.paginate_queryset(
            selectors.deliveries_of(endpoint, status=wanted), request, view=self
        )
        return paginator.get_paginated_response(WebhookDeliverySerializer(page, many=True).data)


class WebhookDeliveryRetryApi(WebhookApi):
    @extend_schema(
        operation_id="webhook_delivery_retry",
        summary="Director: send a failed delivery again now",
        request=None,
        parameters=[IDEMPOTENCY_OPTIONAL],
        responses={200: WebhookDeliverySerializer, **errors(401, 403, 404, 409, 422)},
        tags=["director"],
    )
    def post(
        self, request: Request, slug: str, webhook_id: int, delivery_id: uuid.UUID
    ) -> Response:
        endpoint = self.get_endpoint(request, slug, webhook_id)
        delivery = selectors.delivery_of(endpoint, str(delivery_id))

        def retry() -> Response:
            again = services.retry_delivery(delivery=delivery, actor=request.user)
            return Response(WebhookDeliverySerializer(again).data)

        return run_idempotent(request, retry, required=False)
