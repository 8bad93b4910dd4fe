"""The phone at the table (namespace ``table``), behind a table link: ``/t/<token>/``."""

from django.urls import path

from tournaments.views import table
from tournaments.views.i18n_catalog import javascript_catalog

app_name = "table"

urlpatterns = [
    path("t/sw.js", table.service_worker, name="sw"),
    # The phone page's script's strings in the reader's language (``gettext`` in phone.js); under
    # /t/ so that the service worker keeps it for offline reloads.
    # Kept by the browser a day, then revalidated by its ETag (views/i18n_catalog.py).
    path("t/i18n.js", javascript_catalog, name="jsi18n"),
    path("t/<str:token>/", table.table_page, name="page"),
    path("t/<str:token>/status", table.claim_status, name="status"),
    path("t/<str:token>/position", table.position, name="position"),
    path("t/<str:token>/clock", table.round_clock, name="clock"),
    path("t/<str:token>/language", table.language, name="language"),
]
