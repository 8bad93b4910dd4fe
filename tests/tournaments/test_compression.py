"""Light pages (issue 31): HTML that is not a kept document goes compressed, ``/t/i18n.js`` is
kept by the browser and compressed, and static files, under their hashed names in production,
carry a cache header of a year or more."""

from __future__ import annotations

import gzip
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.http import HttpRequest, HttpResponse
from django.test import Client, override_settings

from tests import factories

pytestmark = pytest.mark.django_db


def test_a_director_page_goes_compressed_with_its_csrf_token_readable() -> None:
    event = factories.make_event("zip")
    client = Client()
    client.force_login(factories.make_director(event, "boss"))
    response = client.get(f"/director/events/{event.slug}/entries/", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    html = gzip.decompress(response.content).decode()
    assert "csrfmiddlewaretoken" in html and "</html>" in html
    plain = client.get(f"/director/events/{event.slug}/entries/")
    assert not plain.has_header("Content-Encoding")  # none asked for: none given


def test_a_kept_public_document_is_not_compressed_twice() -> None:
    event = factories.make_event("kept")
    response = Client().get(f"/events/{event.slug}/standings/", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "</html>" in gzip.decompress(response.content).decode()


def test_the_javascript_catalog_is_kept_a_day_revalidated_and_compressed() -> None:
    client = Client()
    first = client.get("/t/i18n.js", HTTP_ACCEPT_ENCODING="gzip", HTTP_ACCEPT_LANGUAGE="es")
    assert first.status_code == 200 and first["Content-Encoding"] == "gzip"
    assert "max-age=86400" in first["Cache-Control"]
    vary = {v.strip().lower() for v in first["Vary"].split(",")}
    assert {"accept-language", "cookie", "accept-encoding"} <= vary
    assert "django.catalog" in gzip.decompress(first.content).decode()
    tag = first["ETag"]
    again = client.get("/t/i18n.js", HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_LANGUAGE="es")
    assert again.status_code == 304
    english = client.get("/t/i18n.js", HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 200  # another language: another catalog


def test_hashed_static_files_are_cached_a_year_and_served_compressed(tmp_path: Path) -> None:
    manifest = "whitenoise.storage.CompressedManifestStaticFilesStorage"
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": manifest},
    }
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages, DEBUG=False):
        # the project's own files only (the admin's and the API docs' take minutes to compress)
        others = ("admin", "rest_framework", "drf_spectacular_sidecar")
        ignore = [arg for name in others for arg in ("-i", name)]
        call_command("collectstatic", "--noinput", "-v0", *ignore, stdout=StringIO())
        names = (tmp_path / "staticfiles.json").read_text()
        hashed = re.search(r'"spinner/theme\.css": "(spinner/theme\.[0-9a-f]{12}\.css)"', names)
        assert hashed is not None
        from whitenoise.middleware import WhiteNoiseMiddleware

        def nothing(request: HttpRequest) -> HttpResponse:
            return HttpResponse(status=404)

        static = WhiteNoiseMiddleware(nothing)
        request: Any = HttpRequest()
        request.method = "GET"
        request.path_info = request.path = f"/static/{hashed.group(1)}"
        request.META = {"HTTP_ACCEPT_ENCODING": "gzip", "SERVER_NAME": "t", "SERVER_PORT": "80"}
        response = static(request)
        response.close()  # the file WhiteNoise opened
    assert response.status_code == 200
    ages = re.findall(r"max-age=(\d+)", response["Cache-Control"])
    assert ages and int(ages[0]) >= 365 * 24 * 3600 and "immutable" in response["Cache-Control"]
    assert response["Content-Encoding"] == "gzip"
