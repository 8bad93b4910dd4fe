"""The API's routes (namespace ``api``), mounted once at ``/api/``: the schema and its docs,
the table's endpoints, the director's endpoints, the standings, the export, the players,
the leagues and the events' webhooks."""

from __future__ import annotations

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView

from tournaments.api import director, docs, errors, table, webhooks
from tournaments.api.export import EventExportApi
from tournaments.api.leagues import LeagueDetailApi, LeagueListApi
from tournaments.api.players import PlayerDetailApi, PlayerListApi
from tournaments.api.standings import EventStandingsApi

app_name = "api"

MATCH = "matches/<int:match_id>/"
ROUND = "events/<slug:slug>/rounds/<int:number>/"
WEBHOOK = "events/<slug:slug>/webhooks/<int:webhook_id>/"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", docs.api_docs, name="docs"),
    path("events/<slug:slug>/export/", EventExportApi.as_view(), name="event-export"),
    path("events/<slug:slug>/standings/", EventStandingsApi.as_view(), name="event-standings"),
    # Players across events (public read).
    path("players/", PlayerListApi.as_view(), name="player-list"),
    path("players/<int:player_id>/", PlayerDetailApi.as_view(), name="player-detail"),
    path("leagues/", LeagueListApi.as_view(), name="league-list"),
    path("leagues/<slug:slug>/", LeagueDetailApi.as_view(), name="league-detail"),
    # The table's endpoints (a table link's token) and the match's detail.
    path("table/", table.TableMatchApi.as_view(), name="table-match"),
    path(MATCH, table.MatchDetailApi.as_view(), name="match-detail"),
    path(MATCH + "verify/", table.SheetVerifyApi.as_view(), name="sheet-verify"),
    path(MATCH + "claims/", table.MatchClaimsApi.as_view(), name="match-claims"),
    path(MATCH + "confirm/", table.ClaimConfirmApi.as_view(), name="claim-confirm"),
    # The director's endpoints.
    path(MATCH + "resolve/", director.ResultResolveApi.as_view(), name="result-resolve"),
    path(MATCH + "override/", director.ResultOverrideApi.as_view(), name="result-override"),
    path(MATCH + "correct/", director.ResultCorrectApi.as_view(), name="result-correct"),
    path(MATCH + "forfeit/", director.ResultForfeitApi.as_view(), name="result-forfeit"),
    path(ROUND + "matches/", director.RoundMatchListApi.as_view(), name="round-matches"),
    path(ROUND + "claims/", director.RoundClaimListApi.as_view(), name="round-claims"),
    path(
        ROUND + "revoke-links/", director.RoundLinksRevokeApi.as_view(), name="round-links-revoke"
    ),
    # The event's webhooks (its directors').
    path("events/<slug:slug>/webhooks/", webhooks.WebhookListApi.as_view(), name="webhook-list"),
    path(WEBHOOK, webhooks.WebhookDetailApi.as_view(), name="webhook-detail"),
    path(
        WEBHOOK + "deliveries/",
        webhooks.WebhookDeliveryListApi.as_view(),
        name="webhook-deliveries",
    ),
    path(
        WEBHOOK + "deliveries/<uuid:delivery_id>/retry/",
        webhooks.WebhookDeliveryRetryApi.as_view(),
        name="webhook-delivery-retry",
    ),
    # Last: any other path under /api/ is the JSON error body's 404, never an HTML page.
    re_path(r"^", errors.api_not_found, name="not-found"),
]
