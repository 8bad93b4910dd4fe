"""The API's routes (namespace ``api``), mounted once at ``/api/``: the schema and its docs,
the events, their entries and audit log, the table's endpoints, the director's endpoints, the
standings, the export, the players, the leagues and the events' webhooks."""

from __future__ import annotations

from django.urls import path, re_path, register_converter
from drf_spectacular.views import SpectacularAPIView

from tournaments.api import (
    avoidances,
    director,
    docs,
    entries,
    errors,
    events,
    playoffs,
    rounds,
    table,
    webhooks,
)
from tournaments.api.audit import EventAuditApi
from tournaments.api.export import EventExportApi
from tournaments.api.leagues import LeagueDetailApi, LeagueListApi
from tournaments.api.players import PlayerDetailApi, PlayerListApi
from tournaments.api.round_serializers import CLOCK_ACTIONS, ROUND_ACTIONS
from tournaments.api.standings import EventStandingsApi

app_name = "api"


class _Choice:
    """A path segment that is one of a few words (a round's or a clock's action)."""

    regex = ""

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class RoundActionConverter(_Choice):
    regex = "|".join(ROUND_ACTIONS)


class ClockActionConverter(_Choice):
    regex = "|".join(CLOCK_ACTIONS)


register_converter(RoundActionConverter, "round_action")
register_converter(ClockActionConverter, "clock_action")

MATCH = "matches/<int:match_id>/"
EVENT = "events/<slug:slug>/"
ENTRY = EVENT + "entries/<int:entry_id>/"
ROUND = EVENT + "rounds/<int:number>/"
WEBHOOK = EVENT + "webhooks/<int:webhook_id>/"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", docs.api_docs, name="docs"),
    # The director's event pages in another form: events, entries, the audit log.
    path("events/", events.EventListApi.as_view(), name="events-list"),
    path(EVENT, events.EventDetailApi.as_view(), name="event-detail"),
    path(EVENT + "publish/", events.EventPublishApi.as_view(), name="event-publish"),
    path(EVENT + "entries/", entries.EntryListApi.as_view(), name="entry-list"),
    path(EVENT + "entries/import/", entries.EntryImportApi.as_view(), name="entry-import"),
    path(ENTRY, entries.EntryDetailApi.as_view(), name="entry-detail"),
    path(ENTRY + "<str:action>/", entries.EntryActionApi.as_view(), name="entry-action"),
    path(EVENT + "audit/", EventAuditApi.as_view(), name="event-audit"),
    path(EVENT + "avoidances/", avoidances.AvoidanceListApi.as_view(), name="avoidance-list"),
    path(
        EVENT + "avoidances/<int:avoidance_id>/",
        avoidances.AvoidanceDetailApi.as_view(),
        name="avoidance-detail",
    ),
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
    # The director's rounds, jobs, play-off and finish.
    path(EVENT + "rounds/", rounds.RoundListApi.as_view(), name="round-list"),
    path(EVENT + "rounds/generate/", rounds.RoundGenerateApi.as_view(), name="round-generate"),
    path(EVENT + "jobs/<int:job_id>/", rounds.JobDetailApi.as_view(), name="job-detail"),
    path(ROUND, rounds.RoundDetailApi.as_view(), name="round-detail"),
    path(ROUND + "swap/", rounds.RoundSwapApi.as_view(), name="round-swap"),
    path(ROUND + "links/", rounds.RoundLinksApi.as_view(), name="round-links"),
    path(ROUND + "<round_action:action>/", rounds.RoundActionApi.as_view(), name="round-action"),
    path(
        ROUND + "clock/<clock_action:action>/", rounds.RoundClockApi.as_view(), name="round-clock"
    ),
    path(EVENT + "playoff/advance/", playoffs.PlayoffAdvanceApi.as_view(), name="playoff-advance"),
    path(EVENT + "finish/", playoffs.EventFinishApi.as_view(), name="event-finish"),
    # Last: any other path under /api/ is the JSON error body's 404, never an HTML page.
    re_path(r"^", errors.api_not_found, name="not-found"),
]
