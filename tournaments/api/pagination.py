"""Cursor pagination for the API's lists: ``{"next", "previous", "results"}``.

A cursor page is stable while rows are added (a new round or entry never shifts a page the
client already holds, as an offset would): ``next`` and ``previous`` are full URLs to follow
as they are, ``null`` at either end. ``page_size`` asks for up to 200 rows (50 unless told).
"""

from __future__ import annotations

from rest_framework.pagination import CursorPagination


class ApiCursorPagination(CursorPagination):
    """The API's one paginator; a view names its own ``ordering`` (a unique column)."""

    page_size = 50
    max_page_size = 200
    page_size_query_param = "page_size"
    ordering = "pk"
