"""Spinner's settings, read from the environment.

Embedded default (nothing set): SQLite tuned for concurrent writers, Celery tasks run eagerly, a
local-memory cache. Production: ``DATABASE_URL`` (PostgreSQL), ``REDIS_URL`` (Celery broker and
cache) and ``SPINNER_ENV=production`` (secure cookies, HSTS, ``DEBUG`` off).

Environment variables:
    SPINNER_ENV            ``development`` (default) or ``production``
    SECRET_KEY             required in production
    ALLOWED_HOSTS          comma-separated; default ``127.0.0.1,localhost`` (``*`` in development)
    CSRF_TRUSTED_ORIGINS   comma-separated origins (production behind a proxy)
    DATABASE_URL           e.g. ``postgres://user@127.0.0.1:5432/spinner``; default SQLite
    SQLITE_PATH            the SQLite file when DATABASE_URL is unset; default ``db.sqlite3``
    REDIS_URL              e.g. ``redis://127.0.0.1:6379/0``; default: eager tasks, memory cache
    EMAIL_HOST             an SMTP host: mounts password reset (otherwise its pages are 404)
    SPINNER_PASSWORD_RESET ``1``: mount password reset even without EMAIL_HOST (``0``: never)
    SPINNER_LOGIN_FAILURES failed logins from one address before it is refused; default 5
    SPINNER_LOCKOUT_MINUTES how long failures count (an address's pause); default 15
    SPINNER_LOGIN_USERNAME_FAILURES  a username's failures (any address) before each next try
                           waits longer; default SPINNER_LOGIN_FAILURES
    SPINNER_LOGIN_DELAY_SECONDS, SPINNER_LOGIN_MAX_DELAY_SECONDS  that wait: first, doubling,
                           at most; default 2 and 300
    SPINNER_METRICS_TOKEN  /metrics asks for it as a bearer token; SPINNER_METRICS_PRIVATE=1
                           instead says only a private network reaches /metrics
    SPINNER_SECURE_SSL_REDIRECT  ``0``: no HTTPS redirect in production (TLS at the proxy)
    SPINNER_VAPID_PUBLIC_KEY, SPINNER_VAPID_PRIVATE_KEY  Web Push keys ("my table" notifies a
                           player's phone when pairings are published; ``manage.py vapid_keys``
                           prints a pair); unset: no notifications
    SPINNER_VAPID_SUBJECT  who runs the server, for the push services: ``mailto:`` or ``https:``
    SPINNER_PUSH_HOSTS     comma-separated push services' hosts a subscription may name
    SPINNER_PUBLIC_DOCUMENTS  ``0``: render every public page each time (no documents kept in the
                           cache; tournaments/documents.py)
    SPINNER_DOCUMENT_MIN_AGE  seconds a kept page is served unchanged after its render though it
                           changed meanwhile (default 1; 0: rendered again at the first change)
"""

from __future__ import annotations

import datetime
import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONCE

from spinner.logging_settings import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


SPINNER_ENV = os.environ.get("SPINNER_ENV", "development")
PRODUCTION = SPINNER_ENV == "production"

if PRODUCTION:
    SECRET_KEY = os.environ["SECRET_KEY"]
    DEBUG = False
    ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
else:
    SECRET_KEY = os.environ.get(
        "SECRET_KEY", "dev-only-insecure-key-0f5u9-do-not-use-in-production-7c2a1e"
    )
    DEBUG = os.environ.get("DEBUG", "1") == "1"
    ALLOWED_HOSTS = _env_list("ALLOWED_HOSTS", "*")

CSRF_TRUSTED_ORIGINS = _env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "django_prometheus",
    "axes",
    "scoring.apps.ScoringConfig",
    "tournaments.apps.TournamentsConfig",
]

