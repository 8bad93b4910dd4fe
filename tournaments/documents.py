"""Public pages kept as documents: rendered once per change, then served from the cache.

The pages a room reads at once (an event's page, a round's pairings and results, the standings
and their live part, the bracket and its live part, team and match pages, the projector's
screens) are the same for every anonymous reader in one language.
:class:`PublicDocumentMiddleware`, placed before the session, the CSRF check, authentication and
the views, answers such a request from the cache:

- **The key** names the page (scheme, host, path and its few allowed query parameters, htmx's
  headers) and the reader's language (the language cookie, else Accept-Language: what
  ``LocaleMiddleware`` would choose).
- **Current or not**: the document keeps the version tokens it was rendered under: the event's
  *pages* token and the *site* token (``tournaments.follow_versions``: the services change them
  after every commit a public page may show). One ``get_many`` reads the document and both
  tokens: equal tokens, the document is served (a 304 when the browser has it, ``If-None-Match``),
  with no query, no session and no render; otherwise the page is rendered as before and kept
  under the tokens read *before* the render (at worst one render too many, never a stale page
  kept as current).
- **One render per change**: when a kept page has changed, the first reader to ask takes the
  page's render lock (``cache.add``, :data:`RENDER_LOCK_SECONDS`) and renders it; the readers who
  ask while that render runs get the copy it replaces, a render's time behind, instead of each
  rendering the same page (a room reloading the round page while results arrive every second).
  A page not kept at all yet is rendered by whoever asks.
- **At most one render a second**: a page that changes again less than
  ``SPINNER_DOCUMENT_MIN_AGE`` seconds (1) after its last render is served as that render left it
  until the second has passed; the first reader after it renders the page. While results arrive
  several a second, each page is rendered about once a second instead of once per result, and
  no reader sees a page more than a second (and a render) behind.
- **Bytes on the wire**: the document is kept as rendered and compressed once, brotli and gzip;
  each answer sends the best the browser accepts (``Content-Encoding``, ``Vary: Accept-Encoding``)
  under a strong ETag per representation (the content's digest, ``-br``/``-gzip`` added).
- **Private data stays out**: only anonymous readers are served or stored (a session, an
  ``Authorization`` header or a pending message cookie: the page is rendered for that reader, as
  before, and not kept); a document never keeps cookies, and the CSRF token its render printed is
  blanked (a shared page must not carry one reader's token; the language switch, the only form
  such a page posts, takes none: ``urls/public.py``).
- **The cache fails open** (``tournaments/cache.py``): no tokens, no document; every request is
  rendered, as before.

The API's public standings (``GET /api/events/<slug>/standings/``, :data:`DOCUMENTED`'s one API
view) are kept the same way, for the one representation nearly every client asks for: the compact
JSON that DRF's content negotiation picks for no ``Accept``, ``*/*`` or ``application/json`` (and
``?format=json``, kept apart). The browsable API (a browser's ``Accept: text/html``), an indented
JSON (``application/json; indent=4``) or any other parameter are rendered each time, as before.
The JSON is kept as the view wrote it (no CSRF token is printed in it to blank) and answers with
the view's own ETag, the standings' generation (``docs/api.md``: clients poll with it), with
``-br``/``-gzip`` added to a compressed answer's. A kept answer is served without the API's
throttle: it costs what a static file does.

``SPINNER_PUBLIC_DOCUMENTS`` (on unless the environment sets it to 0) turns the whole thing off.

A document also expires after :data:`TIMEOUT`, which bounds how long a page could stay behind if a
token's change were ever lost (the cache down at the moment a write committed).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

import brotli
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseNotModified,
)
from django.urls import Resolver404, resolve
from django.utils import translation
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request

from tournaments import follow_versions

TIMEOUT = 300
"""Seconds a document is kept (a page unchanged for longer is rendered again, once)."""

DOCUMENTED: dict[str, frozenset[str]] = {
    "public:event": frozenset(),
    "public:round": frozenset({"from", "q"}),  # ``q`` only empty: a search is rendered each time
    "public:standings": frozenset({"projector", "from"}),
    "public:standings-live": frozenset({"projector", "from"}),
    "public:bracket": frozenset({"projector"}),
    "public:bracket-live": frozenset({"projector"}),
    "public:team": frozenset(),
    "public:match": frozenset(),
    "public:projector": frozenset({"view", "page"}),
    "api:event-standings": frozenset({"format"}),  # ``json`` only: its compact JSON
}
"""The pages kept as documents (url names) and the query parameters each may carry."""

API_PAGES = frozenset({"api:event-standings"})
"""The API's views among them: kept only for the compact JSON (:func:`negotiates_json`)."""

