"""API routes, mounted at ``/api/``."""

from django.urls import path

from tournaments.api.export import EventExportApi

urlpatterns = [
    path("events/<slug:slug>/export/", EventExportApi.as_view(), name="api-event-export"),
]