MIDDLEWARE = [
    # Every log line of a request carries its id (tournaments/request_log.py).
    "tournaments.request_log.RequestIdMiddleware",
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and scripts compressed on the way out (issue 31): a public document comes compressed
    # already (Content-Encoding set: left alone), static files are WhiteNoise's (above). Django's
    # gzip pads its output against BREACH on pages that carry a CSRF token.
    "django.middleware.gzip.GZipMiddleware",
    # Public pages kept as documents: an anonymous reader's page comes from the cache, with no
    # session, query or render while nothing changed (tournaments/documents.py).
    "tournaments.documents.PublicDocumentMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The reader's language: the language switch's cookie, else the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    # Times in UTC around every request; an event's pages show theirs in the event's zone
    # (tournaments/time_zones.py).
    "tournaments.time_zones.EventTimeZoneMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Refuses text no database can store (NUL, lone surrogates) and JSON nested too deeply,
    # before any view runs (tournaments/middleware.py).
    "tournaments.middleware.UnstorableInputMiddleware",
    # Public page reads from the streaming replica, when there is one (tournaments/replica.py).
    "tournaments.replica.ReplicaReadsMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lockout response.
    "axes.middleware.AxesMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]

ROOT_URLCONF = "spinner.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "spinner.wsgi.application"

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES: dict[str, Any] = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=600, conn_health_checks=True)
    }
else:
    # Many phones submit at once: WAL lets readers run beside the writer, IMMEDIATE takes the
    # write lock at BEGIN (no deadlock-prone lock upgrades), and the busy timeout makes a writer
    # wait its turn instead of failing with "database is locked".
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 30,
                "init_command": (
                    "PRAGMA journal_mode=WAL;"
                    "PRAGMA synchronous=NORMAL;"
                    "PRAGMA busy_timeout=30000;"
                    "PRAGMA foreign_keys=ON;"
                ),
            },
        }
    }

# A PostgreSQL streaming replica for the public pages' reads (tournaments/replica.py): the
# router sends them there while it is at most SPINNER_REPLICA_MAX_LAG_SECONDS behind; everything
# else, and every write, uses the primary. In tests it mirrors the test database (the replica
# copies the primary's test database by streaming) and public reads stay on the primary unless a
# test turns SPINNER_REPLICA_READS on (a transaction a test never commits never reaches it).
DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "")
if DATABASE_URL and DATABASE_REPLICA_URL:
    DATABASES["replica"] = dj_database_url.parse(
        DATABASE_REPLICA_URL, conn_max_age=600, conn_health_checks=True
    )
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
DATABASE_ROUTERS = ["tournaments.replica.ReplicaRouter"]
SPINNER_REPLICA_READS = "pytest" not in sys.modules
SPINNER_REPLICA_MAX_LAG_SECONDS = float(os.environ.get("SPINNER_REPLICA_MAX_LAG_SECONDS", "5"))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: Celery broker and cache ---------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")

if REDIS_URL:
    CACHES: dict[str, dict[str, Any]] = {
        "default": {
            # Fails open: a Redis outage makes pages slower, never broken.
            "BACKEND": "tournaments.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "TIMEOUT": 300,
            "KEY_PREFIX": "spinner",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "spinner",
        }
    }

# Public pages kept as documents in the cache (tournaments/documents.py); 0 turns them off.
SPINNER_PUBLIC_DOCUMENTS = os.environ.get("SPINNER_PUBLIC_DOCUMENTS", "1") != "0"
# A kept page that changes again sooner than this many seconds after its render is served as it
# was until then: at most one render a second per page while results pour in.
SPINNER_DOCUMENT_MIN_AGE = float(os.environ.get("SPINNER_DOCUMENT_MIN_AGE", "1"))

CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
# The queue our tasks go to. A test run takes a queue of its own (pytest imports these settings
# before any conftest runs, hence the check here), so that its workers never take work from, or
# give work to, a running Spinner or another test run on the same Redis.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("SPINNER_QUEUE") or (
    f"spinner-test-{os.getpid()}" if "pytest" in sys.modules else "spinner"
)
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # A task not acknowledged within this time is delivered again (acks_late): longer than any
    # task of ours runs.
    "visibility_timeout": 3600,
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    "retry_on_timeout": True,
    "max_retries": 2,
}
CELERY_TASK_PUBLISH_RETRY = True
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# Live standings converge even when a message is lost or a worker dies: the reconcile recomputes
# every event whose standings lag its results (tournaments/services/live.py). Each message expires
# after one interval, so a beat running while no worker does never piles them up.
SPINNER_RECONCILE_SECONDS = float(os.environ.get("SPINNER_RECONCILE_SECONDS", "30"))
# A worker starting computes the standings of the events recomputed within this many hours before
# it forks its pool processes, so that each one's first recompute of them is not from scratch
# (spinner/celery.py; benchmarks/standings/RESULTS.md). 0 turns it off.
SPINNER_WORKER_WARM_STANDINGS_HOURS = float(
    os.environ.get("SPINNER_WORKER_WARM_STANDINGS_HOURS", "6")
)
# A database briefly out of reach (a restart, a failover) is answered 503 with this Retry-After,
# the API's body ``service_unavailable`` or a page that reloads itself (tournaments/db_outage.py).
SPINNER_OUTAGE_RETRY_SECONDS = float(os.environ.get("SPINNER_OUTAGE_RETRY_SECONDS", "3"))
# The workers' heartbeat (tournaments/services/heartbeat.py): beat sends it every interval; the
# director's page says "standings worker down since ..." when none ran it within the threshold.
SPINNER_HEARTBEAT_SECONDS = float(os.environ.get("SPINNER_HEARTBEAT_SECONDS", "15"))
SPINNER_HEARTBEAT_STALE_SECONDS = float(
    os.environ.get("SPINNER_HEARTBEAT_STALE_SECONDS", str(max(60.0, 4 * SPINNER_HEARTBEAT_SECONDS)))
)
# Idempotency records (the answers replayed to a retried request) are kept this long, then the
# beat job "purge-idempotency" deletes them: a retry comes within minutes, not days.
SPINNER_IDEMPOTENCY_TTL_SECONDS = float(os.environ.get("SPINNER_IDEMPOTENCY_TTL_SECONDS", "86400"))
SPINNER_IDEMPOTENCY_PURGE_SECONDS = float(
    os.environ.get("SPINNER_IDEMPOTENCY_PURGE_SECONDS", "3600")
)
# Webhooks (tournaments/services/webhooks.py, docs/webhooks.md): a failed delivery is tried again
# after BACKOFF seconds, then FACTOR times longer each time (at most MAX_DELAY, plus up to a
# quarter of random jitter), MAX_ATTEMPTS attempts in all (8: about a day), then marked failed.
# The beat job "sweep-webhooks" re-sends pending deliveries that are due (a lost message, a
# worker restarted). Plain http:// endpoints are refused but for the hosts listed in
# SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS (comma-separated, e.g. "localhost,127.0.0.1" for a local
# receiver); every other endpoint must be https://.
SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS = _env_list("SPINNER_WEBHOOK_ALLOW_HTTP_HOSTS")
SPINNER_WEBHOOK_MAX_ATTEMPTS = int(os.environ.get("SPINNER_WEBHOOK_MAX_ATTEMPTS", "8"))
SPINNER_WEBHOOK_BACKOFF_SECONDS = float(os.environ.get("SPINNER_WEBHOOK_BACKOFF_SECONDS", "60"))
SPINNER_WEBHOOK_BACKOFF_FACTOR = float(os.environ.get("SPINNER_WEBHOOK_BACKOFF_FACTOR", "3"))
SPINNER_WEBHOOK_BACKOFF_MAX_SECONDS = float(
    os.environ.get("SPINNER_WEBHOOK_BACKOFF_MAX_SECONDS", "43200")
)
SPINNER_WEBHOOK_SWEEP_SECONDS = float(os.environ.get("SPINNER_WEBHOOK_SWEEP_SECONDS", "60"))
# Beat's scheduler: Celery's file-backed one, which also records beat's own heartbeat (the desk
# says "Scheduler (beat) down" apart from "Standings worker down"; tournaments/tasks.py).
CELERY_BEAT_SCHEDULER = "tournaments.tasks:HeartbeatScheduler"
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "reconcile-standings": {
        "task": "tournaments.reconcile_standings",
        "schedule": SPINNER_RECONCILE_SECONDS,
        "options": {"expires": SPINNER_RECONCILE_SECONDS},
    },
    "reconcile-ratings": {
        "task": "tournaments.reconcile_ratings",
        "schedule": SPINNER_RECONCILE_SECONDS,
        "options": {"expires": SPINNER_RECONCILE_SECONDS},
    },
    "worker-heartbeat": {
        "task": "tournaments.worker_heartbeat",
        "schedule": SPINNER_HEARTBEAT_SECONDS,
        "options": {"expires": SPINNER_HEARTBEAT_SECONDS},
    },
    "purge-idempotency": {
        "task": "tournaments.purge_idempotency_records",
        "schedule": SPINNER_IDEMPOTENCY_PURGE_SECONDS,
        "options": {"expires": SPINNER_IDEMPOTENCY_PURGE_SECONDS},
    },
    "sweep-webhooks": {
        "task": "tournaments.sweep_webhook_deliveries",
        "schedule": SPINNER_WEBHOOK_SWEEP_SECONDS,
        "options": {"expires": SPINNER_WEBHOOK_SWEEP_SECONDS},
    },
}

