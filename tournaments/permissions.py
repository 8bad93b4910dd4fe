"""Who may do what. Directors belong to events and only they (and superusers) change an event;
staff see every event (its director pages and the director API's reads) but change none they
do not direct; the public reads only what the event makes public.

- ``can_create_events(user)``: may CREATE events: superusers, and the accounts a superuser made
  organisers (the group ``organisers``, which holds ``tournaments.add_event``).
- ``can_direct(user, event)``: may CHANGE the event (superuser, or one of its directors).
- ``can_oversee(user, event)``: may SEE everything of the event (``can_direct``, or staff).
- ``@director_required``: pages; reads for ``can_oversee``, changes for ``can_direct`` (staff get
  403 ``read_only_staff``, anyone else 404, so an event's existence is not revealed).
- ``@directors_only``: pages whose very reading hands out write power (the table cards carry
  the tables' links): every method needs ``can_direct``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, PermissionsMixin
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.html import format_html

from tournaments import time_zones
from tournaments.errors import NotAllowed
from tournaments.models import Event

PUBLIC_PAGES = ("entries", "pairings", "results", "standings")

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")

READ_ONLY_STAFF_MESSAGE = "Staff can see this event; only its directors change it."


class ReadOnlyStaff(NotAllowed):
    """A staff user (not a superuser, not one of the event's directors) tried to change it."""

    code = "read_only_staff"


def read_only_staff_error(event: Event) -> ReadOnlyStaff:
    """The error for a refused change by read-only staff (``details`` name the event)."""
    return ReadOnlyStaff(READ_ONLY_STAFF_MESSAGE, details={"event": event.slug})


def is_staff(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Logged in and staff (or superuser)."""
    return bool(
        user.is_authenticated
        and (getattr(user, "is_staff", False) or getattr(user, "is_superuser", False))
    )


#: The group a superuser adds an account to so that it may create events (migration 0005).
ORGANISERS_GROUP = "organisers"


def can_create_events(user: AbstractBaseUser | AnonymousUser) -> bool:
    """May this user create events? Superusers and organisers (``tournaments.add_event``)."""
    return isinstance(user, PermissionsMixin) and user.has_perm("tournaments.add_event")


def organisers_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Pages that create events: anyone logged in who is no organiser gets 404."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not can_create_events(request.user):
            raise Http404("No such page.")
        return view(request, *args, **kwargs)

    return wrapper


def can_direct(user: AbstractBaseUser | AnonymousUser, event: Event) -> bool:
    """May this user CHANGE the event? Superusers and the event's directors; staff do not."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return event.directors.filter(pk=user.pk).exists()


def can_oversee(user: AbstractBaseUser | AnonymousUser, event: Event) -> bool:
    """May this user SEE all of the event (director pages, drafts, the director API's reads)?
    Everyone who may direct it, and staff."""
    return is_staff(user) or can_direct(user, event)


def can_see(user: AbstractBaseUser | AnonymousUser, event: Event, page: str = "") -> bool:
    """May this visitor read the event (``page`` empty) or one of its public pages?

    Directors and staff see everything. Otherwise an event is visible once it is out of draft,
    and each page only where the event makes it public.
    """
    if can_oversee(user, event):
        return True
    if event.status == Event.Status.DRAFT:
        return False
    if not page:
        return True
    if page not in PUBLIC_PAGES:
        raise ValueError(f"unknown public page {page!r}")
    return bool(getattr(event, f"public_{page}"))


def read_only_staff_response(request: HttpRequest, event: Event) -> HttpResponse:
    """The 403 page a read-only staff user gets for a change (a small fragment for htmx)."""
    error = read_only_staff_error(event)
    if request.headers.get("HX-Request"):
        fragment = format_html('<p role="alert" data-code="{}">{}</p>', error.code, error.message)
        return HttpResponse(fragment, status=403)
    return render(
        request,
        "tournaments/roles/read_only.html",
        {"event": event, "error": error},
        status=403,
    )


def _event_guard(
    view: Callable[..., HttpResponse], *, staff_reads: bool
) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        event = get_object_or_404(Event, slug=slug)
        if not can_oversee(request.user, event):
            raise Http404("No such event among yours.")
        time_zones.activate_for(event)  # the event's pages show its times in its zone
        directs = can_direct(request.user, event)
        reading = request.method in SAFE_METHODS and staff_reads
        if not reading and not directs:
            return read_only_staff_response(request, event)
        # Templates may say so and hide the actions: ``request.spinner_read_only``.
        request.spinner_read_only = not directs  # type: ignore[attr-defined]
        return view(request, *args, event=event, **kwargs)

    return wrapper


def director_required(
    view: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    """For views taking ``slug``: log in first; 404 unless the user may oversee that event;
    a change (any method but GET/HEAD/OPTIONS) by read-only staff answers 403
    ``read_only_staff`` without calling the view. Sets ``request.spinner_read_only`` (True for
    read-only staff) for templates that hide the actions.

    The event is passed to the view as ``event`` in place of ``slug``, and the event's time
    zone is active for the view (``time_zones.activate_for``). GET must not change anything in
    the views this guards.
    """
    return _event_guard(view, staff_reads=True)


def directors_only(
    view: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    """As ``director_required``, but read-only staff get the 403 on reads too: for pages whose
    content grants write power (the table cards carry each table's link)."""
    return _event_guard(view, staff_reads=False)
