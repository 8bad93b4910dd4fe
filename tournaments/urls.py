"""Routes, one include per area (each area owns its own url module)."""

from django.urls import include, path

from tournaments.views import home

urlpatterns = [
    path("", home.home, name="home"),
    path("", include("tournaments.urls_phone")),
    path("", include("tournaments.urls_registration")),
    path("", include("tournaments.urls_rounds")),
    path("api/", include("tournaments.api.urls")),
    path("", include("tournaments.urls_results")),
    path("", include("tournaments.urls_live")),
]