# --- Auth, i18n, static ---------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes: every login (the director log in, the admin's) goes through its backend. An
# address with AXES_FAILURE_LIMIT failed logins (any usernames) within AXES_COOLOFF_TIME is
# refused until they age out: that address is throttled, the accounts are not. A username's
# failures from every address beyond SPINNER_LOGIN_USERNAME_FAILURES make each next try for it
# wait longer (SPINNER_LOGIN_DELAY_SECONDS, doubling, at most SPINNER_LOGIN_MAX_DELAY_SECONDS):
# tournaments/login_guard.py, whose refusal says when to try again.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "tournaments.login_guard.LoginGuardHandler"
AXES_FAILURE_LIMIT = int(os.environ.get("SPINNER_LOGIN_FAILURES", "5"))
AXES_COOLOFF_TIME = datetime.timedelta(
    minutes=float(os.environ.get("SPINNER_LOCKOUT_MINUTES", "15"))
)
AXES_LOCKOUT_PARAMETERS = ["ip_address"]
# A refused try (a throttled address, a username's wait) is not counted: hammering never
# lengthens a pause.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# A success forgets that address's failures for that username only (login_guard).
AXES_RESET_ON_SUCCESS = False
AXES_LOCKOUT_CALLABLE = "tournaments.login_guard.lockout_response"
SPINNER_LOGIN_USERNAME_FAILURES = int(
    os.environ.get("SPINNER_LOGIN_USERNAME_FAILURES", str(AXES_FAILURE_LIMIT))
)
SPINNER_LOGIN_DELAY_SECONDS = float(os.environ.get("SPINNER_LOGIN_DELAY_SECONDS", "2"))
SPINNER_LOGIN_MAX_DELAY_SECONDS = float(os.environ.get("SPINNER_LOGIN_MAX_DELAY_SECONDS", "300"))
AXES_VERBOSE = False  # its log lines name the username and address: ours say less
# The client's address (tournaments/client_ip.py): REMOTE_ADDR, or, when that is one of these
# proxies (addresses or networks, comma-separated), the address X-Forwarded-For names before
# them. Empty (the default): X-Forwarded-For is never believed. Axes, the rate limits and the
# API's throttles all ask the same function.
SPINNER_TRUSTED_PROXIES = [
    p.strip() for p in os.environ.get("SPINNER_TRUSTED_PROXIES", "").split(",") if p.strip()
]
AXES_CLIENT_IP_CALLABLE = "tournaments.client_ip.axes_client_address"

# Password reset needs mail: without it the reset pages are absent (404) and the log in page
# offers no "forgot" link (tournaments/accounts.py).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = os.environ.get("EMAIL_USE_TLS", "0") == "1"
    DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "spinner@localhost")
