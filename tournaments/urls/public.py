"""Public pages (namespace ``public``): events, round pages, standings, the play-off's bracket,
teams and matches, players; leagues and their season tables; the language switch (Django's
``set_language`` at ``/i18n/setlang/``, ``public:set_language``)."""

from django.urls import include, path

from tournaments.views import (
    bracket,
    home,
    leagues,
    players,
    projector,
    public,
    rounds,
    standings,
)

app_name = "public"

urlpatterns = [
    path("", home.home, name="home"),
    # Browsers ask for /favicon.ico on pages that name no icon (the projector, printed cards).
    path("favicon.ico", home.favicon, name="favicon"),
    path("events/", public.event_list, name="events"),
    path("events/<slug:slug>/", public.event_detail, name="event"),
    path("events/<slug:slug>/rounds/<int:number>/", rounds.public_round, name="round"),
    path("events/<slug:slug>/standings/", standings.standings, name="standings"),
    path("events/<slug:slug>/standings/live/", standings.standings_live, name="standings-live"),
    path("events/<slug:slug>/bracket/", bracket.bracket, name="bracket"),
    path("events/<slug:slug>/bracket/live/", bracket.bracket_live, name="bracket-live"),
    path("events/<slug:slug>/projector/", projector.projector_page, name="projector"),
    path("events/<slug:slug>/standings.csv", standings.standings_csv, name="standings-csv"),
    path("events/<slug:slug>/teams/<int:entry_id>/", standings.team, name="team"),
    path("events/<slug:slug>/matches/<int:match_id>/", standings.match, name="match"),
    path("players/", players.player_search, name="players"),
    path("players/<int:player_id>/", players.player_detail, name="player"),
    # Leagues: the season table over their events.
    path("leagues/", leagues.league_list, name="leagues"),
    path("leagues/<slug:slug>/", leagues.league_detail, name="league"),
    path("leagues/<slug:slug>/table.csv", leagues.league_table_csv, name="league-table-csv"),
    # The language switch (every page's header): remembered in the language cookie.
    path("i18n/", include("django.conf.urls.i18n")),
]
