"""URL routes: the pages, the director's pages and the API all live in ``tournaments``."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("tournaments.urls.accounts")),
    path("", include("tournaments.urls")),
]
