"""The director's round clock controls (POST only): start, pause, resume, add minutes, end now.

``/director/events/<slug>/rounds/<n>/clock/<action>/``; the form's ``back`` field says where to
return (``desk``: the event's desk; else the round's page). Ending the clock asks first. Thin:
``services.round_clock`` writes; a refusal becomes a message.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from tournaments.errors import SpinnerError
from tournaments.models import Event, Round
from tournaments.permissions import director_required
from tournaments.services import round_clock
from tournaments.views.confirm import confirm_page, confirmed, get_goes_back
from tournaments.views.errors import show_error

ACTIONS = ("start", "pause", "resume", "extend", "end")
"""The clock's POST actions (``director:round-clock`` with ``action``)."""


def _back(request: HttpRequest, event: Event, number: int) -> str:
    if request.POST.get("back") == "desk":
        return reverse("director:event", args=[event.slug])
    return reverse("director:round", args=[event.slug, number])


def _act(request: HttpRequest, rnd: Round, action: str) -> str:
    """Do ``action``; the message that says what happened."""
    user = request.user
    if action == "start":
        round_clock.start_clock(round=rnd, actor=user)
        return gettext("Round %(n)s's clock is running.") % {"n": rnd.number}
    if action == "pause":
        round_clock.pause_clock(round=rnd, actor=user)
        return gettext("Round %(n)s's clock is paused.") % {"n": rnd.number}
    if action == "resume":
        round_clock.resume_clock(round=rnd, actor=user)
        return gettext("Round %(n)s's clock is running again.") % {"n": rnd.number}
    if action == "extend":
        minutes = request.POST.get("minutes", "")
        round_clock.extend_clock(round=rnd, minutes=minutes, actor=user)
        return gettext("%(minutes)s min added to round %(n)s's clock.") % {
            "minutes": minutes.strip(),
            "n": rnd.number,
        }
    if action == "end":
        round_clock.end_clock(round=rnd, actor=user)
        return gettext("Time is called in round %(n)s.") % {"n": rnd.number}
    raise Http404("No such action.")


@get_goes_back("director:round", "number")
@require_POST
@director_required
def clock_action(request: HttpRequest, number: int, action: str, *, event: Event) -> HttpResponse:
    """Start, pause, resume, extend (``minutes``) or end (asks first) a round's clock."""
    rnd = get_object_or_404(Round, event=event, number=number)
    back = _back(request, event, number)
    if action == "end" and not confirmed(request):
        return confirm_page(
            request,
            event=event,
            question=gettext("Call time in round %(n)s now?") % {"n": rnd.number},
            consequence=gettext(
                "The clock stops at zero: every table's phone asks to record time called, and "
                "the event's time policy ends each match. This cannot be undone."
            ),
            button=gettext("Yes, call time in round %(n)s") % {"n": rnd.number},
            cancel_url=back,
            danger=True,
            keep={"back": request.POST.get("back", "")},
        )
    try:
        messages.success(request, _act(request, rnd, action))
    except SpinnerError as exc:
        show_error(request, exc)
    return redirect(back)