RENDER_LOCK_SECONDS = 10
"""Longest a reader's render of a changed page keeps the others on its previous copy (a render
that dies without letting go frees the page after this)."""

WORDS: dict[tuple[str, str], frozenset[str]] = {
    ("public:projector", "view"): frozenset({"standings", "pairings", "seats"}),
    ("api:event-standings", "format"): frozenset({"json"}),
}
"""The parameters that may hold a word, and their words (the projector's views:
``presenters.projector.VIEWS``); every other value is digits (or rendered, not kept)."""

BROTLI_QUALITY = 5
"""brotli's quality: 5 compresses a 500-table round page about as well as 11 in a hundredth of the
time (``benchmarks/load/pages.py``, RESULTS.md)."""
GZIP_LEVEL = 6
MIN_COMPRESS = 512
"""Bytes below which a page is sent as it is."""

_NOT_KEPT = frozenset({"content-length", "content-encoding", "etag", "set-cookie", "expires"})
"""Response headers a document does not keep (recomputed per answer, or per reader)."""

_CSRF = (
    re.compile(rb'(name="csrfmiddlewaretoken" value=")[A-Za-z0-9]{32,64}(")'),
    re.compile(rb'("X-CSRFToken": ")[A-Za-z0-9]{32,64}(")'),
)


@dataclass(frozen=True)
class Document:
    """A rendered page as kept in the cache."""

    tokens: tuple[str, str]
    digest: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    br: bytes | None
    gz: bytes | None
    rendered_at: float = 0.0  # ``time.time()`` when its render began (0: a copy kept before)
    tag: str = ""  # the view's own ETag, unquoted (the API's JSON); "": the digest's

    @classmethod
    def of(cls, response: HttpResponse, tokens: tuple[str, str], rendered_at: float) -> Document:
        tag = ""
        if response.get("Content-Type", "").startswith("application/json"):
            body = response.content  # data, as the view wrote it: it prints no CSRF token
            tag = response.get("ETag", "").removeprefix("W/").strip('"')
        else:
            body = blank_csrf(response.content)
        compress = len(body) >= MIN_COMPRESS
        return cls(
            rendered_at=rendered_at,
            tag=tag,
            tokens=tokens,
            digest=hashlib.sha256(body).hexdigest()[:24],
            headers=tuple((k, v) for k, v in response.items() if k.lower() not in _NOT_KEPT),
            body=body,
            br=brotli.compress(body, quality=BROTLI_QUALITY) if compress else None,
            gz=gzip.compress(body, GZIP_LEVEL, mtime=0) if compress else None,
        )

    @property
    def base_tag(self) -> str:
        return self.tag or f"d-{self.digest}"

    def etag(self, encoding: str) -> str:
        return f'"{self.base_tag}{"-" + encoding if encoding else ""}"'

    def answer(self, request: HttpRequest) -> HttpResponse:
        """This document for ``request``: 304 when the browser has it, else the best encoding."""
        encoding = negotiate(request.headers.get("Accept-Encoding", ""), self)
        response: HttpResponse
        if has_tag(request.headers.get("If-None-Match", ""), self.base_tag):
            response = HttpResponseNotModified()
            for name, value in self.headers:
                if name.lower() in ("vary", "cache-control", "content-language"):
                    response[name] = value
        else:
            body = {"br": self.br, "gzip": self.gz}.get(encoding) or self.body
            response = HttpResponse(b"" if request.method == "HEAD" else body)
            for name, value in self.headers:
                response[name] = value
            response["Content-Length"] = str(len(body))
            if encoding:
                response["Content-Encoding"] = encoding
        response["ETag"] = self.etag(encoding)
        response["Cache-Control"] = "no-cache"  # keep it, but ask each time (a 304 then)
        _vary(response, "Accept-Encoding")
        return response


