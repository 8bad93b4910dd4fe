from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.templatetags.static import static


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico on pages that name no icon (the projector, printed
    cards): lead them to the static icon (resolved per request, after collectstatic's manifest)."""
    return HttpResponsePermanentRedirect(static("spinner/favicon.svg"))
