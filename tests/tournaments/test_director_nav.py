"""The director's event menu marks the page it is on (new-user review: "Results" was marked on
every page): exactly one item, the current one, carries ``aria-current="page"``."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournaments.phone_factory import make_table_setup
from tournaments.templatetags.director_nav import SECTIONS, section_of

pytestmark = pytest.mark.django_db

CURRENT = re.compile(r'<nav class="subnav".*?</nav>', re.S)


def current_items(html: str) -> list[str]:
    menu = CURRENT.search(html)
    assert menu is not None
    return re.findall(r'aria-current="page"[^>]*>([^<]+)</a>', menu.group(0))


@pytest.mark.parametrize(
    ("path", "item"),
    [
        ("", "Desk"),
        ("entries/", "Entries"),
        ("import/", "Import"),
        ("rounds/", "Rounds"),
        ("rounds/1/results/", "Results"),
        ("standings/", "Standings"),
        ("edit/", "Settings"),
        ("audit/", "Audit log"),
    ],
)
def test_the_menu_marks_only_the_page_it_is_on(path: str, item: str) -> None:
    setup = make_table_setup(f"nav{len(path)}")
    client = Client()
    client.force_login(setup.director)
    page = client.get(f"/director/events/{setup.event.slug}/{path}")
    assert page.status_code == 200, path
    assert current_items(page.content.decode()) == [item]


def test_every_director_page_name_belongs_to_at_most_one_item() -> None:
    seen = [name for names in SECTIONS.values() for name in names]
    assert len(seen) == len(set(seen))
    assert section_of("results", "director") == "results"
    assert section_of("results", "public") == ""  # another audience's page of the same name
