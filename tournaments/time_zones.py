"""An event's time zone: every time a person reads is shown in it, and labelled ("14:05 CST").

``Event.time_zone`` is an IANA zone name (``America/Chicago``; default ``UTC``). The event's
pages activate it (:func:`activate_for`, called where a page loads its event: the director's
guard, the public pages' and the table's loaders), and :class:`EventTimeZoneMiddleware` puts
UTC back around every request so that a zone never leaks into the next request a thread serves.
Templates show a time with the ``event_time`` filter (``tournaments.templatetags.event_time``),
which calls :func:`label`; CSV files write :func:`iso_in` (ISO 8601 with the zone's offset).
Data for machines (the API, the JSON of the round clock, ``<time datetime>``) stays an ISO
instant with its offset, which needs no zone.
"""

from __future__ import annotations

import datetime
import functools
import zoneinfo
from collections.abc import Callable
from typing import Any, Protocol

from django.http import HttpRequest, HttpResponse
from django.utils import dateformat, timezone

DEFAULT = "UTC"

#: What :func:`label` prints, by style (Django's date format characters; the zone's label
#: follows). ``j M Y`` prints the month's short name in the reader's language.
STYLES = {
    "time": "H:i",
    "seconds": "H:i:s",
    "datetime": "j M Y H:i",
    "datetime_seconds": "j M Y H:i:s",
}

#: The regions of the zone names offered in the settings' list (the legacy aliases, ``US/...``
#: and ``EST5EDT``, are still accepted when typed).
REGIONS = (
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)
_NOT_ZONES = frozenset({"localtime", "Factory"})


class HasTimeZone(Protocol):
    time_zone: str


@functools.cache
def _available() -> dict[str, str]:
    """Every zone name this machine knows, by its case-folded form."""
    names = zoneinfo.available_timezones() - _NOT_ZONES
    return {name.casefold(): name for name in names}


def canonical(text: str) -> str | None:
    """The zone name ``text`` means, spelled as the database of zones spells it, or None.

    Case and spaces are forgiven (a person types "america/new york").

    >>> canonical(" america/new york ")
    'America/New_York'
    >>> canonical("utc")
    'UTC'
    >>> canonical("Mars/Olympus_Mons") is None
    True
    """
    key = "_".join(str(text).split()).casefold()
    return _available().get(key)


def suggestions(text: str, limit: int = 3) -> list[str]:
    """Zone names a person probably meant by ``text``: those whose city is what they typed
    (or starts with it).

    >>> suggestions("chicago")
    ['America/Chicago']
    >>> suggestions("Mars")
    []
    """
    city = "_".join(str(text).split()).casefold().rsplit("/", 1)[-1]
    if len(city) < 3:
        return []
    found = [name for name in offered() if name.casefold().rsplit("/", 1)[-1].startswith(city)]
    exact = [name for name in found if name.casefold().rsplit("/", 1)[-1] == city]
    return (exact or found)[:limit]


def is_valid(name: Any) -> bool:
    """Is ``name`` a zone name exactly as stored (``America/Chicago``, not ``america/chicago``)?"""
    return isinstance(name, str) and canonical(name) == name


@functools.cache
def offered() -> tuple[str, ...]:
    """The zone names the settings' list offers: UTC, then every regional zone, sorted."""
    regional = sorted(
        name for name in _available().values() if name.split("/", 1)[0] in REGIONS and "/" in name
    )
    return (DEFAULT, *regional)


def zone_of(event: HasTimeZone) -> zoneinfo.ZoneInfo:
    """The event's zone (UTC when its name is unknown on this machine)."""
    name = canonical(event.time_zone or DEFAULT) or DEFAULT
    return zoneinfo.ZoneInfo(name)


def activate_for(event: HasTimeZone) -> None:
    """Show this request's times in the event's zone (until the request ends)."""
    timezone.activate(zone_of(event))


def zone_label(local: datetime.datetime) -> str:
    """The zone's short name at that moment ("CST", "CDT", "UTC"), or its offset from UTC where
    the zone has no letters for it ("UTC-03", "UTC+05:45").

    >>> chicago = zoneinfo.ZoneInfo("America/Chicago")
    >>> zone_label(datetime.datetime(2026, 7, 1, 12, tzinfo=chicago))
    'CDT'
    >>> zone_label(datetime.datetime(2026, 7, 1, 12, tzinfo=zoneinfo.ZoneInfo("America/Sao_Paulo")))
    'UTC-03'
    """
    name = local.tzname() or ""
    if name and name[0] not in "+-":
        return name
    offset = local.utcoffset() or datetime.timedelta(0)
    sign = "-" if offset < datetime.timedelta(0) else "+"
    minutes = abs(int(offset.total_seconds())) // 60
    hours, rest = divmod(minutes, 60)
    return f"UTC{sign}{hours:02d}" + (f":{rest:02d}" if rest else "")


def label(value: datetime.datetime | None, style: str = "time") -> str:
    """``value`` in the active zone (the event's, on its pages), labelled: ``"14:05 CST"``;
    ``style`` is one of :data:`STYLES` ("datetime": ``"5 Dec 2026 14:05 CST"``). "" for None."""
    if value is None:
        return ""
    local = timezone.localtime(value) if timezone.is_aware(value) else value
    return f"{dateformat.format(local, STYLES.get(style, STYLES['time']))} {zone_label(local)}"


def iso_in(value: datetime.datetime | None, zone: datetime.tzinfo) -> str:
    """``value`` as ISO 8601 in ``zone``, with its offset (``2026-12-05T14:05:00-06:00``), to the
    second; "" for None. For CSV files: a spreadsheet and a person both read it right."""
    if value is None:
        return ""
    return value.astimezone(zone).replace(microsecond=0).isoformat()


class EventTimeZoneMiddleware:
    """Every request starts and ends in UTC (``settings.TIME_ZONE``); an event's page turns its
    own zone on with :func:`activate_for`. Without this, a zone activated for one request would
    stay with the thread into the next."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
