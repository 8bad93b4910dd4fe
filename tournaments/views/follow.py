"""'My table' (``/events/<slug>/me/``): a player finds their entry by name and follows it; the
page then shows their table as soon as a round is published, the round clock and their last
result, updating in place, and (with their consent) notifies their phone when pairings are
published.

- Following is a cookie of the event's own (path ``/events/<slug>/``, signed): no account.
- The live part (``me/<entry>/live/``) is polled by htmx. Its ETag is made of two version tokens
  kept in the cache (``tournaments.follow_versions``) by the services that change what it shows,
  so a poll with nothing new is a 304 after one cache read and no query at all.
- Notifications (Web Push, ``services.push``): the browser's subscription is posted as JSON to
  ``me/push/`` (CSRF-protected, throttled per address, bounded), for the followed entry.

The pages show what the public sees (the event's public pairings and results) to everyone,
directors included: one answer per entry and language, whoever asks.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import condition, require_GET, require_POST

from tournaments import follow_versions
from tournaments.errors import SpinnerError, ValidationFailed
from tournaments.models import Entry, Event
from tournaments.permissions import can_see
from tournaments.presenters import follow as presenter
from tournaments.rate_limit import client_address, throttled
from tournaments.selectors import follow as reads
from tournaments.services import push

COOKIE = "spinner_follow"
COOKIE_SALT = "spinner.follow"
COOKIE_SECONDS = 14 * 24 * 3600
POLL_SECONDS = 10
MAX_PUSH_BODY = 4096
"""A browser's subscription is a few hundred bytes: anything much larger is refused unread."""


def _public(event: Event, page: str = "pairings") -> bool:
    return can_see(AnonymousUser(), event, page)


def _event(slug: str) -> Event:
    event = get_object_or_404(Event, slug=slug)
    if not _public(event):
        raise Http404(_("No such event."))
    return event


def _cookie_path(event: Event) -> str:
    return f"/events/{event.slug}/"


def _followed(request: HttpRequest, event: Event) -> Entry | None:
    """The entry this browser follows in ``event`` (its cookie), or None."""
    value = request.get_signed_cookie(COOKIE, default=None, salt=COOKIE_SALT)
    if not value or not str(value).isdigit():
        return None
    try:
        return reads.followed_entry(event, int(value))
    except Entry.DoesNotExist:
        return None


def _live_context(event: Event, entry: Entry) -> dict[str, Any]:
    view = reads.followed_view(event, entry, show_results=_public(event, "results"))
    return {
        **presenter.live_context(view),
        "poll_seconds": POLL_SECONDS,
        "show_team": _public(event, "standings"),
    }


def _tag(slug: str, entry_id: int, tokens: tuple[str | None, str | None]) -> str:
    """The live part's ETag for these tokens ("" while one is missing: the cache is down)."""
    event_token, entry_token = tokens
    if not (event_token and entry_token):
        return ""
    return follow_versions.etag(event_token, entry_token, entry_id, translation.get_language())


@require_GET
def my_table(request: HttpRequest, slug: str) -> HttpResponse:
    """Find my entry (``?q=`` a name, folded), or, once followed, my table live."""
    event = _event(slug)
    entry = _followed(request, event)
    if entry is None:
        query = request.GET.get("q", "").strip()[: reads.SEARCH_MAX]
        found, approximate = reads.find_entries(event, query)
        return render(
            request,
            "tournaments/follow/find.html",
            {
                "event": event,
                "query": query,
                "short": bool(query) and len(reads.search_key(query)) < reads.SEARCH_MIN,
                "found": found,
                "approximate": approximate,
            },
        )
    tag = _tag(slug, entry.pk, follow_versions.ensure(slug, entry.pk))  # before the reads
    context = _live_context(event, entry)
    context["etag"] = tag  # the live part's first poll then keeps the page as it is
    context["push_key"] = settings.SPINNER_VAPID_PUBLIC_KEY if push.enabled() else ""
    return render(request, "tournaments/follow/me.html", context)


