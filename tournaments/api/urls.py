"""API routes, mounted at ``/api/``."""

from django.urls import path

from tournaments.api.export import EventExportApi
from tournaments.api.standings import EventStandingsApi

urlpatterns = [
    path("events/<slug:slug>/export/", EventExportApi.as_view(), name="api-event-export"),
    path("events/<slug:slug>/standings/", EventStandingsApi.as_view(), name="api-event-standings"),
]
