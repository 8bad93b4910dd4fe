"""The one way a page shows an application error (a ``SpinnerError`` a service raised).

``show_error(form, exc)`` puts it on the form that was sent (its fields' errors where the error
names fields, else at the top, with the first faults of an engine verdict); ``show_error(request,
exc)`` makes it a message on the next page (a redirect after a POST).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest

from tournaments.errors import SpinnerError

VERDICT_FAULTS_SHOWN = 5


def _verdict_faults(details: Any) -> list[str]:
    """The first faults of an engine verdict in the error's details, hand and play counted
    from 1 as the pages show them."""
    verdict = details.get("verdict") if isinstance(details, dict) else None
    lines = []
    for error in ((verdict or {}).get("errors") or [])[:VERDICT_FAULTS_SHOWN]:
        where = []
        if isinstance(error.get("hand"), int):
            where.append(f"hand {error['hand'] + 1}")
        if isinstance(error.get("move"), int):
            where.append(f"play {error['move'] + 1}")
        prefix = ", ".join(where) + ": " if where else ""
        lines.append(f"{prefix}{error.get('message')}")
    return lines


def show_error(target: forms.Form | HttpRequest, exc: SpinnerError) -> None:
    """Show a service's refusal: on ``target`` the form (field by field where ``details`` has
    ``errors`` by field, else the message at the top and a verdict's faults), or as an error
    message of ``target`` the request."""
    if not isinstance(target, forms.Form):
        messages.error(target, exc.message)
        return
    errors = exc.details.get("errors") if isinstance(exc.details, dict) else None
    if isinstance(errors, dict) and errors:
        for field, message in errors.items():
            target.add_error(field if field in target.fields else None, message)
        return
    target.add_error(None, exc.message)
    for line in _verdict_faults(exc.details):
        target.add_error(None, line)


def show_form_errors(request: HttpRequest, form: forms.Form) -> None:
    """A form's own errors as messages (for a form posted from a page that redirects back)."""
    for field, errs in form.errors.items():
        for err in errs:
            messages.error(request, f"{field}: {err}" if field != "__all__" else str(err))
