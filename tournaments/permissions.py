"""Who may do what. Directors belong to events and only they (and staff) change an event;
the public reads only what the event makes public."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournaments.models import Event

PUBLIC_PAGES = ("entries", "pairings", "results", "standings")


def can_direct(user: AbstractBaseUser | AnonymousUser, event: Event) -> bool:
    """True for staff and for the event's directors."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_staff", False):
        return True
    return event.directors.filter(pk=user.pk).exists()


def can_see(user: AbstractBaseUser | AnonymousUser, event: Event, page: str = "") -> bool:
    """May this visitor read the event (``page`` empty) or one of its public pages?

    Directors and staff see everything. Otherwise an event is visible once it is out of draft,
    and each page only where the event makes it public.
    """
    if can_direct(user, event):
        return True
    if event.status == Event.Status.DRAFT:
        return False
    if not page:
        return True
    if page not in PUBLIC_PAGES:
        raise ValueError(f"unknown public page {page!r}")
    return bool(getattr(event, f"public_{page}"))


def director_required(
    view: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    """For views taking ``slug``: log in first, then 404 unless the user directs that event.

    The event is passed to the view as ``event`` in place of ``slug``.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        event = get_object_or_404(Event, slug=slug)
        if not can_direct(request.user, event):
            raise Http404("No such event among yours.")
        return view(request, *args, event=event, **kwargs)

    return wrapper