def _vary(response: HttpResponseBase, header: str) -> None:
    present = [v.strip() for v in response.get("Vary", "").split(",") if v.strip()]
    if header.lower() not in (v.lower() for v in present):
        response["Vary"] = ", ".join([*present, header])


def blank_csrf(body: bytes) -> bytes:
    """The page without the CSRF token its render printed (one reader's secret, masked)."""
    for pattern in _CSRF:
        body = pattern.sub(rb"\1\2", body)
    return body


def negotiate(accept_encoding: str, document: Document) -> str:
    """ "br", "gzip" or "" (identity): the best encoding the browser accepts that we keep."""
    accepted: dict[str, float] = {}
    for part in accept_encoding.split(","):
        name, _, params = part.strip().partition(";")
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                quality = 0.0
        if name:
            accepted[name.strip().lower()] = quality
    for encoding, data in (("br", document.br), ("gzip", document.gz)):
        if data is not None and accepted.get(encoding, accepted.get("*", 0.0)) > 0:
            return encoding
    return ""


def has_tag(if_none_match: str, base_tag: str) -> bool:
    """Whether ``If-None-Match`` names this document (its :attr:`Document.base_tag`), in any of
    its encodings."""
    for tag in if_none_match.split(","):
        tag = tag.strip().removeprefix("W/").strip('"')
        if tag == "*":
            return True
        if tag.removesuffix("-br").removesuffix("-gzip") == base_tag:
            return True
    return False


@functools.lru_cache(maxsize=4096)
def _page_of(path: str) -> tuple[str, str, tuple[type, ...]] | None:
    """``(url name, slug, renderer classes)`` of a page kept as a document at ``path`` (an API
    view's renderers, else none), else None (resolving costs about 0.3 ms: a room asks for the
    same few paths)."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    if match.view_name not in DOCUMENTED:
        return None
    view_class = getattr(match.func, "view_class", None)
    renderers = tuple(getattr(view_class, "renderer_classes", ()))
    return match.view_name, match.kwargs["slug"], renderers


class _Negotiated:
    """What DRF's content negotiation reads of a request: its headers and its query."""

    def __init__(self, request: HttpRequest) -> None:
        self.headers = request.headers
        self.query_params = request.GET


_NEGOTIATION = DefaultContentNegotiation()


def negotiates_json(request: HttpRequest, renderers: tuple[type, ...]) -> bool:
    """Whether the API view would answer ``request`` (``Accept``, ``?format=``) with its compact
    JSON, the one representation kept: DRF's own negotiation, on the view's renderers, choosing
    the JSON renderer with no media type parameter (``indent=4`` changes the body)."""
    try:
        renderer, media_type = _NEGOTIATION.select_renderer(
            cast(Request, _Negotiated(request)),  # it reads only these two attributes
            [klass() for klass in renderers],
        )
    except (NotAcceptable, Http404):
        return False
    return isinstance(renderer, JSONRenderer) and media_type == renderer.media_type


_PREFIXES = ("/events/", "/api/events/")


