"""The results API's routes (mounted under ``/api/``), and the schema and its docs page."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from tournaments.api import docs
from tournaments.api import results as api

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", docs.api_docs, name="api-docs"),
    path("table/", api.TableMatchApi.as_view(), name="api-table-match"),
    path("matches/<int:match_id>/", api.MatchDetailApi.as_view(), name="api-match-detail"),
    path("matches/<int:match_id>/verify/", api.SheetVerifyApi.as_view(), name="api-sheet-verify"),
    path("matches/<int:match_id>/claims/", api.MatchClaimsApi.as_view(), name="api-match-claims"),
    path(
        "matches/<int:match_id>/confirm/", api.ClaimConfirmApi.as_view(), name="api-claim-confirm"
    ),
    path(
        "matches/<int:match_id>/resolve/", api.ResultResolveApi.as_view(), name="api-result-resolve"
    ),
    path(
        "matches/<int:match_id>/override/",
        api.ResultOverrideApi.as_view(),
        name="api-result-override",
    ),
    path(
        "matches/<int:match_id>/correct/", api.ResultCorrectApi.as_view(), name="api-result-correct"
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/matches/",
        api.RoundMatchListApi.as_view(),
        name="api-round-matches",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/claims/",
        api.RoundClaimListApi.as_view(),
        name="api-round-claims",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/revoke-links/",
        api.RoundLinksRevokeApi.as_view(),
        name="api-round-links-revoke",
    ),
]
