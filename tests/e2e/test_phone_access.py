"""The entry page is usable one-handed at 390 px and with the browser's text size raised: every
control is at least 44 px, nothing overflows sideways, no text is clipped, and every input has a
label."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.tournaments.phone_factory import audit_flush, make_setup, orm  # noqa: F401

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("audit_flush"),
]

CHECK = """() => {
  const problems = [];
  for (const el of document.querySelectorAll('#phone-app button, #phone-app input')) {
    const r = el.getBoundingClientRect();
    const what = el.outerHTML.slice(0, 80);
    if (r.width === 0) continue;
    if (r.height < 44 || r.width < 44) problems.push(`small: ${what} ${r.width}x${r.height}`);
    if (el.scrollHeight > el.clientHeight + 1) problems.push(`clipped: ${what}`);
    if (el.tagName === 'INPUT' && !el.labels.length) problems.push(`unlabelled: ${el.id}`);
  }
  const width = document.documentElement.scrollWidth;
  if (width > 390) problems.push(`overflow: ${width}`);
  return problems;
}"""


@pytest.mark.parametrize("text_size", ["100%", "200%"])
def test_controls_are_large_labelled_and_reflow(
    live_server: Any, phone: Any, artifacts: Path, text_size: str
) -> None:
    setup = orm(make_setup, "access", rules="five-up")
    phone.goto(live_server.url + setup.path())
    # As a raised browser text size does: the root font size grows and rem units follow it.
    phone.add_style_tag(content=f"html {{ font-size: {text_size} !important; }}")
    assert phone.evaluate(CHECK) == []
    phone.get_by_role("button", name="Team A One (N)").click()
    expect(phone.get_by_role("button", name="Team B One (E) dominoed")).to_be_visible()
    assert phone.evaluate(CHECK) == []
    phone.get_by_role("button", name="Team B One (E) dominoed").click()
    expect(phone.get_by_label("Team A One (N)", exact=True)).to_be_visible()
    assert phone.evaluate(CHECK) == []
    name = "text-" + text_size.rstrip("%") + ".png"
    phone.screenshot(path=str(artifacts / name), full_page=True)
