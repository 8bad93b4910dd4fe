"""The phone at the table (namespace ``table``), behind a table link: ``/t/<token>/``."""

from django.urls import path

from tournaments.views import table

app_name = "table"

urlpatterns = [
    path("t/sw.js", table.service_worker, name="sw"),
    path("t/<str:token>/", table.table_page, name="page"),
    path("t/<str:token>/status", table.claim_status, name="status"),
    path("t/<str:token>/position", table.position, name="position"),
    path("t/<str:token>/clock", table.round_clock, name="clock"),
]
