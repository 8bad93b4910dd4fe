"""URL routes: the pages, the director's pages and the API all live in ``tournaments``."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("tournaments.urls.accounts")),
    path("", include("tournaments.urls")),
]

# A database briefly out of reach answers 503 with a page that tries again by itself
# (tournaments/views/outage.py); any other failure Django's 500 page.
handler500 = "tournaments.views.outage.server_error"
