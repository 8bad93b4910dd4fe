"""The director's webhook pages (``/director/events/<slug>/webhooks/``): the event's endpoints
with their last delivery, adding one (its secret shown once), pausing, resuming and removing one,
and an endpoint's deliveries' log with "retry now" for the failed ones. The services
(``services.webhooks``) check and audit every change."""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.errors import NotFound, SpinnerError
from tournaments.models import Event, WebhookEndpoint
from tournaments.permissions import director_required
from tournaments.selectors import webhooks as selectors
from tournaments.services import webhooks as services
from tournaments.views.confirm import confirm_page, confirmed, get_goes_back
from tournaments.views.errors import show_error


class WebhookForm(forms.Form):
    """An endpoint's address and the kinds it wants (none ticked: every kind)."""

    url = forms.CharField(
        max_length=services.MAX_URL_LENGTH,
        label=gettext_lazy("Endpoint address"),
        help_text=gettext_lazy("Its full https:// address, e.g. https://example.org/spinner-hook"),
        widget=forms.URLInput(attrs={"autocomplete": "off", "inputmode": "url"}),
    )
    kinds = forms.MultipleChoiceField(
        choices=services.WebhookKind.choices,
        required=False,
        initial=list(services.KINDS),
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Send it"),
        help_text=gettext_lazy("None ticked: every kind, including any added later."),
    )


def _endpoint(event: Event, webhook_id: int) -> WebhookEndpoint:
    try:
        return selectors.endpoint_of(event, webhook_id)
    except NotFound as exc:
        raise Http404(exc.message) from exc


def _list_page(
    request: HttpRequest, event: Event, form: WebhookForm, **extra: object
) -> HttpResponse:
    return render(
        request,
        "tournaments/webhooks/list.html",
        {
            "event": event,
            "endpoints": selectors.list_endpoints(event),
            "form": form,
            "limit": services.MAX_ENDPOINTS,
            **extra,
        },
    )


@director_required
def webhook_list(request: HttpRequest, event: Event) -> HttpResponse:
    """GET: the endpoints and the form to add one. POST: add it; the answer (not a redirect)
    shows its secret, once."""
    form = WebhookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            endpoint, secret = services.register_endpoint(
                event=event,
                actor=request.user,
                url=form.cleaned_data["url"],
                kinds=form.cleaned_data["kinds"],
            )
        except SpinnerError as exc:
            show_error(form, exc)
        else:
            return _list_page(
                request, event, WebhookForm(), new_endpoint=endpoint, new_secret=secret
            )
    return _list_page(request, event, form)


@director_required
def webhook_detail(request: HttpRequest, webhook_id: int, *, event: Event) -> HttpResponse:
    """GET: an endpoint and its latest deliveries (``?status=failed`` for the failed only)."""
    endpoint = _endpoint(event, webhook_id)
    status = request.GET.get("status", "")
    if status not in ("pending", "delivered", "failed"):
        status = ""
    deliveries = list(
        selectors.deliveries_of(endpoint, status=status)[: selectors.DELIVERIES_SHOWN]
    )
    return render(
        request,
        "tournaments/webhooks/detail.html",
        {
            "event": event,
            "endpoint": endpoint,
            "deliveries": deliveries,
            "status": status,
            "shown": selectors.DELIVERIES_SHOWN,
        },
    )


@require_POST
@director_required
def webhook_active(request: HttpRequest, webhook_id: int, *, event: Event) -> HttpResponse:
    """POST ``active=1`` (resume) or ``active=0`` (pause)."""
    endpoint = _endpoint(event, webhook_id)
    active = request.POST.get("active") == "1"
    try:
        services.update_endpoint(endpoint=endpoint, actor=request.user, active=active)
    except SpinnerError as exc:
        show_error(request, exc)
    else:
        messages.success(
            request,
            _("Deliveries to this endpoint resume.")
            if active
            else _("Paused: nothing more is sent to this endpoint until you resume it."),
        )
    return redirect("director:webhook", slug=event.slug, webhook_id=endpoint.pk)


@get_goes_back("director:webhook", "webhook_id")
@require_POST
@director_required
def webhook_remove(request: HttpRequest, webhook_id: int, *, event: Event) -> HttpResponse:
    """POST: "Are you sure?" first, then remove the endpoint and its deliveries' log."""
    endpoint = _endpoint(event, webhook_id)
    if not confirmed(request):
        return confirm_page(
            request,
            event=event,
            question=_("Remove the endpoint %(url)s?") % {"url": endpoint.url},
            consequence=_(
                "Nothing more is sent to it, and its deliveries' log goes with it. The audit "
                "log keeps that you removed it."
            ),
            button=_("Remove the endpoint"),
            cancel_url=reverse("director:webhooks", args=[event.slug]),
            danger=True,
        )
    try:
        services.remove_endpoint(endpoint=endpoint, actor=request.user)
    except SpinnerError as exc:
        show_error(request, exc)
    else:
        messages.success(request, _("Endpoint removed."))
    return redirect("director:webhooks", slug=event.slug)


@require_POST
@director_required
def webhook_retry(
    request: HttpRequest, webhook_id: int, delivery_id: uuid.UUID, *, event: Event
) -> HttpResponse:
    """POST: send a failed delivery again now."""
    endpoint = _endpoint(event, webhook_id)
    try:
        delivery = selectors.delivery_of(endpoint, str(delivery_id))
        services.retry_delivery(delivery=delivery, actor=request.user)
    except SpinnerError as exc:
        show_error(request, exc)
    else:
        messages.success(request, _("Sent again: its new status shows here in a moment."))
    return redirect("director:webhook", slug=event.slug, webhook_id=endpoint.pk)
