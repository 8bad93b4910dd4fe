"""Cursor pagination for the API's lists: ``?limit=`` rows a page, ``?cursor=`` for the next.

A page answers ``{"results": [...], "next": URL or null, "next_cursor": text or null}``: follow
``next`` (or send ``next_cursor`` as ``cursor`` with the same filters) until it is null. The
cursor holds the last row's sort key (keyset pagination), so a row added or removed while a
client walks the list neither repeats nor skips another, and every page costs one indexed query
however deep it is. Cursors are signed with the server's secret: a cursor that was not given out
(edited, truncated, from another list) is refused with 400 ``invalid_cursor``.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.db.models import Model, Q, QuerySet
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.utils.urls import replace_query_param

from tournaments.errors import ValidationFailed

DEFAULT_LIMIT = 50
MAX_LIMIT = 100
MAX_CURSOR = 400


class InvalidCursor(ValidationFailed):
    code = "invalid_cursor"


class PageQuerySerializer(serializers.Serializer[Any]):
    """``limit`` and ``cursor``: the query parameters every list takes (and the schema's
    description of them: ``parameters=[..., PageQuerySerializer]``)."""

    limit = serializers.IntegerField(
        min_value=1,
        max_value=MAX_LIMIT,
        default=DEFAULT_LIMIT,
        help_text=f"Rows per page, 1 to {MAX_LIMIT} ({DEFAULT_LIMIT}).",
    )
    cursor = serializers.CharField(
        required=False,
        max_length=MAX_CURSOR,
        help_text="The previous page's next_cursor (omit it for the first page).",
    )


def page_serializer(
    name: str, item: serializers.Serializer[Any]
) -> type[serializers.Serializer[Any]]:
    """A page of ``item`` rows as its own schema component, named ``name``."""
    fields: dict[str, Any] = {
        "results": item,
        "next": serializers.URLField(
            allow_null=True, help_text="The next page (null: this is the last)."
        ),
        "next_cursor": serializers.CharField(
            allow_null=True, help_text="The cursor of the next page (null: this is the last)."
        ),
    }
    return type(name, (serializers.Serializer,), fields)


def query_of(request: Request, *lists: str) -> dict[str, Any]:
    """The query's parameters for a serializer: each the last value sent, the names in
    ``lists`` as lists. Plain values, not the ``QueryDict``: DRF takes an empty value in a form
    for a missing one, where an API says that ``?status=`` is no status."""
    found: dict[str, Any] = request.query_params.dict()
    for name in lists:
        if name in request.query_params:
            found[name] = request.query_params.getlist(name)
    return found


@dataclass(frozen=True)
class Page:
    rows: list[Any]
    next_cursor: str | None
    next_url: str | None

    def body(self, results: Any) -> dict[str, Any]:
        return {"results": results, "next": self.next_url, "next_cursor": self.next_cursor}


def _wire(value: Any) -> Any:
    if isinstance(value, datetime.date):  # and datetime
        return value.isoformat()
    return value


@dataclass(frozen=True)
class Keyset:
    """A list's order, as model fields (``-start_date``, ``name``, ``pk``), the last one unique,
    none null. ``name`` keeps each list's cursors to itself."""

    name: str
    order: tuple[str, ...]

    def _field(self, model: type[Model], spec: str) -> Any:
        name = spec.lstrip("-")
        return model._meta.pk if name == "pk" else model._meta.get_field(name)

    def _salt(self) -> str:
        return f"spinner.api.cursor:{self.name}"

    def _encode(self, row: Model) -> str:
        values = [_wire(getattr(row, spec.lstrip("-"))) for spec in self.order]
        return signing.dumps(values, salt=self._salt(), compress=True)

    def _decode(self, model: type[Model], cursor: str) -> list[Any]:
        try:
            values = signing.loads(cursor, salt=self._salt())
        except (signing.BadSignature, ValueError) as exc:
            raise InvalidCursor(
                "This cursor is not one this list gave out: start again without a cursor.",
                details={"cursor": cursor[:MAX_CURSOR]},
            ) from exc
        if not isinstance(values, list) or len(values) != len(self.order):
            raise InvalidCursor("This cursor is not one this list gave out.")
        return [
            self._field(model, spec).to_python(value)
            for spec, value in zip(self.order, values, strict=True)
        ]

    def _after(self, values: Sequence[Any]) -> Q:
        """Rows after the one whose sort key is ``values``, in this order."""
        found = Q()
        for i, spec in enumerate(self.order):
            name = spec.lstrip("-")
            step = Q(**{f"{name}__{'lt' if spec.startswith('-') else 'gt'}": values[i]})
            for earlier, value in zip(self.order[:i], values[:i], strict=True):
                step &= Q(**{earlier.lstrip("-"): value})
            found |= step
        return found

    def page(self, request: Request, rows: QuerySet[Any]) -> Page:
        """One page of ``rows`` (already in this order) for the request's ``limit`` and
        ``cursor``: ``limit + 1`` rows read, one query (plus the queryset's prefetches)."""
        asked = PageQuerySerializer(data=query_of(request))
        asked.is_valid(raise_exception=True)
        limit = int(asked.validated_data["limit"])
        cursor = asked.validated_data.get("cursor")
        if cursor:
            rows = rows.filter(self._after(self._decode(rows.model, cursor)))
        found = list(rows.order_by(*self.order)[: limit + 1])
        if len(found) <= limit:
            return Page(found, None, None)
        found = found[:limit]
        token = self._encode(found[-1])
        url = replace_query_param(request.build_absolute_uri(), "cursor", token)
        return Page(found, token, url)
