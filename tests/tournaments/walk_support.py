"""A browser for walks through the pages with Django's test client: it reads a page's links,
forms and messages as a person does (by their text), fills a form's fields from what the page
sends (hidden fields, CSRF token, selected options) and posts it as a browser would, following
redirects. No service calls: what the walk can do is what the pages offer.

``Browser(client)`` enforces CSRF (the token comes from the page's own form). A page's
``form(button=...)`` finds the one form whose submit button reads so; ``page.link(text)`` the one
link with that text. A missing link or form fails with what the page did offer.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from dataclasses import dataclass, field
from html import unescape
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

from django.test import Client

SPACE = re.compile(r"\s+")


def squash(text: str) -> str:
    return SPACE.sub(" ", unescape(text)).strip()


@dataclass
class Form:
    action: str
    method: str
    fields: list[tuple[str, str]] = field(default_factory=list)  # what the form sends as is
    names: set[str] = field(default_factory=set)  # every field, checked or not
    options: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # (value, label)
    buttons: list[str] = field(default_factory=list)

    def option(self, name: str, label_contains: str) -> str:
        """The value of the one option of ``name`` (a select or radios) whose label says so."""
        found = [v for v, label in self.options.get(name, []) if label_contains in label]
        assert len(found) == 1, (name, label_contains, self.options.get(name))
        return found[0]


@dataclass
class Link:
    href: str
    text: str


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.links: list[Link] = []
        self.messages: list[str] = []
        self.alerts: list[str] = []
        self.json_scripts: dict[str, str] = {}
        self.buttons: list[tuple[dict[str, str], str]] = []  # every button: attributes, text
        self._form: Form | None = None
        self._text: list[str] = []
        self._stack: list[tuple[str, dict[str, str], int]] = []  # open capturing elements
        self._select: tuple[str, list[tuple[str, str, bool]]] | None = None
        self._script: str | None = None
        self._labels: dict[str, str] = {}  # radio id -> field name, for its <label for>

    def handle_starttag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in attrs_list}
        if tag == "form":
            self._form = Form(
                action=attrs.get("action", ""), method=attrs.get("method", "get").lower()
            )
            self.forms.append(self._form)
        if tag in ("a", "button", "li", "option", "textarea", "label", "p", "div", "ul"):
            self._stack.append((tag, attrs, len(self._text)))
        if tag == "script" and attrs.get("type") == "application/json":
            self._script = attrs.get("id", "")
            self._stack.append((tag, attrs, len(self._text)))
        if tag == "select":
            self._select = (attrs.get("name", ""), [])
        if tag == "input" and self._form is not None:
            self._input(attrs)

    def _input(self, attrs: dict[str, str]) -> None:
        assert self._form is not None
        name, kind = attrs.get("name", ""), attrs.get("type", "text")
        if not name or kind in ("submit", "button", "image"):
            return
        self._form.names.add(name)
        if kind in ("checkbox", "radio"):
            self._form.options.setdefault(name, [])
            if "id" in attrs:
                self._labels[attrs["id"]] = name
            self._form.options[name].append((attrs.get("value", "on"), attrs.get("id", "")))
            if "checked" in attrs:
                self._form.fields.append((name, attrs.get("value", "on")))
            return
        self._form.fields.append((name, attrs.get("value", "")))

    def handle_data(self, data: str) -> None:
        self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
            return
        if tag == "select" and self._select is not None:
            self._end_select()
            return
        if not self._stack or self._stack[-1][0] != tag:
            if not any(t == tag for t, _, _ in self._stack):
                return
            while self._stack[-1][0] != tag:  # elements left open inside (<p> in <li>)
                self._stack.pop()
        _, attrs, start = self._stack.pop()
        text = squash("".join(self._text[start:]))
        self._element(tag, attrs, text, "".join(self._text[start:]))

    def _element(self, tag: str, attrs: dict[str, str], text: str, raw: str) -> None:
        form = self._form
        if tag == "a" and "href" in attrs:
            self.links.append(Link(attrs["href"], text))
        elif tag == "button":
            self.buttons.append((attrs, text))
            if form is None:
                return
            form.buttons.append(text)
            if attrs.get("name"):
                form.fields.append((attrs["name"], attrs.get("value", "")))
        elif tag == "option" and self._select is not None:
            self._select[1].append((attrs.get("value", text), text, "selected" in attrs))
        elif tag == "textarea" and form is not None and attrs.get("name"):
            form.names.add(attrs["name"])
            form.fields.append((attrs["name"], raw.lstrip("\n")))
        elif tag == "label" and form is not None and attrs.get("for") in self._labels:
            name = self._labels[attrs["for"]]
            form.options[name] = [
                (v, text if ident == attrs["for"] else ident) for v, ident in form.options[name]
            ]
        elif tag == "li" and attrs.get("class", "").startswith("msg-"):
            self.messages.append(text)
        elif tag == "script":
            self.json_scripts[self._script or ""] = raw
            self._script = None
        if attrs.get("role") == "alert" or "errorlist" in attrs.get("class", ""):
            self.alerts.append(text)

    def _end_select(self) -> None:
        assert self._select is not None
        name, options = self._select
        self._select = None
        if self._form is None or not name:
            return
        self._form.names.add(name)
        self._form.options[name] = [(v, label) for v, label, _ in options]
        chosen = [v for v, _, selected in options if selected] or [v for v, _, _ in options[:1]]
        self._form.fields.extend((name, v) for v in chosen)


@dataclass
class Page:
    url: str
    status: int
    html: str
    forms: list[Form]
    links: list[Link]
    messages: list[str]
    alerts: list[str]
    json_scripts: dict[str, str]
    buttons: list[tuple[dict[str, str], str]]

    @property
    def text(self) -> str:
        return squash(re.sub(r"<[^>]+>", " ", self.html))

    def what(self) -> str:
        """What the page offers, for a failure message."""
        return (
            f"{self.url} ({self.status}) messages={self.messages} alerts={self.alerts} "
            f"buttons={[b for f in self.forms for b in f.buttons]} "
            f"links={[link.text for link in self.links if link.text][-40:]}"
        )

    def form(self, *, button: str, action: str = "") -> Form:
        """The one form with a submit button reading ``button`` (and ``action`` in its action)."""
        found = [f for f in self.forms if button in f.buttons and action in f.action]
        if not found:  # no button reads exactly so: one that starts so
            found = [
                f
                for f in self.forms
                if any(b.startswith(button) for b in f.buttons) and action in f.action
            ]
        assert len(found) == 1, f"{len(found)} forms with a button {button!r} on {self.what()}"
        return found[0]

    def has_button(self, button: str) -> bool:
        return any(b.startswith(button) for f in self.forms for b in f.buttons)

    def link(self, text: str, *, href: str = "") -> Link:
        """The first link whose text starts with ``text`` (and whose address has ``href``)."""
        for link in self.links:
            if link.text.startswith(text) and href in link.href:
                return link
        raise AssertionError(f"no link {text!r} on {self.what()}")

    def button(self, **data: str) -> dict[str, str]:
        """The attributes of the one button with these ``data-`` attributes (``action="x"``
        for ``data-action="x"``): a button a page's script acts on."""
        found = [
            attrs
            for attrs, _ in self.buttons
            if all(attrs.get(f"data-{k}") == v for k, v in data.items())
        ]
        assert len(found) == 1, f"{len(found)} buttons with {data} on {self.what()}"
        return found[0]

    def config(self, script_id: str) -> Any:
        return json.loads(self.json_scripts[script_id])


