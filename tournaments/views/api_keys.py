"""The director's API keys page ``/director/api-keys/``: their keys (name, first characters,
read or write, events, expiry, last use, revoked), a form to make one (shown once, with a copy
button), and revoking one after a confirmation step. Reached from the director's home.

Every signed-in user manages their own keys only; a key acts with its user's rights, narrowed
by its scope and events (``tournaments.services.api_tokens``).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.errors import SpinnerError
from tournaments.models import ApiToken, Event
from tournaments.selectors import api_tokens as selectors
from tournaments.services import api_tokens as services
from tournaments.views.confirm import confirmed
from tournaments.views.errors import show_error
from tournaments.views.events import user_of

if TYPE_CHECKING:  # generic for the type checker only (Django's class is not subscriptable)
    _EventsField = forms.ModelMultipleChoiceField[Event]
else:
    _EventsField = forms.ModelMultipleChoiceField


class EventChoices(_EventsField):
    """The user's events as ticks, each with its date (two events may share a name)."""

    def label_from_instance(self, obj: Event) -> str:
        return f"{obj.name} ({date_format(obj.start_date, 'j M Y')})"


class ApiKeyForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=services.NAME_MAX,
        help_text=_("To tell your keys apart, e.g. “Club website” or “Scorer app”."),
    )
    scope = forms.ChoiceField(
        label=_("What it may do"),
        choices=[
            (ApiToken.Scope.READ, _("Read only")),
            (ApiToken.Scope.WRITE, _("Read and write")),
        ],
        initial=ApiToken.Scope.READ,
        widget=forms.RadioSelect,
    )
    events = EventChoices(
        label=_("Events"),
        queryset=Event.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Tick none for every event you direct, now and later."),
    )
    expires_at = forms.DateField(
        label=_("Expires on"),
        required=False,
        # a date input reads ISO days only (a Spanish "08/03/2027" would leave it blank)
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
        help_text=_(
            "The key stops working at the start of this day (UTC). Leave it empty for a key "
            "that never expires."
        ),
    )

    def __init__(self, *args: Any, events: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        events_field = self.fields["events"]
        assert isinstance(events_field, EventChoices)
        events_field.queryset = events

    def expiry(self) -> dt.datetime | None:
        day: dt.date | None = self.cleaned_data.get("expires_at")
        return services.expiry_of_date(day) if day is not None else None


SHOWN_ONCE = "api_key_shown_once"
"""The session's slot for a key just made, between the POST and the page that shows it."""


def _page(
    request: HttpRequest, form: ApiKeyForm, *, new_key: str = "", status: int = 200
) -> HttpResponse:
    response = render(
        request,
        "tournaments/api_keys/list.html",
        {"form": form, "keys": selectors.list_api_keys(user_of(request)), "new_key": new_key},
        status=status,
    )
    # The page that shows a new key must not be kept by a browser or a proxy.
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def api_keys(request: HttpRequest) -> HttpResponse:
    """GET: the keys and the form; POST: make a key and show it, this once."""
    user = user_of(request)
    events = selectors.scopable_events(user)
    if request.method != "POST":
        initial = {"expires_at": services.default_expiry_date()}
        # A key just made is shown on the page the POST redirected to, once (a reload of that
        # page shows it no more, and makes no second key).
        shown_once = request.session.pop(SHOWN_ONCE, "")
        return _page(request, ApiKeyForm(initial=initial, events=events), new_key=shown_once)
    form = ApiKeyForm(request.POST, events=events)
    if form.is_valid():
        try:
            token, key = services.create_api_token(
                user=user,
                name=form.cleaned_data["name"],
                scope=form.cleaned_data["scope"],
                events=list(form.cleaned_data["events"]),
                expires_at=form.expiry(),
            )
        except SpinnerError as exc:
            show_error(form, exc)
        else:
            messages.success(request, gettext("Key “%(name)s” made.") % {"name": token.name})
            request.session[SHOWN_ONCE] = key
            return redirect("director:api-keys")
    return _page(request, form, status=400)


@login_required
@require_POST
def api_key_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """POST: "Revoke this key?"; POST with ``confirm=yes``: revoke it, back to the list."""
    user = user_of(request)
    token = ApiToken.objects.filter(pk=token_id, user=user).first()
    if token is None:
        raise Http404("No such API key among yours.")
    if not confirmed(request):
        return render(request, "tournaments/api_keys/revoke.html", {"token": token})
    try:
        services.revoke_api_token(token_id=token.pk, actor=user)
    except SpinnerError as exc:
        show_error(request, exc)
    else:
        messages.success(
            request,
            gettext("Key “%(name)s” (%(prefix)s…) revoked: it is refused from now on.")
            % {"name": token.name or token.prefix, "prefix": token.prefix},
        )
    return redirect("director:api-keys")
