"""Template helpers for the live standings area."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def result_of(results: dict[int, Any] | None, match_id: int) -> Any:
    """``results|result_of:match_id``: the round page's confirmed result of one match, or None."""
    if not results:
        return None
    return results.get(match_id)
