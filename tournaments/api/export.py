"""``GET /api/events/<slug>/export/``: the whole event as one JSON document, for its directors.

The document (format ``spinner-event-export/1``) is described in ``docs/export.md`` and built by
``tournaments.selectors.rounds.export_event``; ``manage.py export_event`` prints the same.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.permissions import DirectorOnly
from tournaments.models import Event
from tournaments.selectors import export


class EventExportApi(APIView):
    """The event export: directors of the event (and staff) only; token or session auth.

    Anonymous: 401/403; a signed-in user who does not direct the event: 404 (an event's
    existence is not revealed to those who cannot export it, nor to an API key limited to other
    events).
    """

    permission_classes = [DirectorOnly]

    @extend_schema(
        operation_id="event_export",
        summary="Export an event (spinner-event-export/1)",
        responses={200: OpenApiTypes.OBJECT},
        tags=["events"],
    )
    def get(self, request: Request, slug: str) -> Response:
        event = Event.objects.filter(slug=slug).first()
        if event is None:
            raise exceptions.NotFound("No such event among yours.")
        self.check_object_permissions(request, event)
        document: dict[str, Any] = export.export_event(event)
        response = Response(document)
        if request.query_params.get("download"):
            response["Content-Disposition"] = f'attachment; filename="{event.slug}-export.json"'
        return response
