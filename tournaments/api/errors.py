"""One error body for the whole API: ``{"code", "message", "details"}``.

``exception_handler`` (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``) renders the application's
``SpinnerError`` family and DRF's own exceptions (validation, authentication, permission,
throttling, not found, parse, method, media type) and Django's ``Http404`` and
``PermissionDenied`` in that one shape. A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``
(``RequestDataTooBig``) is ``request_too_large`` 413; any other ``SuspiciousOperation`` (too
many form fields or files, a bad multipart body...) is ``bad_request`` 400, as Django itself
answers them outside DRF. A database briefly out of reach (``tournaments.db_outage``) is
``service_unavailable`` 503 with ``Retry-After``: the request changed nothing, the same request
(its idempotency key) succeeds once the database is back. An unexpected exception is logged and
answered with the same shape and status 500 (code ``server_error``), never with an HTML page.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import Http404, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import set_rollback

from tournaments import db_outage
from tournaments.errors import ErrorCode, SpinnerError

logger = logging.getLogger(__name__)
security_logger = logging.getLogger("django.security")

# DRF's default codes, renamed where ours are clearer (every one in the registry).
DRF_CODES: dict[type[exceptions.APIException], ErrorCode] = {
    exceptions.ValidationError: ErrorCode.INVALID,
    exceptions.ParseError: ErrorCode.PARSE_ERROR,
    exceptions.AuthenticationFailed: ErrorCode.AUTHENTICATION_FAILED,
    exceptions.NotAuthenticated: ErrorCode.NOT_AUTHENTICATED,
    exceptions.PermissionDenied: ErrorCode.FORBIDDEN,
    exceptions.NotFound: ErrorCode.NOT_FOUND,
    exceptions.MethodNotAllowed: ErrorCode.METHOD_NOT_ALLOWED,
    exceptions.NotAcceptable: ErrorCode.NOT_ACCEPTABLE,
    exceptions.UnsupportedMediaType: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    exceptions.Throttled: ErrorCode.THROTTLED,
}


# The registry as the schema's one ``ErrorCodeEnum`` (``ENUM_NAME_OVERRIDES`` in the settings
# names it; drf-spectacular matches these (value, name) pairs).
CODE_CHOICES = [(c.value, c.name) for c in ErrorCode]


class ErrorSerializer(serializers.Serializer[Any]):
    """The error body every API error has."""

    code = serializers.ChoiceField(
        choices=CODE_CHOICES,
        help_text="Stable: clients and tests branch on it (the registry ``ErrorCode``).",
    )
    message = serializers.CharField(help_text="What went wrong and what to do, for a person.")
    details = serializers.JSONField(help_text="Field errors, versions, verdicts... (may be {}).")


ERROR = ErrorSerializer
VALIDATION_ERROR = inline_serializer(
    "ValidationErrorBody",
    fields={
        "code": serializers.ChoiceField(choices=CODE_CHOICES),
        "message": serializers.CharField(),
        "details": serializers.DictField(child=serializers.JSONField()),
    },
)


def body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    return {
        "code": str(code),
        "message": message,
        "details": details if details is not None else {},
    }


def _code_for(exc: exceptions.APIException) -> str:
    detail = exc.detail
    custom = getattr(detail, "code", None)
    default: str
    for cls in type(exc).__mro__:
        if cls in DRF_CODES:
            default = str(DRF_CODES[cls])
            break
    else:
        default = exc.default_code
    # A code given when raising (AuthenticationFailed(code="table_link_invalid")) wins.
    if isinstance(custom, str) and custom not in ("invalid", exc.default_code):
        return custom
    return default


def _message_for(exc: exceptions.APIException) -> str:
    if isinstance(exc, exceptions.ValidationError):
        return "Some fields are not valid: see details."
    detail = exc.detail
    if isinstance(detail, list | dict):
        return str(exc.default_detail)
    return str(detail)


def _suspicious(exc: SuspiciousOperation) -> Response:
    set_rollback()
    security_logger.warning("refused request: %s", exc)
    if isinstance(exc, RequestDataTooBig):
        return Response(
            body(
                ErrorCode.REQUEST_TOO_LARGE,
                "The request body is too large; a scoresheet is far smaller.",
                {"max_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE},
            ),
            status=413,
        )
    return Response(
        body(ErrorCode.BAD_REQUEST, f"The request could not be read: {exc}"),
        status=400,
    )


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF's exception handler for Spinner: every error in the ``{code, message, details}`` body."""
    headers: dict[str, str] = {}
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "Not found.")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    if isinstance(exc, SpinnerError):
        set_rollback()
        return Response(exc.as_dict(), status=exc.status)

    if isinstance(exc, SuspiciousOperation):
        return _suspicious(exc)

    if isinstance(exc, exceptions.APIException):
        auth_header = getattr(exc, "auth_header", None)
        if auth_header:
            headers["WWW-Authenticate"] = auth_header
        wait = getattr(exc, "wait", None)
        details: Any = {}
        if isinstance(exc, exceptions.Throttled):
            if wait is not None:
                headers["Retry-After"] = str(int(wait))
            details = {"wait": wait}
        elif isinstance(exc, exceptions.ValidationError):
            details = (
                exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
            )
        set_rollback()
        return Response(
            body(_code_for(exc), _message_for(exc), details),
            status=exc.status_code,
            headers=headers,
        )

    if db_outage.is_database_outage(exc):
        logger.warning("database out of reach, answered 503: %s", exc)
        set_rollback()
        return Response(db_outage.outage_body(), status=503, headers=db_outage.outage_headers())

    logger.exception("unexpected error in the API", exc_info=exc)
    set_rollback()
    return Response(
        body(ErrorCode.SERVER_ERROR, "Something went wrong on our side; try again in a moment."),
        status=500,
    )


@csrf_exempt  # nothing to protect: it changes nothing, and a 403 would hide the 404
def api_not_found(request: Any, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any path under ``/api/`` that names no endpoint (``/api/matches/abc/``): 404 with the
    one error body, whatever the method."""
    return JsonResponse(
        body(ErrorCode.NOT_FOUND, "No such API endpoint.", {"path": request.path}), status=404
    )
