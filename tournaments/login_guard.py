"""Log in throttling over django-axes' records: a limit per address, a growing delay per username.

Axes records each failed log in (``AccessAttempt``: username, address, failures, last time) and,
with ``AXES_LOCKOUT_PARAMETERS = ["ip_address"]``, refuses every log in from an address with
``AXES_FAILURE_LIMIT`` failures (any usernames) in ``AXES_COOLOFF_TIME``: that address is
throttled, the accounts are not (another address logs in as before). This handler adds what axes
has no option for: a username's failures from all addresses beyond
``SPINNER_LOGIN_USERNAME_FAILURES`` make its next try wait, ``SPINNER_LOGIN_DELAY_SECONDS`` after
the first failure past them, then twice as long after each further one, at most
``SPINNER_LOGIN_MAX_DELAY_SECONDS``. A try during a wait or from a throttled address is refused
before the password is checked and is not counted (``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT
= False``), so hammering never lengthens a wait; the refusal (429, ``Retry-After``) says when
the next try is possible (:func:`lockout_response`).

With the username's allowance at least the address limit (the defaults: 5 and 5), one address
alone never delays anybody: it is throttled before the username's failures reach the delays. On
a venue's shared Wi-Fi someone guessing pauses log ins from that address, for at most
``SPINNER_LOCKOUT_MINUTES``; but a browser that has logged in as that username before carries
a signed cookie saying so (:func:`remember_device`, set by the log in page) and the address's
pause does not hold for it (the username's wait does): the director's own phone or laptop logs
in on the venue's Wi-Fi while a stranger's guesses are refused (OWASP's "device cookies").
A successful log in forgets only that browser's failures for that username (address and agent).

"Address" is :func:`tournaments.client_ip.client_address` (axes' ``AXES_CLIENT_IP_CALLABLE``, so
``request.axes_ip_address``): behind the proxies of ``SPINNER_TRUSTED_PROXIES`` the client's,
not the proxy's; a client's own ``X-Forwarded-For`` is never believed.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

ADDRESS = "address"
USERNAME = "username"


@dataclass(frozen=True)
class Pause:
    """Log ins refused until ``until``: from this address, or for this username."""

    until: datetime.datetime
    reason: str  # ADDRESS or USERNAME

    def seconds(self, now: datetime.datetime) -> int:
        return max(1, math.ceil((self.until - now).total_seconds()))


def username_delay(failures: int) -> float:
    """Seconds the next try for a username waits after its last failure (0: none)."""
    free = int(settings.SPINNER_LOGIN_USERNAME_FAILURES)
    if failures <= free:
        return 0.0
    base = float(settings.SPINNER_LOGIN_DELAY_SECONDS)
    cap = float(settings.SPINNER_LOGIN_MAX_DELAY_SECONDS)
    return float(min(base * 2 ** min(failures - free - 1, 40), cap))


def _recent(request: HttpRequest) -> QuerySet[AccessAttempt]:
    """The failures axes still counts (newer than its cool-off)."""
    since: datetime.datetime = get_cool_off_threshold(request)
    recent: QuerySet[AccessAttempt] = AccessAttempt.objects.filter(attempt_time__gte=since)
    return recent


def address_pause(request: HttpRequest) -> Pause | None:
    """The address's pause: it lasts until enough of its failures are older than the cool-off
    for the rest to be under the limit."""
    rows = list(
        _recent(request)
        .filter(ip_address=request.axes_ip_address)  # type: ignore[attr-defined]
        .order_by("attempt_time")
        .values_list("failures_since_start", "attempt_time")
    )
    limit = get_failure_limit(request, None)
    remaining = sum(failures for failures, _ in rows)
    cool_off = get_cool_off(request) or datetime.timedelta(0)
    for failures, when in rows:
        if remaining < limit:
            break
        remaining -= failures
        if remaining < limit:
            return Pause(until=when + cool_off, reason=ADDRESS)
    return None


def username_pause(request: HttpRequest, username: str | None) -> Pause | None:
    """The username's pause: its last failure plus :func:`username_delay` of its failures."""
    if not username:
        return None
    found = (
        _recent(request)
        .filter(username=username)
        .aggregate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
    )
    delay = username_delay(found["failures"] or 0)
    if not delay or found["last"] is None:
        return None
    until = found["last"] + datetime.timedelta(seconds=delay)
    return Pause(until=until, reason=USERNAME) if until > timezone.now() else None


