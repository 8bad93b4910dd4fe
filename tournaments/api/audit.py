"""``GET /api/events/<slug>/audit/``: the event's audit log, as the director's audit page lists
it (newest first, each change in a sentence), with the entries' own data; cursor pages, filtered
by action (``entry.check_in``) or family (``entry``). The event's directors and staff only."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.entries import EntryApi
from tournaments.api.pagination import Keyset, PageQuerySerializer, page_serializer, query_of
from tournaments.api.serializers import errors
from tournaments.presenters import audit as presenters
from tournaments.selectors import registration as selectors

AUDIT = Keyset("audit", ("-at", "-pk"))


class AuditEntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    actor = serializers.CharField(
        allow_null=True, help_text="The user's name; null: a table's link or the system."
    )
    by = serializers.CharField(
        allow_null=True, help_text="Who acted without an account (a table's side), if anyone."
    )
    action = serializers.CharField(help_text="e.g. entry.check_in, event.update, result.confirm")
    object_type = serializers.CharField(allow_blank=True)
    object_id = serializers.CharField(allow_blank=True)
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    summary = serializers.CharField(help_text="The change in a sentence, as the audit page says.")


AuditPageSerializer = page_serializer("AuditPage", AuditEntrySerializer(many=True))


class AuditQuerySerializer(serializers.Serializer[Any]):
    action = serializers.RegexField(
        r"^[a-z_]{1,30}(\.[a-z_]{1,30})?$",
        max_length=64,
        required=False,
        help_text="One action (entry.check_in) or, without a dot, a family (entry: entry.*).",
    )


def _line(line: presenters.AuditLine) -> dict[str, Any]:
    entry = line.entry
    after = entry.after if isinstance(entry.after, dict) else {}
    return {
        "id": entry.pk,
        "at": entry.at,
        "actor": entry.actor.username if entry.actor is not None else None,
        "by": str(after["by"]) if entry.actor is None and after.get("by") else None,
        "action": entry.action,
        "object_type": entry.object_type,
        "object_id": entry.object_id,
        "before": entry.before,
        "after": entry.after,
        "reason": entry.reason,
        "summary": line.sentence,
    }


class EventAuditApi(EntryApi):
    @extend_schema(
        operation_id="event_audit",
        summary="Director: the event's audit log, newest first",
        parameters=[AuditQuerySerializer, PageQuerySerializer],
        responses={200: AuditPageSerializer, **errors(400, 401, 403, 404)},
        tags=["director"],
    )
    def get(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)
        asked = AuditQuerySerializer(data=query_of(request))
        asked.is_valid(raise_exception=True)
        log = selectors.audit_query(event=event, action=asked.validated_data.get("action", ""))
        page = AUDIT.page(request, log)
        entries, matches, rounds = selectors.audit_names(event)
        names = presenters.AuditNames(entries=entries, matches=matches)
        lines = presenters.audit_lines(page.rows, event, names, rounds)
        return Response(page.body(AuditEntrySerializer([_line(x) for x in lines], many=True).data))
