"""URL routes: the pages, the director's pages and the API all live in ``tournaments``."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

urlpatterns = [
    path("admin/", admin.site.urls),
    # Browsers ask for /favicon.ico on pages that name no icon (the projector, printed cards).
    path("favicon.ico", RedirectView.as_view(url=static("spinner/favicon.svg"), permanent=True)),
    path("accounts/", include("tournaments.urls.accounts")),
    path("", include("tournaments.urls")),
]
