"""Times as a person reads them: ``{% load event_time %}``.

``{{ when|event_time }}`` shows ``when`` in the active zone (on an event's pages, the event's:
``tournaments.time_zones.activate_for``) with the zone's label, ``"14:05 CST"``;
``{{ when|event_time:"datetime" }}`` adds the date (``"5 Dec 2026 14:05 CST"``), ``"seconds"``
and ``"datetime_seconds"`` the seconds. The one function behind it is
:func:`tournaments.time_zones.label`.

A ``<time datetime="...">`` attribute is written with ``{{ when|iso_instant }}``: the instant in
ISO 8601 to the second with its offset, ``"2026-12-05T14:05:09-06:00"`` (``|date:'c'`` would add
microseconds, which the HTML checker refuses).
"""

from __future__ import annotations

import datetime

from django import template
from django.utils import timezone

from tournaments import time_zones

register = template.Library()


@register.filter(name="event_time")
def event_time(value: datetime.datetime | None, style: str = "time") -> str:
    """``{{ when|event_time }}``: the time in the active zone, labelled (see the module)."""
    if not isinstance(value, datetime.datetime):
        return ""
    return time_zones.label(value, style)


@register.filter(name="iso_instant")
def iso_instant(value: datetime.datetime | None) -> str:
    """``{{ when|iso_instant }}``: a ``datetime`` attribute's value (see the module)."""
    if not isinstance(value, datetime.datetime):
        return ""
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return value.replace(microsecond=0).isoformat()
