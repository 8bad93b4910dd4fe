"""A confirmation step for actions that are hard to take back (close a round, publish it, undo a
check-in): the first POST shows "Are you sure?" with a button that posts again with
``confirm=yes``; a POST without that field never acts. Works without JavaScript."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse

CONFIRM_FIELD = "confirm"
CONFIRM_VALUE = "yes"


def get_goes_back(
    to: str, *names: str
) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """For a POST-only action whose "Are you sure?" page is shown at its own address: a GET of
    that address (the page reloaded later, opened from the history, a bookmark) goes back to the
    page ``to`` (a url name, reversed with the event's ``slug`` and ``names`` from this address)
    instead of a bare "405 Method Not Allowed". Put it above ``require_POST``."""

    def decorate(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method in ("GET", "HEAD") and request.resolver_match is not None:
                found = request.resolver_match.kwargs
                return redirect(reverse(to, kwargs={n: found[n] for n in ("slug", *names)}))
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


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
    also: tuple[str, str, str] | None = None,
) -> HttpResponse:
    """The "Are you sure?" page: the question, what follows, ``[button]`` posting to this same
    address with the confirmation (and the ``keep`` fields), and Cancel back to ``cancel_url``.
    ``also`` is a second confirming button, ``(name, value, label)``: it posts the confirmation
    with ``name=value`` (close a round *and* generate the next one: one click less)."""
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
            "also": also,
            "confirm_field": CONFIRM_FIELD,
            "confirm_value": CONFIRM_VALUE,
        },
    )
