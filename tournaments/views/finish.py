"""The director finishes the event (``/director/events/<slug>/finish/``): a confirmation, then
``services.finish.finish_event`` freezes the final placings."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from tournaments.errors import SpinnerError
from tournaments.models import Event
from tournaments.permissions import director_required
from tournaments.selectors.final_placings import FinishCheck, finish_check, unplayed_matches
from tournaments.services import finish
from tournaments.views.confirm import confirm_page, confirmed, get_goes_back
from tournaments.views.errors import show_error


def _consequence(event: Event, check: FinishCheck) -> str:
    """What finishing does, naming the champion and any play-off match still to play."""
    champion = event.entries.get(pk=check.places[0].entry_id).name if check.places else ""
    if champion:
        text = gettext(
            "The final placings are frozen with %(champion)s as champion and published on the "
            "event page. The event then takes no further result: only your audited corrections, "
            "which recompute the placings."
        ) % {"champion": champion}
    else:
        text = gettext(
            "The final placings are frozen and published on the event page. The event then "
            "takes no further result: only your audited corrections, which recompute the "
            "placings."
        )
    unplayed = unplayed_matches(event)
    if unplayed:
        text += " " + ngettext(
            "Still to play: %(matches)s. Finishing now counts it as not played (the entries "
            "share a place).",
            "Still to play: %(matches)s. Finishing now counts them as not played (the entries "
            "share a place).",
            len(unplayed),
        ) % {"matches": ", ".join(unplayed)}
    return text


@get_goes_back("director:event")
@require_POST
@director_required
def event_finish(request: HttpRequest, event: Event) -> HttpResponse:
    """POST: "Are you sure?" first (naming the champion), then finish the event."""
    if not confirmed(request):
        check = finish_check(event)
        if check.error is not None:
            show_error(request, check.error)
            return redirect("director:event", slug=event.slug)
        return confirm_page(
            request,
            event=event,
            question=gettext("Finish %(name)s?") % {"name": event.name},
            consequence=_consequence(event, check),
            button=gettext("Finish the event"),
            cancel_url=reverse("director:event", args=[event.slug]),
        )
    try:
        finish.finish_event(event=event, actor=request.user)
    except SpinnerError as exc:
        show_error(request, exc)
    else:
        messages.success(
            request, gettext("The event is finished: its final placings are published.")
        )
    return redirect("director:event", slug=event.slug)