def document_key(request: HttpRequest) -> tuple[str, str] | None:
    """``(slug, cache key)`` when ``request`` asks for a page kept as a document, anonymously;
    else None. No query."""
    if request.method not in ("GET", "HEAD") or not request.path_info.startswith(_PREFIXES):
        return None
    cookies = request.COOKIES
    if settings.SESSION_COOKIE_NAME in cookies or "messages" in cookies:
        return None
    if "HTTP_AUTHORIZATION" in request.META:
        return None
    page = _page_of(request.path_info)
    if page is None:
        return None
    view_name, slug, renderers = page
    api = view_name in API_PAGES
    if api and not negotiates_json(request, renderers):
        return None  # the browsable API, an indented JSON: rendered each time
    allowed = DOCUMENTED[view_name]
    params = []
    for name, values in sorted(request.GET.lists()):
        # a few digits at most (a slice, the projector's page) or one of a parameter's WORDS (the
        # projector's view): anything else is rendered, not kept
        word = values[0] in WORDS.get((view_name, name), ())
        if name not in allowed or len(values) != 1 or (len(values[0]) > 6 and not word):
            return None
        if values[0] and not word and (name == "q" or not values[0].isdigit()):
            return None  # a search is rendered each time
        params.append(f"{name}={values[0]}")
    try:
        host = request.get_host()
    except DisallowedHost:
        return None
    language = translation.get_language_from_request(request)
    # The one htmx request a view answers differently: the round page's search results.
    htmx = request.headers.get("HX-Request") == "true" and request.headers.get("HX-Target")
    part = "json" if api else "pairings" if htmx == "pairings" else ""
    name = f"{request.scheme}://{host}{request.path_info}?{'&'.join(params)}|{part}"
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return slug, f"doc:v1:{language}:{digest}"


def keepable(request: HttpRequest, response: HttpResponseBase) -> bool:
    """Whether the page rendered for ``request`` may be kept and shared."""
    if response.status_code != 200 or not isinstance(response, HttpResponse):
        return False
    if response.get("Content-Encoding") or "nonce-" in response.get("Content-Security-Policy", ""):
        return False
    cache_control = response.get("Cache-Control", "")
    if "private" in cache_control or "no-store" in cache_control:
        return False
    if any(name != settings.CSRF_COOKIE_NAME for name in response.cookies):
        return False  # the page set something for this reader alone
    user = getattr(request, "user", None)
    return user is None or not user.is_authenticated


class PublicDocumentMiddleware:
    """Serves the pages in :data:`DOCUMENTED` from the cache while they are current (see the
    module's doc); every other request passes through untouched."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        found = document_key(request) if settings.SPINNER_PUBLIC_DOCUMENTS else None
        if found is None:
            return self.get_response(request)
        slug, key = found
        token_keys = [follow_versions.pages_key(slug), follow_versions.SITE_KEY]
        read = cache.get_many([key, *token_keys])
        document = read.get(key)
        tokens = (read.get(token_keys[0]), read.get(token_keys[1]))
        if isinstance(document, Document) and None not in tokens:
            if document.tokens == tokens:
                return document.answer(request)
            if time.time() - document.rendered_at < settings.SPINNER_DOCUMENT_MIN_AGE:
                # Changed again within a second of its render: served as it is until then.
                return document.answer(request)
        began = time.time()
        # Read (or made) before the page reads the database: a change committed during the
        # render moves a token, so this copy is never taken for a newer one.
        current = follow_versions.ensure_pages(slug, read)
        lock = None
        if isinstance(document, Document) and None not in current:
            # The page changed: one reader renders it; whoever asks meanwhile gets the copy it
            # replaces (current until a moment ago), not a render of their own.
            lock = f"{key}:render"
            if not cache.add(lock, 1, RENDER_LOCK_SECONDS):
                return document.answer(request)
            # Another reader may have stored the new copy between our read and our lock.
            fresh = cache.get(key)
            if isinstance(fresh, Document) and fresh.tokens == current:
                cache.delete(lock)
                return fresh.answer(request)
        try:
            response = self.get_response(request)
            if current[0] is None or current[1] is None or not keepable(request, response):
                if lock is not None and response.status_code != 304:
                    # The page is gone for the public (unpublished, hidden): its old copy must
                    # not be handed to whoever asks during the next reader's render. (A 304:
                    # this reader had the new page already; the copy stays until a render.)
                    cache.delete(key)
                return response
            assert isinstance(response, HttpResponse)
            document = Document.of(response, (current[0], current[1]), began)
            cache.set(key, document, TIMEOUT)
        finally:
            if lock is not None:
                cache.delete(lock)
        answer = document.answer(request)
        answer.cookies = response.cookies  # the reader's own CSRF cookie, if the page set one
        return answer
