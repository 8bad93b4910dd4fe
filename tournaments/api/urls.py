"""The API's routes (namespace ``api``), mounted once at ``/api/``: the schema and its docs,
the table's endpoints, the director's endpoints, the standings and the export."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from tournaments.api import docs
from tournaments.api import results as api
from tournaments.api.export import EventExportApi
from tournaments.api.standings import EventStandingsApi

app_name = "api"

MATCH = "matches/<int:match_id>/"
ROUND = "events/<slug:slug>/rounds/<int:number>/"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", docs.api_docs, name="docs"),
    path("events/<slug:slug>/export/", EventExportApi.as_view(), name="event-export"),
    path("events/<slug:slug>/standings/", EventStandingsApi.as_view(), name="event-standings"),
    # The table's endpoints (a table link's token) and the match's detail.
    path("table/", api.TableMatchApi.as_view(), name="table-match"),
    path(MATCH, api.MatchDetailApi.as_view(), name="match-detail"),
    path(MATCH + "verify/", api.SheetVerifyApi.as_view(), name="sheet-verify"),
    path(MATCH + "claims/", api.MatchClaimsApi.as_view(), name="match-claims"),
    path(MATCH + "confirm/", api.ClaimConfirmApi.as_view(), name="claim-confirm"),
    # The director's endpoints.
    path(MATCH + "resolve/", api.ResultResolveApi.as_view(), name="result-resolve"),
    path(MATCH + "override/", api.ResultOverrideApi.as_view(), name="result-override"),
    path(MATCH + "correct/", api.ResultCorrectApi.as_view(), name="result-correct"),
    path(ROUND + "matches/", api.RoundMatchListApi.as_view(), name="round-matches"),
    path(ROUND + "claims/", api.RoundClaimListApi.as_view(), name="round-claims"),
    path(ROUND + "revoke-links/", api.RoundLinksRevokeApi.as_view(), name="round-links-revoke"),
]
