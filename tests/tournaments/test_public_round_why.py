"""Issue 30: the public round page says each table's "why" in a sentence: the reason the
pairing recorded (``Match.explanation``), in the reader's language."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

from tests.tournaments.rounds_factory import make_director, make_event, make_field
from tournaments.selectors.pairing_reasons import match_reason
from tournaments.services import round_generation, round_status

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("table_size", [2, 4])
def test_each_table_shows_its_recorded_reason(table_size: int) -> None:
    fields: dict[str, Any] = {"entry_kind": "single", "table_size": 4} if table_size == 4 else {}
    event = make_event(public_pairings=True, **fields)
    boss = make_director(event)
    make_field(event, 8)
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    html = Client().get(f"/events/{event.slug}/rounds/1/").content.decode()
    matches = list(rnd.matches.filter(is_bye=False).select_related("table"))
    assert matches
    for match in matches:
        reason = match_reason(match.explanation)
        assert reason
        assert match.table is not None
        card = re.search(rf'id="table-{match.table.number}".*?(?=id="table-|$)', html, re.S)
        assert card is not None
        why = re.search(r'class="why pairing-why">(.*?)</p>', card.group(0), re.S)
        assert why is not None
        assert unescape(re.sub(r"<[^>]+>", "", why.group(1))).strip().endswith(reason)


def test_the_v_between_two_teams_keeps_its_spaces_when_blocks_are_run_together() -> None:
    """A reader that drops the whitespace between blocks (text pulled out of a printed page, a
    PDF) read "vHard Knock": the "v" carries its own spaces."""
    event = make_event(public_pairings=True)
    boss = make_director(event)
    make_field(event, 4)
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    html = Client().get(f"/events/{event.slug}/rounds/1/").content.decode()
    run_together = unescape(re.sub(r"<[^>]+>", "", re.sub(r">\s+<", "><", html)))
    for match in rnd.matches.filter(is_bye=False).select_related("entry_b"):
        assert match.entry_b is not None
        assert f"\xa0v\xa0{match.entry_b.name}" in run_together
        assert f"v{match.entry_b.name}" not in run_together