DEVICE_COOKIE = "spinner_login_device"
_DEVICE_SALT = "spinner.login-guard.device"
_DEVICE_SECONDS = 180 * 86400


def remember_device(response: HttpResponse, username: str) -> None:
    """After a successful log in: this browser has logged in as ``username`` (signed, 180 days)."""
    response.set_signed_cookie(
        DEVICE_COOKIE,
        username,
        salt=_DEVICE_SALT,
        max_age=_DEVICE_SECONDS,
        httponly=True,
        secure=settings.SESSION_COOKIE_SECURE,
        samesite="Lax",
    )


def known_device(request: HttpRequest, username: str | None) -> bool:
    """The browser has logged in as ``username`` before (its cookie is ours and names it)."""
    if not username:
        return False
    found = request.get_signed_cookie(
        DEVICE_COOKIE, default=None, salt=_DEVICE_SALT, max_age=_DEVICE_SECONDS
    )
    return bool(found == username)


def pause_of(request: HttpRequest, credentials: dict[str, Any] | None) -> Pause | None:
    """The later of the address's and the username's pauses, if either holds now (the
    address's not for a browser known to the username)."""
    username = get_client_username(request, credentials)
    address = None if known_device(request, username) else address_pause(request)
    pauses = [p for p in (address, username_pause(request, username)) if p]
    now = timezone.now()
    pauses = [p for p in pauses if p.until > now]
    return max(pauses, key=lambda p: p.until) if pauses else None


class LoginGuardHandler(AxesDatabaseHandler):  # type: ignore[misc]
    """Axes' database handler, with the username's growing delay (``AXES_HANDLER``)."""

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        username = get_client_username(request, credentials)
        if super().is_locked(request, credentials) and not known_device(request, username):
            return True
        return username_pause(request, username) is not None

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        """Axes records the failure (and throttles the address at its limit); a failure that
        puts the username into a wait answers as a refusal saying when to try again."""
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None:
            return
        username = get_client_username(request, credentials)
        if username_pause(request, username) is not None:
            request.axes_locked_out = True
            request.axes_credentials = credentials
        elif request.axes_locked_out and known_device(request, username):
            request.axes_locked_out = False  # the address's pause does not hold for it

    def user_logged_in(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        """Axes' bookkeeping, then forget this browser's own failures for this username (its
        address and user agent): not the address's others, a stranger's guesses on the same
        Wi-Fi, nor the username's from elsewhere."""
        super().user_logged_in(sender, request, user, **kwargs)
        AccessAttempt.objects.filter(
            username=user.get_username(),
            ip_address=request.axes_ip_address,
            user_agent=request.axes_user_agent,
        ).delete()


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """The refusal (``AXES_LOCKOUT_CALLABLE``): 429 with ``Retry-After``, a page saying why and
    when the next try is possible, and the log in form again with the username kept."""
    now = timezone.now()
    pause = pause_of(request, credentials) or Pause(
        until=now + datetime.timedelta(seconds=1), reason=USERNAME
    )
    seconds = pause.seconds(now)
    context = {
        "pause": pause,
        "from_address": pause.reason == ADDRESS,
        "seconds": seconds,
        "minutes": math.ceil(seconds / 60),
        "until_utc": pause.until.astimezone(datetime.UTC).strftime("%H:%M:%S"),
        "username": get_client_username(request, credentials) or "",
        "next": request.POST.get("next", "") if request.method == "POST" else "",
    }
    response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response