@require_POST
def follow_entry(request: HttpRequest, slug: str) -> HttpResponse:
    """Follow the entry posted (``entry``): the cookie, then the followed page."""
    event = _event(slug)
    value = request.POST.get("entry", "")
    entry = (
        Entry.objects.filter(event_id=event.pk, pk=int(value))
        .exclude(status=Entry.Status.WITHDRAWN)
        .first()
        if value.isdigit()
        else None
    )
    response = redirect("public:follow", slug=event.slug)
    if entry is None:
        messages.error(request, _("That entry is not in this event: search for your name again."))
        return response
    response.set_signed_cookie(
        COOKIE,
        str(entry.pk),
        salt=COOKIE_SALT,
        max_age=COOKIE_SECONDS,
        path=_cookie_path(event),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


@require_POST
def unfollow(request: HttpRequest, slug: str) -> HttpResponse:
    """Stop following: the cookie goes, the search comes back."""
    event = _event(slug)
    response = redirect("public:follow", slug=event.slug)
    response.delete_cookie(COOKIE, path=_cookie_path(event), samesite="Lax")
    return response


def _live_etag(request: HttpRequest, slug: str, entry_id: int) -> str | None:
    """The fragment's ETag from the cache alone (None while a token is missing)."""
    return _tag(slug, entry_id, follow_versions.read(slug, entry_id)) or None


@require_GET
@condition(etag_func=_live_etag)
def follow_live(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """The followed entry's live part (htmx polls it): 304 while nothing it shows changed,
    answered from the cache without a query; otherwise rendered, tagged with the tokens read
    before the database was."""
    tokens = follow_versions.read(slug, entry_id)
    event = _event(slug)
    try:
        entry = reads.followed_entry(event, entry_id)
    except Entry.DoesNotExist:
        raise Http404(_("No such entry in this event.")) from None
    if not all(tokens):  # made only for an entry that exists
        tokens = follow_versions.ensure(slug, entry_id)
    tag = _tag(slug, entry_id, tokens)
    response = render(request, "tournaments/follow/_live.html", _live_context(event, entry))
    if tag:
        response["ETag"] = tag
    response["Cache-Control"] = "no-cache"
    return response


def _per_address(request: HttpRequest, *args: Any, **kwargs: Any) -> str:
    return client_address(request)


def _subscription(request: HttpRequest) -> dict[str, str]:
    """The posted subscription's endpoint and keys (``{"endpoint", "keys": {"p256dh", "auth"}}``
    as the browser's ``PushSubscription.toJSON()`` gives it), bounded."""
    problem = ValidationFailed(
        _("Send the browser's push subscription as JSON."), code="invalid", details={}
    )
    if len(request.body) > MAX_PUSH_BODY:
        raise problem
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise problem from None
    keys = data.get("keys") if isinstance(data, dict) else None
    if not isinstance(keys, dict):
        raise problem
    values = {
        "endpoint": data.get("endpoint"),
        "p256dh": keys.get("p256dh"),
        "auth": keys.get("auth"),
    }
    if not all(isinstance(v, str) for v in values.values()):
        raise problem
    return values


def _error(exc: SpinnerError) -> JsonResponse:
    return JsonResponse(exc.as_dict(), status=exc.status)


@require_POST
@throttled("push_subscribe", _per_address)
def push_subscribe(request: HttpRequest, slug: str) -> HttpResponse:
    """Store this browser's push subscription for the followed entry (JSON in, JSON out:
    ``201 {"subscribed": true}`` or ``{code, message, details}``)."""
    event = _event(slug)
    entry = _followed(request, event)
    if entry is None:
        return _error(
            ValidationFailed(_("Follow your entry first."), code="not_following", details={})
        )
    try:
        if not push.enabled():
            raise push.disabled()
        values = _subscription(request)
        push.subscribe(entry=entry, language=translation.get_language(), **values)
    except SpinnerError as exc:
        return _error(exc)
    return JsonResponse({"subscribed": True}, status=201)


@require_POST
@throttled("push_subscribe", _per_address)
def push_unsubscribe(request: HttpRequest, slug: str) -> HttpResponse:
    """Forget this browser's subscription for the followed entry (``{"endpoint"}`` posted)."""
    event = _event(slug)
    entry = _followed(request, event)
    removed = 0
    if entry is not None:
        try:
            endpoint = _subscription(request)["endpoint"]
        except SpinnerError as exc:
            return _error(exc)
        removed = push.unsubscribe(entry=entry, endpoint=endpoint)
    return JsonResponse({"removed": removed})
