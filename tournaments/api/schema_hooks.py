"""The schema documents every status the API can answer (schemathesis ``--checks all``).

Any API operation may answer 401 (no or bad credentials), 403, 404 (what the caller may not see
is answered as missing), 406 (an ``Accept`` it cannot serve) and 429 (throttled); one with a
body also 400 (unreadable or invalid), 413 (``request_too_large``) and 415 (not JSON: the API
reads JSON only). This post-processing hook adds those that a view's own ``extend_schema`` did
not list, each with the one error body (``ErrorSerializer``'s component).
"""

from __future__ import annotations

from typing import Any

ANY = ("401", "403", "404", "406", "429")
WITH_BODY = ("400", "413", "415")
DESCRIPTIONS = {
    "400": "The request is invalid (see code and details).",
    "401": "No credentials, or bad ones.",
    "403": "Not allowed.",
    "404": "Not found (or not yours to see).",
    "406": "The Accept header asks for a type the API does not serve.",
    "413": "The request body is too large (request_too_large).",
    "415": "The body is not JSON (the API reads JSON only).",
    "429": "Too many requests; wait (Retry-After).",
}


def _refs(value: Any) -> set[str]:
    """The component names a schema fragment refers to."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                found.add(ref.rsplit("/", 1)[1])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def add_error_responses(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Also: every request body's object (and the objects inside it) takes no other property
    than it names (the input serializers refuse unknown fields: ``StrictInput``)."""
    components = result.get("components", {}).get("schemas", {})
    inputs: set[str] = set()
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path, item in result.get("paths", {}).items():
        if not path.startswith("/api/") or path == "/api/schema/":
            continue
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            inputs |= _refs(operation.get("requestBody", {}))
            responses = operation.setdefault("responses", {})
            wanted = ANY + (WITH_BODY if "requestBody" in operation else ())
            for status in wanted:
                responses.setdefault(
                    status, {"content": error, "description": DESCRIPTIONS[status]}
                )
    seen: set[str] = set()
    while inputs - seen:
        name = (inputs - seen).pop()
        seen.add(name)
        schema = components.get(name)
        if isinstance(schema, dict) and schema.get("type") == "object":
            schema["additionalProperties"] = False
            inputs |= _refs(schema.get("properties", {}))
    return result
