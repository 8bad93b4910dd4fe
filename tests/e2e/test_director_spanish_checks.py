"""The director's round page on a Spanish phone (Chromium at 390x844, locale es-ES): the
checker's violation and the director's override under "Checks", and the draws' purposes, read
in Spanish (issue 18)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_director_spanish import _log_in
from tests.e2e.test_rounds import clean_teardown  # noqa: F401 - a fixture, used by name
from tests.tournaments.rounds_factory import make_event
from tests.tournaments.test_i18n_checks import drop_a_table, rematch_swapped_round


@pytest.mark.django_db(transaction=True)
def test_the_checks_read_in_spanish_on_the_phone(
    live_server: Any,
    spanish_phone: Any,
    artifacts: Path,
    clean_teardown: None,  # noqa: F811
) -> None:
    event = make_event("revision-movil")
    second, x, y = rematch_swapped_round(event)
    missing = drop_a_table(second, {x, y})
    page = spanish_phone
    _log_in(page, live_server, event.directors.get())
    page.goto(f"{live_server.url}/director/events/{event.slug}/rounds/2/")
    conflicts = page.locator("ul.conflicts li")
    expect(conflicts).to_have_count(len(missing))
    expect(conflicts.first).to_contain_text("ausente — el inscrito activo")
    overrides = page.locator("ul.overrides li", has_text="revancha:")
    expect(overrides.first).to_contain_text("excepción del director — revancha: los inscritos")
    expect(overrides.first).to_contain_text("(director: family)")
    expect(page.locator("section[aria-labelledby=checks]")).not_to_contain_text("have met")
    page.locator("details.card summary").click()
    expect(page.locator("span.purpose").first).to_be_visible()
    page.screenshot(path=str(artifacts / "director-checks-es.png"), full_page=True)
