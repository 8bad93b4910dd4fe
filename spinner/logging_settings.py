"""The logging settings (``settings.LOGGING``): one console handler that redacts credentials
first (table links, API keys: tournaments/log_redaction.py) and names the request's id
(tournaments/request_log.py), as one JSON object per line or as plain lines."""

from __future__ import annotations

from typing import Any


def logging_config(log_format: str, *, production: bool) -> dict[str, Any]:
    """``LOGGING`` for ``SPINNER_LOG_FORMAT`` (``json`` or ``plain``); INFO and up in
    production, WARNING and up elsewhere."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "redact_tokens": {"()": "tournaments.log_redaction.RedactTokensFilter"},
            "request_id": {"()": "tournaments.request_log.RequestIdFilter"},
        },
        "formatters": {
            "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"},
            "json": {"()": "tournaments.request_log.JsonFormatter"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "json" if log_format == "json" else "plain",
                "filters": ["redact_tokens", "request_id"],
            }
        },
        "root": {"handlers": ["console"], "level": "INFO" if production else "WARNING"},
        "loggers": {
            "spinner": {"level": "INFO"},
            "tournaments": {"level": "INFO"},
            # Django's own loggers (request, server, security) through the redacting handler only.
            "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
            "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
        },
    }
