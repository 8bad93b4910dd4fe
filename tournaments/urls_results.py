"""Results pages: the director's entry board and match page, the table's page."""

from __future__ import annotations

from django.urls import include, path

from tournaments.views import results

urlpatterns = [
    path("api/", include("tournaments.api.urls_results")),
    path("t/<str:token>/", results.table_entry, name="table_entry"),
    path(
        "director/events/<slug:slug>/rounds/<int:number>/results/",
        results.round_results,
        name="results-round",
    ),
    path(
        "director/events/<slug:slug>/rounds/<int:number>/results/revoke-links/",
        results.revoke_links,
        name="results-revoke-links",
    ),
    path(
        "director/events/<slug:slug>/rounds/<int:number>/results/<int:match_id>/",
        results.match_results,
        name="results-match",
    ),
    path(
        "director/events/<slug:slug>/rounds/<int:number>/results/<int:match_id>/resolve/",
        results.resolve,
        name="results-resolve",
    ),
    path(
        "director/events/<slug:slug>/rounds/<int:number>/results/<int:match_id>/enter/",
        results.enter_result,
        name="results-enter",
    ),
]
