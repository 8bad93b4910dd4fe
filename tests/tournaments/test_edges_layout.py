"""The edges' layout: routes by audience under namespaces, the API mounted once, modules named by
topic (no "live", no "phone") and none over 600 lines."""

from __future__ import annotations

from pathlib import Path

from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(__file__).resolve().parents[2]
EDGES = (
    "tournaments/views",
    "tournaments/api",
    "tournaments/urls",
    "tournaments/presenters",
    "tournaments/templatetags",
)
AUDIENCES = {"public", "director", "table", "api", "ops"}


def _routes(resolver: URLResolver, namespace: str = "", prefix: str = "") -> list[tuple[str, str]]:
    """(namespace, full route) of every pattern of the project's URLconf."""
    found = []
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            inner = (
                f"{namespace}:{pattern.namespace}"
                if namespace and pattern.namespace
                else (pattern.namespace or namespace)
            )
            found.extend(_routes(pattern, inner or "", route))
        elif isinstance(pattern, URLPattern):
            found.append((namespace, route))
    return found


def test_every_route_of_ours_is_in_an_audience_namespace_and_the_api_is_mounted_once() -> None:
    routes = [
        (ns, route)
        for ns, route in _routes(get_resolver())
        if not route.startswith(("admin/", "accounts/"))
    ]
    assert routes
    assert {ns for ns, _ in routes} == AUDIENCES
    api = [route for ns, route in routes if ns == "api"]
    assert all(route.startswith("api/") for route in api)
    # Mounted once: each API route appears once in the URLconf.
    assert len(api) == len(set(api))
    assert not [route for ns, route in routes if ns != "api" and route.startswith("api/")]


def test_edge_modules_are_named_by_topic_and_stay_small() -> None:
    for folder in EDGES:
        for path in (ROOT / folder).rglob("*.py"):
            assert path.stem not in {"live", "phone"}, path
            lines = len(path.read_text().splitlines())
            assert lines <= 600, f"{path.relative_to(ROOT)} has {lines} lines"
    for folder in (ROOT / "templates" / "tournaments").iterdir():
        assert folder.name not in {"live", "phone"}, folder
