"""Issue 30: the whole-event export is on the director's pages, not only a command and an API
path; the link downloads the same document as ``manage.py export_event``."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.test import Client

from tests.tournaments.rounds_factory import make_director, make_event, make_field
from tournaments.selectors import export

pytestmark = pytest.mark.django_db


def test_the_desk_links_the_whole_event_export_and_it_downloads() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 4)
    client = Client()
    client.force_login(boss)
    html = client.get(f"/director/events/{event.slug}/").content.decode()
    found = re.search(r'<a [^>]*href="([^"]+)"[^>]*>Download the whole event \(JSON\)</a>', html)
    assert found is not None
    response = client.get(unescape(found.group(1)))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{event.slug}-export.json"'
    document = json.loads(response.content)
    expected = json.loads(json.dumps(export.export_event(event)))
    document.pop("exported_at"), expected.pop("exported_at")
    assert document == expected
    assert len(document["entries"]) == 4
