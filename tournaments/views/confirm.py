"""A confirmation step for actions that are hard to take back (close a round, publish it, undo a
check-in): the first POST shows "Are you sure?" with a button that posts again with
``confirm=yes``; a POST without that field never acts. Works without JavaScript."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

CONFIRM_FIELD = "confirm"
CONFIRM_VALUE = "yes"


def confirmed(request: HttpRequest) -> bool:
    """Whether this POST carries the confirmation (``confirm=yes``)."""
    return request.POST.get(CONFIRM_FIELD) == CONFIRM_VALUE


def confirm_page(
    request: HttpRequest,
    *,
    event: object,
    question: str,
    consequence: str,
    button: str,
    cancel_url: str,
    danger: bool = False,
    keep: dict[str, str] | None = None,
) -> HttpResponse:
    """The "Are you sure?" page: the question, what follows, ``[button]`` posting to this same
    address with the confirmation (and the ``keep`` fields), and Cancel back to ``cancel_url``."""
    return render(
        request,
        "tournaments/confirm.html",
        {
            "event": event,
            "question": question,
            "consequence": consequence,
            "button": button,
            "action": request.path,
            "cancel_url": cancel_url,
            "danger": danger,
            "keep": keep or {},
            "confirm_field": CONFIRM_FIELD,
            "confirm_value": CONFIRM_VALUE,
        },
    )