SPINNER_PASSWORD_RESET = os.environ.get("SPINNER_PASSWORD_RESET", "1" if EMAIL_HOST else "0") == "1"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/director/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en"
# The languages every page is complete in (issue 18); the API's error codes stay English.
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language switch's choice is remembered per browser for a year (Django's default cookie
# lasts only as long as the browser's session).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Table links (``manage.py table_link``) are printed on this base URL.
SPINNER_BASE_URL = os.environ.get("SPINNER_BASE_URL", "http://127.0.0.1:8000")

# --- Web Push (issue 18) ----------------------------------------------------------------------
# "My table" offers a notification when pairings are published only with both keys set
# (``manage.py vapid_keys`` prints a fresh pair: the public key as the browser's application
# server key, the private key as a raw base64url P-256 scalar). The subject is where the push
# services write to the server's owner (Apple refuses ``localhost``).
SPINNER_VAPID_PUBLIC_KEY = os.environ.get("SPINNER_VAPID_PUBLIC_KEY", "")
SPINNER_VAPID_PRIVATE_KEY = os.environ.get("SPINNER_VAPID_PRIVATE_KEY", "")
SPINNER_VAPID_SUBJECT = os.environ.get("SPINNER_VAPID_SUBJECT", "mailto:spinner@localhost")
# A subscription's endpoint is where the server POSTs: only HTTPS addresses of these push
# services (and their subdomains) are stored (tournaments/services/push.py).
SPINNER_PUSH_HOSTS = _env_list(
    "SPINNER_PUSH_HOSTS",
    "fcm.googleapis.com,android.googleapis.com,push.services.mozilla.com,push.apple.com,"
    "notify.windows.com",
)
# Tests only: a local stand-in push service over plain HTTP.
SPINNER_PUSH_ALLOW_HTTP = False

# --- Bounded storage (issue 15) ------------------------------------------------------------
# A request body (a form or a JSON sheet; uploaded files are not counted) is at most this: the
# largest sheet the engine takes (tournaments.services.assessment.MAX_SHEET_BYTES, 1,000,000)
# and room for the claim around it. Beyond it the API answers 413 request_too_large.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1_250_000

# --- DRF and the schema ---------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # API keys stored as their SHA-256 only (tournaments/api/tokens.py)
        "tournaments.api.tokens.HashedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # DRF's JSON, its bytes, written by orjson (a table's write answers 40-80 KB of it).
    "DEFAULT_RENDERER_CLASSES": [
        "tournaments.api.renderers.FastJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    # Every JSON body bounded in depth (400 beyond it), on every API view.
    "DEFAULT_PARSER_CLASSES": [
        "tournaments.api.parsers.SafeJSONParser",
    ],
    # Every API view is throttled: per address for anonymous callers, per account for users
    # (the address from tournaments/client_ip.py: X-Forwarded-For only from trusted proxies)
    # (views for table links count per side link instead: scope ``table_token``).
    "DEFAULT_THROTTLE_CLASSES": [
        "tournaments.api.throttles.AnonRateThrottle",
        "tournaments.api.throttles.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "table_token": "120/min",
        "anon": "600/min",
        "user": "1200/min",
        # the table's move helper (/t/<token>/position), per table
        "table_position": "240/min",
        # wrong table links and refused API keys, per address (tournaments/rate_limit.py):
        # beyond these the address's wrong ones answer 429; right ones are never counted
        "table_link_failures": "30/min",
        "api_key_failures": "30/min",
        # password reset requests, per address
        "password_reset": "5/hour",
        # self check-in (tournaments/services/self_check_in.py): codes tried per address (a
        # venue's phones may share one) and per entry; the page's name search per address
        "self_check_in": "60/min",
        "self_check_in_entry": "10/hour",
        "self_check_in_search": "600/min",
        # "my table": browsers turning notifications on or off, per address (a venue's phones
        # share one address)
        "push_subscribe": "300/hour",
    },
    # One error body everywhere: {code, message, details}.
    "EXCEPTION_HANDLER": "tournaments.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Spinner API",
    "DESCRIPTION": "Five Up dominoes tournaments: events, pairings, scoresheets and standings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The error body's ``code`` is the registry of every error code, as one named enum.
    "ENUM_NAME_OVERRIDES": {
        "ErrorCodeEnum": "tournaments.errors.ErrorCode",
        # Each "kind" and "status" its own enum (the claim's keep the names they had before
        # the others came).
        "KindEnum": "tournaments.models.Claim.Kind",
        "StatusEnum": "tournaments.models.Claim.Status",
        "EventStatusEnum": "tournaments.models.Event.Status",
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        # The rounds API: a round's kind and status, a job's status, what to generate.
        "RoundKindEnum": "tournaments.models.Round.Kind",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "JobStatusEnum": "tournaments.models.BackgroundJob.Status",
        "GenerateKindEnum": "tournaments.api.round_serializers.GENERATE_KIND_CHOICES",
    },
    # Every operation documents the error statuses any API call may answer (401, 404, 429...).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournaments.api.schema_hooks.add_error_responses",
    ],
}
# Swagger UI's files from our own static files (no CDN) when drf-spectacular-sidecar is installed;
# without it /api/docs/ is a plain page linking the schema.
SPECTACULAR_SIDECAR = importlib.util.find_spec("drf_spectacular_sidecar") is not None
if SPECTACULAR_SIDECAR:
    INSTALLED_APPS.append("drf_spectacular_sidecar")
    SPECTACULAR_SETTINGS.update(
        SWAGGER_UI_DIST="SIDECAR", SWAGGER_UI_FAVICON_HREF="SIDECAR", REDOC_DIST="SIDECAR"
    )

