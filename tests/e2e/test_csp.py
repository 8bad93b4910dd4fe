"""Every page passes the Content-Security-Policy in Debian's Chromium (issue 15).

The browser reports each blocked script, style, eval or connection as a
``securitypolicyviolation`` event (and a console error): a page that trips none, with htmx and
the phone's script running, passes. The pages: public (home, events, event, round, standings,
the projector, team, match, log in, API docs, the check-in page, the help pages), the director's
(home, dashboard, entries, import, rounds, the entry board, table cards, pairings sheet,
scoresheets, prize list, standings, the check-in poster and code slips) and the table's phone
page.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

from tests.tournaments import live_support
from tests.tournaments.phone_factory import make_setup
from tournaments.models import Event

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(
    e.violatedDirective + " " + e.blockedURI + " " + e.sourceFile + ":" + e.lineNumber
  );
});
"""


@pytest.mark.django_db(transaction=True)
def test_every_page_passes_the_content_security_policy(live_server: Any, browser: Any) -> None:
    from django.contrib.auth.models import User

    setup = make_setup(f"csp{uuid.uuid4().hex[:6]}", tables=2, public_listing=True)
    event = setup.event
    live_support.confirm(setup.matches[0], 100, 50, setup.director)
    Event.objects.filter(pk=event.pk).update(public_listing=True)
    User.objects.filter(pk=setup.director.pk).update(username="csp-director")
    director = User.objects.get(pk=setup.director.pk)
    director.set_password("csp-password-2026")
    director.save()
    team = setup.matches[0].entry_a_id
    match = setup.matches[0].pk

    context = browser.new_context(viewport={"width": 1024, "height": 900})
    context.add_init_script(WATCH)
    console: list[str] = []
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on(
        "console",
        lambda m: console.append(m.text) if "Content Security Policy" in m.text else None,
    )
    seen: dict[str, list[str]] = {}

    def visit(path: str) -> None:
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, (path, response and response.status)
        policy = response.headers.get("content-security-policy") or ""
        script_src = re.search(r"script-src ([^;]*)", policy)
        assert script_src is not None, (path, policy)
        assert "unsafe" not in script_src.group(1), (path, policy)
        # Deferred scripts have run and htmx's first requests are answered.
        page.wait_for_load_state("networkidle")
        seen[path] = page.evaluate("window.__csp")

    slug = event.slug
    public = [
        "/",
        "/events/",
        f"/events/{slug}/",
        f"/events/{slug}/rounds/1/",
        f"/events/{slug}/standings/",
        f"/events/{slug}/standings/?projector=1",
        f"/events/{slug}/projector/",
        f"/events/{slug}/teams/{team}/",
        f"/events/{slug}/matches/{match}/",
        "/accounts/login/",
        "/api/docs/",
        f"/events/{slug}/check-in/",
        "/help/table/",
        "/help/director/",
        setup.path(0),
    ]
    for path in public:
        visit(path)
    # The phone page's own script ran (it renders the sheet editor) under the policy.
    page.goto(live_server.url + setup.path(1))
    page.wait_for_selector("#phone-app")

    # Log in through the form, as a director does.
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("csp-director")
    page.get_by_label("Password").fill("csp-password-2026")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r".*/director/$"))
    base = f"/director/events/{slug}"
    for path in [
        "/director/",
        f"{base}/",
        f"{base}/entries/",
        f"{base}/import/",
        f"{base}/rounds/",
        f"{base}/rounds/1/",
        f"{base}/rounds/1/results/",
        f"{base}/rounds/1/results/{match}/",
        f"{base}/rounds/1/cards/",
        f"{base}/rounds/1/pairings-sheet/",
        f"{base}/rounds/1/scoresheets/",
        f"{base}/prize-list/",
        f"{base}/standings/",
        f"{base}/audit/",
        f"{base}/check-in/poster/",
        f"{base}/check-in/codes/",
    ]:
        visit(path)
    context.close()
    violations = {path: found for path, found in seen.items() if found}
    assert violations == {}
    assert console == []
