"""The application's one error family, mapped once at each edge (views: messages; API: the
``{code, message, details}`` body). Tests assert on ``code``, never on wording."""

from __future__ import annotations

from typing import Any


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
