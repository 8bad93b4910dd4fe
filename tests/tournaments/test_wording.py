"""Issue 30's wording: possessives of names ending in s, and audit lines with no "a event"."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from tests.tournaments.rounds_factory import make_director, make_entry, make_event, make_field
from tournaments.models import AuditEntry
from tournaments.presenters import audit as audit_presenters
from tournaments.services import round_generation, round_status

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_a_team_whose_name_ends_in_s_gets_a_bare_apostrophe_on_the_board() -> None:
    event = make_event()
    boss = make_director(event)
    make_entry(event, "The Closers")
    make_entry(event, "Hard Knock")
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    client = Client()
    client.force_login(boss)
    text = _text(client.get(f"/director/events/{event.slug}/rounds/1/results/").content.decode())
    assert "The Closers' page (side" in text and "Hard Knock's page (side" in text
    assert "Closers's" not in text


def test_finishing_and_re_ranking_have_sentences_and_the_fallback_has_no_article() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 4)
    AuditEntry.objects.create(event=event, actor=boss, action="event.finish", object_type="event")
    AuditEntry.objects.create(
        event=event, actor=boss, action="event.frobnicate", object_type="event"
    )
    names = audit_presenters.AuditNames()
    lines = [
        audit_presenters.describe(e, event, names, {})
        for e in AuditEntry.objects.filter(event=event).order_by("pk")
    ]
    assert "dana finished the event: its final placings froze" in lines
    assert "dana recorded “event: frobnicate” (the event)" in lines
    assert not any(" a event" in line for line in lines)
