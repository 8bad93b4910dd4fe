"""Routes by audience, each under its own namespace (``{% url 'public:standings' ... %}``):

- ``public:`` (:mod:`.public`) -- what anyone reads: events, rounds, standings, teams, matches;
- ``director:`` (:mod:`.director`) -- the director's pages under ``/director/``;
- ``table:`` (:mod:`.table`) -- the phone at the table, behind a table link (``/t/<token>/``);
- ``api:`` (:mod:`tournaments.api.urls`) -- the API, its schema and docs, mounted once at ``/api/``;
- ``ops:`` (:mod:`.ops`) -- the operators': ``/healthz``, ``/readyz``, ``/metrics``.
"""

from django.urls import include, path

urlpatterns = [
    path("", include("tournaments.urls.ops")),
    path("", include("tournaments.urls.table")),
    path("", include("tournaments.urls.director")),
    path("api/", include("tournaments.api.urls")),
    path("", include("tournaments.urls.public")),
]