# --- Content-Security-Policy (django-csp) --------------------------------------------------
# Scripts only from our own files (or an inline script carrying the request's nonce); htmx is
# configured without eval (templates/base.html). Inline styles stay allowed: the SVG drawings and
# Swagger UI set style attributes, and a style cannot run code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- Logging --------------------------------------------------------------------------------
# Table links and API keys are credentials: every handler redacts them (the /t/<token>/ path
# segment, ``Authorization: Table|Token ...``) before a line is written
# (tournaments/log_redaction.py). gunicorn's access log: see docs/security.md.
# One JSON object per line with the request's id (tournaments/request_log.py) in production, or
# plain lines (SPINNER_LOG_FORMAT=plain|json); every handler redacts credentials first.
SPINNER_LOG_FORMAT = os.environ.get("SPINNER_LOG_FORMAT", "json" if PRODUCTION else "plain")
LOGGING = logging_config(SPINNER_LOG_FORMAT, production=PRODUCTION)

# --- Production hardening (manage.py check --deploy --fail-level WARNING passes) -----------
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = os.environ.get("SPINNER_SECURE_SSL_REDIRECT", "1") == "1"
    SECURE_HSTS_SECONDS = 31536000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
    # A load balancer and Prometheus ask over plain HTTP inside the network.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]

# --- Operations: metrics and error reports -------------------------------------------------
# /metrics asks for "Authorization: Bearer <token>" when this is set (tournaments/views/ops.py).
# With DEBUG off, `check --deploy` fails without it unless SPINNER_METRICS_PRIVATE=1 says only a
# private network reaches /metrics (tournaments/checks.py).
SPINNER_METRICS_TOKEN = os.environ.get("SPINNER_METRICS_TOKEN", "")
SPINNER_METRICS_PRIVATE = os.environ.get("SPINNER_METRICS_PRIVATE", "0") == "1"
# Sentry, when SENTRY_DSN is set: errors of web requests and Celery tasks, no personal data,
# credentials redacted (tournaments/log_redaction.py); traces only if a sample rate is given.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    from tournaments.log_redaction import scrub_error_report

    sentry_sdk.init(
        dsn=SENTRY_DSN,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        environment=SPINNER_ENV,
        send_default_pii=False,
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
        before_send=scrub_error_report,
    )
