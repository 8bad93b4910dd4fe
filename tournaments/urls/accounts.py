"""Account routes under ``/accounts/``: Django's auth views, named as in its ``auth.urls``.

Password reset sends mail: it is mounted only where mail is configured
(``settings.SPINNER_PASSWORD_RESET``, on by default when ``EMAIL_HOST`` is set). Without it its
pages answer 404 and the log in page offers no "forgot" link. Reset requests are throttled per
address (scope ``password_reset``); logins are guarded by django-axes and
``tournaments.login_guard`` (settings.py).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.urls import path

from tournaments.login_guard import remember_device
from tournaments.rate_limit import client_address, throttled


def password_reset_enabled() -> bool:
    return bool(getattr(settings, "SPINNER_PASSWORD_RESET", False))


def _reset_only_with_mail(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not password_reset_enabled():
            raise Http404("Password reset is not available here.")
        return view(request, *args, **kwargs)

    return wrapper


class LoginView(auth_views.LoginView):
    def form_valid(self, form: Any) -> HttpResponse:
        """Logged in: this browser is remembered as one the username logs in from, so a pause
        of its address (someone guessing on the same Wi-Fi) does not hold for it."""
        response = super().form_valid(form)
        remember_device(response, form.get_user().get_username())
        return response

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["password_reset_enabled"] = password_reset_enabled()
        return context


def _by_address(request: HttpRequest, *args: Any, **kwargs: Any) -> str:
    return client_address(request)


reset_request = throttled("password_reset", _by_address, methods=("POST",))

urlpatterns = [
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "password_reset/",
        _reset_only_with_mail(reset_request(auth_views.PasswordResetView.as_view())),
        name="password_reset",
    ),
    path(
        "password_reset/done/",
        _reset_only_with_mail(auth_views.PasswordResetDoneView.as_view()),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        _reset_only_with_mail(reset_request(auth_views.PasswordResetConfirmView.as_view())),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        _reset_only_with_mail(auth_views.PasswordResetCompleteView.as_view()),
        name="password_reset_complete",
    ),
]
