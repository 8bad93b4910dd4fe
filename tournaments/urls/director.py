"""The director's pages (namespace ``director``), all under ``/director/``: events and entries,
self check-in, rounds, results, printed cards and standings; and the director's help at
``/help/director/``."""

from django.urls import path

from tournaments.views import (
    api_keys,
    cards,
    check_in_admin,
    entries,
    entry_import,
    events,
    finish,
    help_pages,
    leagues,
    player_admin,
    results,
    round_clock,
    rounds,
    standings,
    webhooks,
)

app_name = "director"

EVENT = "director/events/<slug:slug>/"
ROUND = EVENT + "rounds/<int:number>/"
WEBHOOK = EVENT + "webhooks/<int:webhook_id>/"

urlpatterns = [
    # Events and entries.
    path("director/", events.director_home, name="home"),
    path("director/events/new/", events.event_create, name="event-create"),
    path(EVENT, events.event_dashboard, name="event"),
    path(EVENT + "edit/", events.event_edit, name="event-edit"),
    path(EVENT + "directors/", events.event_add_director, name="event-add-director"),
    path(EVENT + "entries/", entries.entries, name="entries"),
    path(EVENT + "entries/add/", entries.entry_add, name="entry-add"),
    path(EVENT + "entries/late/", entries.entry_add, {"late": True}, name="entry-late"),
    path(EVENT + "entries/apart/", entries.avoidance_add, name="avoidance-add"),
    path(
        EVENT + "entries/apart/<int:avoidance_id>/remove/",
        entries.avoidance_remove,
        name="avoidance-remove",
    ),
    path(EVENT + "entries/<int:entry_id>/", entries.entry_detail, name="entry"),
    path(
        EVENT + "entries/<int:entry_id>/<str:action>/",
        entries.entry_action,
        name="entry-action",
    ),
    path(EVENT + "import/", entry_import.import_entries, name="import"),
    path(EVENT + "audit/", events.audit_log, name="audit"),
    path(EVENT + "entries.csv", check_in_admin.entries_csv, name="entries-csv"),
    # Self check-in: the setting, the poster, the entries' code slips.
    path(EVENT + "check-in/", check_in_admin.check_in_settings, name="check-in-settings"),
    path(EVENT + "check-in/poster/", check_in_admin.check_in_poster, name="check-in-poster"),
    path(EVENT + "check-in/codes/", check_in_admin.check_in_slips, name="check-in-slips"),
    # The director's help (open to anyone: it is how the pages work, nothing of an event's).
    path("help/director/", help_pages.director_help, name="help"),
    # Leagues.
    path("director/leagues/", leagues.director_leagues, name="leagues"),
    path("director/leagues/new/", leagues.league_create, name="league-create"),
    path("director/leagues/<slug:slug>/", leagues.league_edit, name="league-edit"),
    path(
        "director/leagues/<slug:slug>/events/<str:action>/",
        leagues.league_event,
        name="league-event",
    ),
    path(EVENT + "finish/", finish.event_finish, name="event-finish"),
    # API keys (the user's own).
    path("director/api-keys/", api_keys.api_keys, name="api-keys"),
    path(
        "director/api-keys/<int:token_id>/revoke/", api_keys.api_key_revoke, name="api-key-revoke"
    ),
    # Players (across events).
    path("director/players/<int:player_id>/", player_admin.player_admin, name="player"),
    path(
        "director/players/<int:player_id>/merge/<int:into_id>/",
        player_admin.player_merge,
        name="player-merge",
    ),
    path(
        "director/players/merges/<int:audit_id>/unmerge/",
        player_admin.player_unmerge,
        name="player-unmerge",
    ),
    # Rounds.
    path(EVENT + "rounds/", rounds.round_list, name="rounds"),
    path(EVENT + "rounds/generate/", rounds.round_generate, name="round-generate"),
    path(EVENT + "rounds/playoff/advance/", rounds.playoff_advance, name="playoff-advance"),
    path(EVENT + "rounds/jobs/<int:job_id>/", rounds.generate_job, name="round-job"),
    path(ROUND, rounds.round_review, name="round"),
    path(ROUND + "swap-preview/", rounds.swap_preview, name="round-swap-preview"),
    *(
        path(
            ROUND + f"{action.replace('_', '-')}/",
            rounds.round_action,
            {"action": action},
            name=f"round-{action.replace('_', '-')}",
        )
        for action in rounds.ACTIONS
    ),
    # The round clock.
    *(
        path(
            ROUND + f"clock/{action}/",
            round_clock.clock_action,
            {"action": action},
            name=f"round-clock-{action}",
        )
        for action in round_clock.ACTIONS
    ),
    # Printed cards.
    path(ROUND + "cards/", cards.table_cards, name="table-cards"),
    path(ROUND + "pairings-sheet/", cards.pairings_sheet, name="pairings-sheet"),
    path(ROUND + "scoresheets/", cards.scoresheets_view, name="scoresheets"),
    path(EVENT + "prize-list/", cards.prize_list_view, name="prize-list"),
    # Results.
    path(EVENT + "results/", results.current_results, name="results-now"),
    path(ROUND + "results/", results.round_results, name="results"),
    path(ROUND + "results/revoke-links/", results.revoke_links, name="results-revoke-links"),
    path(ROUND + "results/<int:match_id>/", results.match_results, name="result"),
    path(ROUND + "results/<int:match_id>/resolve/", results.resolve, name="result-resolve"),
    path(ROUND + "results/<int:match_id>/enter/", results.enter_result, name="result-enter"),
    path(ROUND + "results/<int:match_id>/forfeit/", results.record_forfeit, name="result-forfeit"),
    # Standings.
    path(EVENT + "standings/", standings.director_standings, name="standings"),
    # Webhooks.
    path(EVENT + "webhooks/", webhooks.webhook_list, name="webhooks"),
    path(WEBHOOK, webhooks.webhook_detail, name="webhook"),
    path(WEBHOOK + "active/", webhooks.webhook_active, name="webhook-active"),
    path(WEBHOOK + "remove/", webhooks.webhook_remove, name="webhook-remove"),
    path(
        WEBHOOK + "deliveries/<uuid:delivery_id>/retry/",
        webhooks.webhook_retry,
        name="webhook-retry",
    ),
]
