"""Live standings routes (area ``live``)."""

from django.urls import path

from tournaments.views import live

urlpatterns = [
    path("events/<slug:slug>/standings/", live.standings, name="live-standings"),
    path("events/<slug:slug>/standings/live/", live.standings_live, name="live-standings-live"),
    path("events/<slug:slug>/standings.csv", live.standings_csv, name="live-standings-csv"),
    path("events/<slug:slug>/teams/<int:entry_id>/", live.team, name="live-team"),
    path("events/<slug:slug>/matches/<int:match_id>/", live.match, name="live-match"),
    path(
        "director/events/<slug:slug>/standings/",
        live.director_standings,
        name="live-director-standings",
    ),
]
