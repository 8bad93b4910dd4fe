"""``/t/i18n.js``: the JavaScript catalog (Django's ``JavaScriptCatalog``) kept by the browser.

It changes only with a release's translations, so the browser keeps it a day
(``Cache-Control: max-age``) and then asks again with its ETag: the language and a digest of the
compiled ``djangojs`` catalogs, a 304 while neither changed. It varies with the language (the
``Accept-Language`` header and the language cookie). ``GZipMiddleware`` compresses it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import etag
from django.views.decorators.vary import vary_on_headers
from django.views.i18n import JavaScriptCatalog

MAX_AGE = 24 * 3600


def catalog_digest() -> str:
    """A digest of every compiled ``djangojs`` catalog of the project's locale folders."""
    digest = hashlib.sha256()
    for folder in settings.LOCALE_PATHS:
        for mo in sorted(Path(folder).glob("*/LC_MESSAGES/djangojs.mo")):
            digest.update(mo.parent.parent.name.encode() + b"\0" + mo.read_bytes())
    return digest.hexdigest()[:16]


DIGEST = catalog_digest()


def _tag(request: HttpRequest, *args: Any, **kwargs: Any) -> str:
    return f"{get_language()}-{DIGEST}"


javascript_catalog = vary_on_headers("Accept-Language", "Cookie")(
    cache_control(max_age=MAX_AGE)(etag(_tag)(JavaScriptCatalog.as_view()))
)
