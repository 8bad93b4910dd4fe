"""Names in sentences: ``{% load names %}``.

``{% if team|ends_in_s %}`` picks the possessive a name ending in s takes in English ("The
Closers' page", not "The Closers's page"); the two sentences are separate messages, so a
translation that needs no possessive ("Página de The Closers") says both the same way.
"""

from __future__ import annotations

from django import template

from tournaments.possessive import ends_in_s as _ends_in_s

register = template.Library()


@register.filter
def ends_in_s(name: object) -> bool:
    """True when ``name`` ends in s (case aside): its English possessive is a bare apostrophe."""
    return _ends_in_s(str(name))
