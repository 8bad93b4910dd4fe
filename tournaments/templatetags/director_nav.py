"""The director's event menu marks the page it is on (``aria-current="page"``), never always
the same item: ``{% nav_current "results" %}`` on each of the menu's links."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import mark_safe

register = template.Library()

SECTIONS: dict[str, frozenset[str]] = {
    "desk": frozenset({"event", "event-finish", "event-add-director"}),
    "results": frozenset(
        {"results-now", "results", "results-revoke-links", "result", "result-resolve"}
        | {"result-enter", "result-forfeit"}
    ),
    "rounds": frozenset(
        {"rounds", "round", "round-generate", "round-job", "round-swap-preview"}
        | {"playoff-advance", "table-cards", "pairings-sheet", "scoresheets"}
    ),
    "entries": frozenset(
        {"entries", "entry", "entry-add", "entry-late", "entry-action", "entries-csv"}
        | {"avoidance-add", "avoidance-remove"}
    ),
    "standings": frozenset({"standings", "prize-list"}),
    "import": frozenset({"import"}),
    "settings": frozenset({"event-edit"}),
    "audit": frozenset({"audit"}),
    "webhooks": frozenset({"webhooks", "webhook", "webhook-active", "webhook-remove"})
    | frozenset({"webhook-retry"}),
}
"""Each menu item and the director's pages (URL names) it stands for."""


def section_of(url_name: str | None, namespace: str | None) -> str:
    """The menu item a director's page belongs to ("" for a page of no item)."""
    if namespace != "director" or not url_name:
        return ""
    return next((item for item, names in SECTIONS.items() if url_name in names), "")


@register.simple_tag(takes_context=True)
def nav_current(context: Any, item: str) -> str:
    """`` aria-current="page"`` on the menu link of the page being shown, else nothing."""
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    here = section_of(getattr(match, "url_name", None), getattr(match, "namespace", None))
    return mark_safe(' aria-current="page"') if here == item else ""