def parse(url: str, response: Any) -> Page:
    html = response.content.decode()
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return Page(
        url=url,
        status=response.status_code,
        html=html,
        forms=parser.forms,
        links=parser.links,
        messages=parser.messages,
        alerts=parser.alerts,
        json_scripts=parser.json_scripts,
        buttons=parser.buttons,
    )


class Browser:
    """One person's browser: a test client with its own cookies (CSRF enforced)."""

    def __init__(self) -> None:
        self.client = Client(enforce_csrf_checks=True)

    def _page(self, response: Any) -> Page:
        request = response.request
        query = request.get("QUERY_STRING", "")
        url = request["PATH_INFO"] + (f"?{query}" if query else "")
        return parse(url, response)

    def get(self, url: str, **headers: Any) -> Page:
        page = self._page(self.client.get(url, follow=True, **headers))
        assert page.status == 200, page.what()
        return page

    def click(self, page: Page, text: str, *, href: str = "") -> Page:
        return self.get(urljoin(page.url, page.link(text, href=href).href))

    def submit(self, page: Page, form: Form, *, expect: int = 200, **values: str | int) -> Page:
        """Post ``form`` with its own fields, ``values`` filled in (each must be a field of
        the form), following redirects; the answer must have status ``expect``."""
        unknown = set(values) - form.names
        assert not unknown, f"no field {unknown} in the form {form.action} on {page.url}"
        data: dict[str, list[str]] = {}
        for name, value in form.fields:
            if name not in values:
                data.setdefault(name, []).append(value)
        for name, value in values.items():
            data[name] = [str(value)]
        action = urljoin(page.url, form.action or urlsplit(page.url).path)
        response = self.client.post(action, data, follow=True)
        answer = self._page(response)
        assert answer.status == expect, answer.what()
        return answer

    def login(self, username: str, password: str) -> Page:
        page = self.get("/accounts/login/")
        return self.submit(page, page.form(button="Log in"), username=username, password=password)


