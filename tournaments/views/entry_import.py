"""The director's CSV import of entries: paste or upload, preview, then confirm (all lines or
none)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext

from tournaments.csv_safety import decode_csv
from tournaments.errors import SpinnerError
from tournaments.middleware import checks_its_own_text
from tournaments.models import Event
from tournaments.permissions import director_required
from tournaments.services import entry_import
from tournaments.views.errors import show_error
from tournaments.views.events import user_of


def _read_upload(request: HttpRequest) -> str:
    upload = request.FILES.get("file")
    if upload is None:
        return request.POST.get("text", "")
    raw: bytes = upload.read(entry_import.MAX_IMPORT_LINES * 400)
    return decode_csv(raw)


@checks_its_own_text  # names each line holding a NUL (a binary file), not a bare 400
@director_required
def import_entries(request: HttpRequest, event: Event) -> HttpResponse:
    """/director/events/<slug>/import/: paste or upload a CSV, preview it, then confirm.

    The preview page carries the text in a hidden field of the confirm form (and in the edit
    box), so nothing typed is lost; confirming parses it again and saves all lines or none.
    """
    text = ""
    preview = None
    if request.method == "POST":
        text = _read_upload(request)
        if request.POST.get("action") == "confirm":
            try:
                created = entry_import.import_entries(
                    actor=user_of(request),
                    event=event,
                    text=text,
                    reuse=set(request.POST.getlist("reuse")),
                )
            except SpinnerError as exc:
                show_error(request, exc)
                preview = entry_import.preview_import(event=event, text=text)
            else:
                messages.success(
                    request,
                    ngettext("Imported %(n)s entry.", "Imported %(n)s entries.", len(created))
                    % {"n": len(created)},
                )
                return redirect("director:entries", slug=event.slug)
        else:
            preview = entry_import.preview_import(event=event, text=text)
    return render(
        request,
        "tournaments/registration/import.html",
        {
            "event": event,
            "text": text,
            "preview": preview,
            "columns": entry_import.import_columns(event),
            "has_rounds": event.rounds.exists(),
        },
    )
