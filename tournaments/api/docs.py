"""The API's docs page at ``/api/docs/``, served without any CDN.

With ``drf-spectacular-sidecar`` installed (a dependency in pyproject.toml) it is Swagger UI
from our own static files; without it, a plain page linking the OpenAPI schema and listing the
operations.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from drf_spectacular.views import SpectacularSwaggerSplitView


def _plain_docs(request: HttpRequest) -> HttpResponse:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    operations = []
    for path, methods in sorted(schema.get("paths", {}).items()):
        for method, operation in methods.items():
            if method in ("get", "post", "put", "patch", "delete"):
                operations.append(
                    {
                        "method": method.upper(),
                        "path": path,
                        "summary": operation.get("summary", ""),
                    }
                )
    return render(
        request,
        "tournaments/results/api_docs.html",
        {"operations": operations, "info": schema["info"]},
    )


def api_docs(request: HttpRequest) -> HttpResponse:
    """Swagger UI when its files are served locally (sidecar), else the plain page. The split
    view serves Swagger UI's start-up script as a file of its own (the Content-Security-Policy
    allows no inline script)."""
    if getattr(settings, "SPECTACULAR_SIDECAR", False):
        view = SpectacularSwaggerSplitView.as_view(url_name="api:schema")
        response: HttpResponse = view(request)
        return response
    return _plain_docs(request)
