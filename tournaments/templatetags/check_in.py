"""Check-in codes as printed (``{% load check_in %}``):
``{{ entry.check_in_code|check_in_code }}`` is "K7M-3XR"
(:func:`tournaments.check_in_codes.shown`)."""

from __future__ import annotations

from django import template

from tournaments import check_in_codes

register = template.Library()


@register.filter(name="check_in_code")
def check_in_code(code: str | None) -> str:
    return check_in_codes.shown(code or "")
