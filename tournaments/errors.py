"""The application's one error family, mapped once at each edge (views: ``show_error`` in
``tournaments.views.errors``; API: the ``{code, message, details}`` body), and the one registry of
every error code the application gives (:class:`ErrorCode`, published as the API's error-code
enum). Tests assert on ``code``, never on wording; a test scans the source so that a code raised
anywhere in ``tournaments`` is listed here."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """Every error code the application gives, one registry (as Zulip's ``ErrorCode``).

    A ``SpinnerError`` carries one of these in ``code``; the API's error body's ``code`` field is
    this enum in the OpenAPI schema. Add a code here when you raise a new one (a test fails
    otherwise). The values are the wire format: never rename one.
    """

    # The error family's defaults (``SpinnerError`` and its four kinds).
    ERROR = "error"
    INVALID = "invalid"
    FORBIDDEN = "forbidden"
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"

    # The API's edge: requests, authentication, throttling, the server.
    BAD_REQUEST = "bad_request"
    PARSE_ERROR = "parse_error"
    REQUEST_TOO_LARGE = "request_too_large"
    AUTHENTICATION_FAILED = "authentication_failed"
    NOT_AUTHENTICATED = "not_authenticated"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_ACCEPTABLE = "not_acceptable"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    THROTTLED = "throttled"
    SERVER_ERROR = "server_error"
    SERVICE_UNAVAILABLE = "service_unavailable"
    INTERNAL_ERROR = "internal_error"
    IDEMPOTENCY_KEY_INVALID = "idempotency_key_invalid"
    IDEMPOTENCY_KEY_REQUIRED = "idempotency_key_required"
    IDEMPOTENCY_MISMATCH = "idempotency_mismatch"
    INVALID_IF_MATCH = "invalid_if_match"
    INVALID_CURSOR = "invalid_cursor"

    # API keys (``Authorization: Token <key>``): their limits, and managing them.
    API_TOKEN_REVOKED = "api_token_revoked"
    API_TOKEN_EXPIRED = "api_token_expired"
    API_TOKEN_READ_ONLY = "api_token_read_only"
    API_TOKEN_EVENT_SCOPED = "api_token_event_scoped"
    API_TOKEN_NOT_FOUND = "api_token_not_found"
    API_TOKEN_EXPIRY_PAST = "api_token_expiry_past"

    # Roles and table links.
    READ_ONLY_STAFF = "read_only_staff"
    TABLE_LINK_INVALID = "table_link_invalid"
    TABLE_LINK_EXPIRED = "table_link_expired"
    TABLE_LINK_REQUIRED = "table_link_required"
    NOT_YOUR_SIDE = "not_your_side"
    TABLE_NOT_FOUND = "table_not_found"
    NO_MATCH_AT_TABLE = "no_match_at_table"
    POSITION_INVALID = "position_invalid"

    # Events: settings and directors.
    NAME_REQUIRED = "name_required"
    INVALID_CHOICE = "invalid_choice"
    DATES_REQUIRED = "dates_required"
    DATES_OUT_OF_ORDER = "dates_out_of_order"
    INVALID_TARGET = "invalid_target"
    INVALID_HAND_SIZE = "invalid_hand_size"
    HAND_SIZE_TOO_LARGE = "hand_size_too_large"
    INVALID_NUMBER = "invalid_number"
    POINTS_OUT_OF_ORDER = "points_out_of_order"
    MARGIN_BONUS_NEEDS_MARGIN = "margin_bonus_needs_margin"
    INVALID_TIEBREAKS = "invalid_tiebreaks"
    UNKNOWN_TIEBREAK = "unknown_tiebreak"
    DUPLICATE_TIEBREAK = "duplicate_tiebreak"
    INVALID_SALT = "invalid_salt"
    INVALID_SLUG = "invalid_slug"
    SLUG_TAKEN = "slug_taken"
    LOCKED_AFTER_START = "locked_after_start"
    ENTRIES_EXIST = "entries_exist"
    ALREADY_DIRECTOR = "already_director"
    USER_NOT_FOUND = "user_not_found"
    EVENT_NOT_FOUND = "event_not_found"
    EVENT_FINISHED = "event_finished"
    FINISH_FROM_THE_EVENT_PAGE = "finish_from_the_event_page"

    # Entries: registration, check-in, withdrawal, import.
    ENTRY_NOT_FOUND = "entry_not_found"
    ENTRY_WITHDRAWN = "entry_withdrawn"
    ALREADY_CHECKED_IN = "already_checked_in"
    NOT_CHECKED_IN = "not_checked_in"
    ALREADY_WITHDRAWN = "already_withdrawn"
    NOT_WITHDRAWN = "not_withdrawn"
    PLAYER_REQUIRED = "player_required"
    PLAYER_ALREADY_ENTERED = "player_already_entered"
    SAME_PLAYER_TWICE = "same_player_twice"
    WRONG_PLAYER_COUNT = "wrong_player_count"
    INVALID_SEED = "invalid_seed"
    SEED_TAKEN = "seed_taken"
    INVALID_TABLE = "invalid_table"
    IMPORT_INVALID = "import_invalid"
    ROUNDS_STARTED = "rounds_started"
    NO_ROUNDS_YET = "no_rounds_yet"
    UNKNOWN_ACTION = "unknown_action"

    # Rounds: generation, edits, status.
    GENERATION_RUNNING = "generation_running"
    UNKNOWN_JOB = "unknown_job"
    TOO_FEW_ENTRIES = "too_few_entries"
    TOO_FEW_QUALIFIERS = "too_few_qualifiers"
    SCHEDULE_COMPLETE = "schedule_complete"
    PREVIOUS_ROUND_OPEN = "previous_round_open"
    PLAYOFF_NEEDS_SEEDING = "playoff_needs_seeding"
    ROUND_NOT_FOUND = "round_not_found"
    ROUND_NOT_DRAFT = "round_not_draft"
    ROUND_NOT_PUBLISHED = "round_not_published"
    ROUND_NOT_OPEN = "round_not_open"
    ROUND_HAS_VIOLATIONS = "round_has_violations"
    ROUND_HAS_RESULTS = "round_has_results"
    RESULTS_MISSING = "results_missing"
    NOT_IN_ROUND = "not_in_round"
    SAME_ENTRY = "same_entry"
    SAME_TABLE = "same_table"
    REASON_REQUIRED = "reason_required"

    # The round clock.
    ROUND_NOT_IN_PLAY = "round_not_in_play"
    CLOCK_NO_LIMIT = "clock_no_limit"
    CLOCK_ALREADY_STARTED = "clock_already_started"
    CLOCK_NOT_STARTED = "clock_not_started"
    CLOCK_PAUSED = "clock_paused"
    CLOCK_NOT_PAUSED = "clock_not_paused"
    CLOCK_EXPIRED = "clock_expired"
    CLOCK_MINUTES_INVALID = "clock_minutes_invalid"

    # Results: claims, confirmations, the director's decisions.
    MATCH_IS_BYE = "match_is_bye"
    INVALID_SIDE = "invalid_side"
    INVALID_SCORE = "invalid_score"
    INVALID_SHEET = "invalid_sheet"
    SHEET_MALFORMED = "sheet_malformed"
    SHEET_MISMATCH = "sheet_mismatch"
    SHEET_TOO_LARGE = "sheet_too_large"
    CLAIM_LIMIT_REACHED = "claim_limit_reached"
    SAME_DEVICE = "same_device"  # confirmed on the phone that sent the claim, the event refuses it
    FINAL_SCORE_NOT_ALLOWED = "final_score_not_allowed"
    NOTHING_TO_CONFIRM = "nothing_to_confirm"
    CONFIRM_WHOSE = "confirm_whose"  # a table of many: the others differ, say whose claim
    NOT_AT_TABLE_OF_MANY = "not_at_table_of_many"  # a two-sided act (a forfeit) at a table of many
    ALREADY_CONFIRMED = "already_confirmed"
    NOT_CONFIRMED = "not_confirmed"
    STALE_VERSION = "stale_version"
    VERSION_REQUIRED = "version_required"
    BRACKET_NEEDS_WINNER = "bracket_needs_winner"

    # Standings, tiebreak rounds and the play-off.
    STANDINGS_UPDATING = "standings_updating"
    MAIN_ROUNDS_OPEN = "main_rounds_open"
    NO_UNBROKEN_TIES = "no_unbroken_ties"
    TIED_AT_CUT = "tied_at_cut"
    NO_PLAYOFF = "no_playoff"
    PLAYOFF_STARTED = "playoff_started"
    PLAYOFF_NOT_DECIDED = "playoff_not_decided"

    # The play-off played through: advancing the bracket, stage formats, best-of games.
    PLAYOFF_ROUND_IN_PLAY = "playoff_round_in_play"
    PLAYOFF_ROUND_DRAFT = "playoff_round_draft"
    PLAYOFF_FINISHED = "playoff_finished"
    PLAYOFF_GAME_DRAWN = "playoff_game_drawn"
    LATER_GAMES_PLAYED = "later_games_played"
    SERIES_REOPENED = "series_reopened"
    INVALID_PLAYOFF_FORMAT = "invalid_playoff_format"
    CONSOLATION_NEEDS_SINGLE = "consolation_needs_single"

    # Players across events: identity (edit, merge, unmerge).
    PLAYER_NOT_FOUND = "player_not_found"
    MEMBER_NOT_FOUND = "member_not_found"
    TIEBREAKS_FIXED_AFTER_FINISH = "tiebreaks_fixed_after_finish"
    INVALID_EMAIL = "invalid_email"
    PLAYER_MERGED = "player_merged"
    MERGE_SAME_PLAYER = "merge_same_player"
    MERGE_SAME_EVENT = "merge_same_event"
    MERGE_NOT_FOUND = "merge_not_found"
    MERGE_ALREADY_UNDONE = "merge_already_undone"
    MERGE_NOT_UNDOABLE = "merge_not_undoable"
    # Leagues: their settings and their events.
    INVALID_LEAGUE_POINTS = "invalid_league_points"
    INVALID_BEST_OF = "invalid_best_of"
    NOT_LEAGUE_DIRECTOR = "not_league_director"
    NOT_EVENT_DIRECTOR = "not_event_director"
    EVENT_IN_ANOTHER_LEAGUE = "event_in_another_league"
    EVENT_NOT_IN_LEAGUE = "event_not_in_league"
    # "My table": following an entry and its notifications (Web Push).
    NOT_FOLLOWING = "not_following"
    PUSH_DISABLED = "push_disabled"
    PUSH_ENDPOINT_INVALID = "push_endpoint_invalid"
    PUSH_KEYS_INVALID = "push_keys_invalid"

    # Webhooks: a director's endpoints and their deliveries.
    WEBHOOK_URL_INVALID = "webhook_url_invalid"
    WEBHOOK_HTTPS_REQUIRED = "webhook_https_required"
    WEBHOOK_URL_PRIVATE = "webhook_url_private"
    WEBHOOK_URL_TAKEN = "webhook_url_taken"
    WEBHOOK_KIND_UNKNOWN = "webhook_kind_unknown"
    WEBHOOK_LIMIT_REACHED = "webhook_limit_reached"
    WEBHOOK_NOT_FOUND = "webhook_not_found"
    WEBHOOK_DELIVERY_NOT_FOUND = "webhook_delivery_not_found"
    WEBHOOK_ALREADY_DELIVERED = "webhook_already_delivered"
    WEBHOOK_DELIVERY_PENDING = "webhook_delivery_pending"
    # The event day (issue 18): the event's time zone, self check-in.
    INVALID_TIME_ZONE = "invalid_time_zone"
    SELF_CHECK_IN_OFF = "self_check_in_off"
    SELF_CHECK_IN_CLOSED = "self_check_in_closed"
    CHECK_IN_CODE_WRONG = "check_in_code_wrong"
    CHECK_IN_CODE_REQUIRED = "check_in_code_required"
    INVALID_DAY_CODE = "invalid_day_code"
    # Individual events at tables of 2 to 4, and the director's pairing constraints (issue 13).
    INVALID_TABLE_SIZE = "invalid_table_size"
    TABLE_SIZE_NEEDS_INDIVIDUALS = "table_size_needs_individuals"
    TABLE_SIZE_NEEDS_SWISS = "table_size_needs_swiss"
    INVALID_PLACING_POINTS = "invalid_placing_points"
    TOO_FEW_FOR_A_TABLE = "too_few_for_a_table"
    AVOIDANCE_SAME_ENTRY = "avoidance_same_entry"
    AVOIDANCE_OTHER_EVENT = "avoidance_other_event"
    AVOIDANCE_EXISTS = "avoidance_exists"
    AVOIDANCE_NOT_FOUND = "avoidance_not_found"


class SpinnerError(Exception):
    """An expected failure a person can act on: a stable ``code``, a message saying what to fix,
    and ``details`` (field errors, line numbers...)."""

    code = "error"
    status = 400

    def __init__(self, message: str, *, code: str | None = None, details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details if details is not None else {}

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


class ValidationFailed(SpinnerError):
    code = "invalid"
    status = 400


class NotAllowed(SpinnerError):
    code = "forbidden"
    status = 403


class NotFound(SpinnerError):
    code = "not_found"
    status = 404


class Conflict(SpinnerError):
    """The request clashes with the current state (a stale version, a closed round...)."""

    code = "conflict"
    status = 409
