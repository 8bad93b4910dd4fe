"""The director's side of self check-in: the setting (on, off, the day's code), the printable
poster with the check-in page's QR code, the printable slips of the entries' codes, and the
entries as CSV (check-in times in the event's zone, ISO 8601 with the offset)."""

from __future__ import annotations

import io

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournaments import check_in_codes, csv_safety, time_zones
from tournaments.errors import SpinnerError
from tournaments.models import Entry, Event
from tournaments.permissions import director_required
from tournaments.presenters.cards import qr_svg
from tournaments.selectors import registration as registration_reads
from tournaments.services import self_check_in
from tournaments.views.errors import show_error
from tournaments.views.events import user_of


@require_POST
@director_required
def check_in_settings(request: HttpRequest, event: Event) -> HttpResponse:
    """POST ``action``: ``on`` / ``off`` (self check-in), ``day-code`` (set the typed
    ``day_code``, or draw one), ``clear-day-code``. Back to the event's page."""
    action = request.POST.get("action", "")
    actor = user_of(request)
    try:
        if action in ("on", "off"):
            self_check_in.set_self_check_in(actor=actor, event=event, enabled=action == "on")
            messages.success(
                request,
                _("Self check-in is on.") if action == "on" else _("Self check-in is off."),
            )
        elif action == "day-code":
            typed = request.POST.get("day_code", "")[:100]  # the service says what is wrong
            self_check_in.set_day_code(actor=actor, event=event, code=typed)
            messages.success(request, _("The code for the day is set."))
        elif action == "clear-day-code":
            self_check_in.clear_day_code(actor=actor, event=event)
            messages.success(request, _("No code for the day: only the entries' own codes work."))
        else:
            messages.error(request, _("Unknown action."))
    except SpinnerError as exc:
        show_error(request, exc)
    return redirect(reverse("director:event", args=[event.slug]) + "#self-check-in")


def _page_url(request: HttpRequest, event: Event) -> str:
    return request.build_absolute_uri(reverse("public:check-in", args=[event.slug]))


@director_required
def check_in_poster(request: HttpRequest, event: Event) -> HttpResponse:
    """The printable poster: the check-in page's QR code and address (the day's code is not on
    it: the director announces that)."""
    url = _page_url(request, event)
    return render(
        request,
        "tournaments/check_in/poster.html",
        {"event": event, "url": url, "qr": qr_svg(url)},
    )


@never_cache  # the slips carry every entry's code
@director_required
def check_in_slips(request: HttpRequest, event: Event) -> HttpResponse:
    """Printable slips, one per entry: its name, players and check-in code (turning self
    check-in on gives a code to every entry registered before codes existed)."""
    entries = registration_reads.list_entries(event=event)
    return render(
        request,
        "tournaments/check_in/slips.html",
        {"event": event, "entries": entries, "url": _page_url(request, event)},
    )


CSV_COLUMNS = [
    "entry_id",
    "name",
    "players",
    "status",
    "checked_in_at",
    "checked_in_by",
    "check_in_code",
    "registered_at",
]


@never_cache
@director_required
def entries_csv(request: HttpRequest, event: Event) -> HttpResponse:
    """``entries.csv``: every entry, its status and when and how it checked in, its code; times
    in the event's zone, ISO 8601 with the offset (``2026-12-05T09:05:00-06:00``)."""
    zone = time_zones.zone_of(event)
    buffer = io.StringIO()
    writer = csv_safety.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in registration_reads.list_entries(event=event):
        checked = entry.status == Entry.Status.CHECKED_IN
        writer.writerow(
            [
                entry.pk,
                entry.name,
                " & ".join(m.player.name for m in entry.members.all()),
                entry.status,
                time_zones.iso_in(entry.checked_in_at, zone) if checked else "",
                ("self" if entry.checked_in_by_self else "desk") if checked else "",
                check_in_codes.shown(entry.check_in_code),
                time_zones.iso_in(entry.registered_at, zone),
            ]
        )
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-entries.csv"'
    return response
