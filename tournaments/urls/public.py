"""Public pages (namespace ``public``): events, round pages, standings, the play-off's bracket,
teams and matches, "my table", players; leagues and their season tables; self check-in; the
players' help; the language switch (Django's ``set_language`` at ``/i18n/setlang/``,
``public:set_language``)."""

from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from tournaments.views import (
    bracket,
    check_in,
    follow,
    help_pages,
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
    # "My table": find and follow an entry, its table live, notifications when pairings are out.
    path("events/<slug:slug>/me/", follow.my_table, name="follow"),
    path("events/<slug:slug>/me/follow/", follow.follow_entry, name="follow-entry"),
    path("events/<slug:slug>/me/stop/", follow.unfollow, name="unfollow"),
    path("events/<slug:slug>/me/<int:entry_id>/live/", follow.follow_live, name="follow-live"),
    path("events/<slug:slug>/me/push/", follow.push_subscribe, name="follow-push"),
    path("events/<slug:slug>/me/push/stop/", follow.push_unsubscribe, name="follow-push-stop"),
    path("events/<slug:slug>/bracket/", bracket.bracket, name="bracket"),
    path("events/<slug:slug>/bracket/live/", bracket.bracket_live, name="bracket-live"),
    path("events/<slug:slug>/projector/", projector.projector_page, name="projector"),
    path("events/<slug:slug>/standings.csv", standings.standings_csv, name="standings-csv"),
    path("events/<slug:slug>/teams/<int:entry_id>/", standings.team, name="team"),
    # Self check-in: the page the event's check-in poster's QR code opens.
    path("events/<slug:slug>/check-in/", check_in.check_in_page, name="check-in"),
    path("events/<slug:slug>/matches/<int:match_id>/", standings.match, name="match"),
    path("players/", players.player_search, name="players"),
    path("players/<int:player_id>/", players.player_detail, name="player"),
    # Leagues: the season table over their events.
    path("leagues/", leagues.league_list, name="leagues"),
    path("leagues/<slug:slug>/", leagues.league_detail, name="league"),
    path("leagues/<slug:slug>/table.csv", leagues.league_table_csv, name="league-table-csv"),
    # Help for the players at the table (the director's is in the director namespace).
    path("help/table/", help_pages.table_help, name="help-table"),
    # The language switch (every page's header): remembered in the language cookie. It takes no
    # CSRF token: the public pages are shared documents (tournaments/documents.py) that carry
    # none, and all a forged post could do is choose a reader's language.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
]
