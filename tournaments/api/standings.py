"""``GET /api/events/<slug>/standings/``: the event's latest standings snapshot.

It reads the stored snapshot only (no request computes standings): the document the recompute
wrote, byte for byte in content, with ``generation`` and ``updating`` (true while results are ahead
of it). The ETag is the snapshot's generation, so a client polling with ``If-None-Match`` gets 304
until something changes. Visible to the public where the event publishes its standings.

An anonymous reader's compact JSON is kept as a document (``tournaments/documents.py``): served
from the cache, compressed, with no query, until the event's pages change (a result, a recompute,
the event's settings); this view renders it when it is not current.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Event
from tournaments.permissions import can_see
from tournaments.selectors import result_privacy, standings


def _names(if_none_match: str, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag``, as sent or with the ``-br``/``-gzip`` that a
    compressed answer of the kept copy adds (``tournaments/documents.py``)."""
    wanted = etag.strip('"')
    for tag in if_none_match.split(","):
        tag = tag.strip().removeprefix("W/").strip('"')
        if tag.removesuffix("-br").removesuffix("-gzip") == wanted:
            return True
    return False


class EventStandingsApi(APIView):
    """The latest standings of an event, as the public standings page shows them."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="event_standings",
        summary="The latest standings snapshot of an event (ETag: its generation)",
        responses={200: OpenApiTypes.OBJECT, 304: None},
        tags=["events"],
    )
    def get(self, request: Request, slug: str) -> Response:
        try:
            event = standings.event_with_state(slug)
        except Event.DoesNotExist:
            raise exceptions.NotFound("No such event.") from None
        if not can_see(request.user, event, "standings"):
            raise exceptions.NotFound("No such event.")
        meta = standings.snapshot_meta(event)
        if _names(request.headers.get("If-None-Match", ""), meta.etag):
            response = Response(status=304)
        else:
            latest = result_privacy.for_viewer(
                standings.latest_standings(event), request.user, event
            )
            body: dict[str, Any] = {
                "event": event.slug,
                "generation": latest.meta.generation,
                "updating": latest.meta.updating,
                "computed_at": (
                    latest.meta.created_at.isoformat() if latest.meta.created_at else None
                ),
                "snapshot": latest.document or None,
            }
            response = Response(body)
            meta = latest.meta
        response["ETag"] = meta.etag
        response["Cache-Control"] = "no-cache"
        return response
