"""The error codes' one registry (``tournaments.errors.ErrorCode``): every code the application
raises is in it, and the API's schema publishes it as the error body's ``code`` enum."""

from __future__ import annotations

import ast
from pathlib import Path

from drf_spectacular.generators import SchemaGenerator

from tournaments.errors import ErrorCode

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "tournaments"
# Helpers that take a code as a positional argument: ``bad(field, code, message)`` in the event
# settings' validation, ``body(code, message)`` in the API's error handler.
CODE_ARGUMENT = {"bad": 1, "body": 0}


def _text(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _codes_in(tree: ast.AST) -> set[str]:
    """``code="..."`` keyword arguments, ``code = "..."`` assignments (class attributes),
    ``{"code": "..."}`` literals and the code argument of ``bad(...)`` and ``body(...)``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "code":
            found.add(_text(node.value) or "")
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "code" for t in targets):
                found.add(_text(node.value) or "")
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if _text(key) == "code":
                    found.add(_text(value) or "")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            index = CODE_ARGUMENT.get(node.func.id)
            if index is not None and len(node.args) > index:
                found.add(_text(node.args[index]) or "")
    found.discard("")  # a code passed on from a variable (exc.code, refusal.code)
    return found


def raised_codes() -> dict[str, list[str]]:
    """Every literal error code in ``tournaments`` (outside migrations), with where it is."""
    where: dict[str, list[str]] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for code in _codes_in(ast.parse(path.read_text(), filename=str(path))):
            where.setdefault(code, []).append(str(path.relative_to(ROOT)))
    return where


def test_every_raised_code_is_in_the_registry() -> None:
    found = raised_codes()
    # The scan sees codes of every kind: keyword, class attribute, helper argument, dict.
    for known in ("stale_version", "position_invalid", "name_required", "internal_error"):
        assert known in found, known
    missing = {code: files for code, files in found.items() if code not in set(ErrorCode)}
    assert not missing, f"add these codes to tournaments.errors.ErrorCode: {missing}"


def test_the_scan_sees_a_planted_unregistered_code() -> None:
    planted = ast.parse(
        "class Gone(NotFound):\n    code = 'planted_one'\n"
        "raise Conflict('x', code='planted_two')\n"
        "bad('field', 'planted_three', 'message')\n"
    )
    assert _codes_in(planted) == {"planted_one", "planted_two", "planted_three"}
    assert not {"planted_one", "planted_two", "planted_three"} & set(ErrorCode)


def test_the_schema_publishes_the_registry_as_the_error_code_enum() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    schemas = schema["components"]["schemas"]
    assert schemas["ErrorCodeEnum"]["enum"] == [code.value for code in ErrorCode]
    code = schemas["Error"]["properties"]["code"]
    assert code["allOf"] == [{"$ref": "#/components/schemas/ErrorCodeEnum"}]
    # Every documented error response of every operation is that body.
    refs = [
        response["content"]["application/json"]["schema"]["$ref"]
        for item in schema["paths"].values()
        for operation in item.values()
        for status, response in operation.get("responses", {}).items()
        if str(status).startswith(("4", "5")) and "content" in response
    ]
    assert refs and set(refs) == {"#/components/schemas/Error"}
