"""Browser smoke test: the home page in Debian's Chromium at a phone's viewport."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


@pytest.mark.django_db(transaction=True)
def test_home_page_on_a_phone(live_server: Any, phone: Any, artifacts: Path) -> None:
    phone.goto(live_server.url + "/")
    assert phone.locator("h1").inner_text() == "Spinner"
    link = phone.get_by_role("link", name="See the events")
    assert link.is_visible()
    # Nothing overflows the 390px viewport sideways.
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    phone.screenshot(path=str(artifacts / "home.png"), full_page=True)
    assert (artifacts / "home.png").stat().st_size > 0