def poll_page(browser: Browser, url: str, done: str, *, timeout: float = 20.0) -> Page:
    """GET ``url`` until its text says ``done`` (a job page being followed), with a deadline."""
    deadline = time.monotonic() + timeout
    while True:
        page = browser.get(url)
        if done in page.text:
            return page
        assert time.monotonic() < deadline, f"{done!r} not shown within {timeout}s: {page.what()}"


class Phone:
    """A partnership's phone on its side's table link: the page, then the results API as the
    page's script calls it (the link's token as ``Authorization: Table``, the page's CSRF token,
    an ``Idempotency-Key`` per submission, ``If-Match`` with the version shown)."""

    def __init__(self, url: str) -> None:
        self.browser = Browser()
        self.path = urlsplit(url).path
        self.page = self.open()

    def open(self) -> Page:
        """(Re)load the table page: the game in play at this table (a closed round's page shows
        the result and has no entry, hence no script config: the last one is kept)."""
        self.page = self.browser.get(self.path)
        if "phone-config" in self.page.json_scripts:
            self.config = self.page.config("phone-config")
        return self.page

    def _post(self, url: str, body: dict[str, Any], if_match: str | None = None) -> Any:
        headers = {
            "HTTP_AUTHORIZATION": f"Table {self.config['token']}",
            "HTTP_X_CSRFTOKEN": self.config["csrf"],
            "HTTP_IDEMPOTENCY_KEY": uuid.uuid4().hex,
            "HTTP_ACCEPT": "application/json",
        }
        if if_match is not None:
            headers["HTTP_IF_MATCH"] = if_match
        response = self.browser.client.post(
            url, json.dumps(body), content_type="application/json", **headers
        )
        assert response.status_code in (200, 201), (url, response.content[:600])
        return response.json()

    def send_sheet(self, sheet: dict[str, Any]) -> Any:
        """Send this side's scoresheet (the page's "Send" once the last hand is in)."""
        side = self.config["side"]
        return self._post(self.config["urls"]["submit"], {"side": side, "sheet": sheet})

    def status(self) -> Page:
        """The claim status fragment the page polls."""
        response = self.browser.client.get(self.config["urls"]["status"])
        assert response.status_code == 200, response.content[:600]
        return parse(self.config["urls"]["status"], response)

    def confirm(self) -> Any:
        """Tap "Confirm" on the other side's claim, as the status fragment offers it."""
        button = self.status().button(action="confirm")
        side = "AB".index(button["data-side"])
        return self._post(button["data-url"], {"side": side}, if_match=button["data-version"])
