"""Self check-in's pages (issue 18): the players' page (search, code, errors, throttle), the
director's setting, poster and code slips, the desk's marks, and the help pages' links."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import make_director, make_event
from tests.tournaments.api_support import private_cache
from tests.tournaments.phone_factory import make_setup
from tests.tournaments.rounds_factory import make_field
from tournaments.models import AuditEntry, Entry, Event
from tournaments.services import entries as entry_services
from tournaments.services import round_generation, self_check_in
from tournaments.services.entries import PlayerSpec

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _own_cache(settings: Any) -> Iterator[None]:
    with private_cache(settings):
        yield


@pytest.fixture
def event() -> Event:
    return make_event("hall-fives", status=Event.Status.REGISTRATION, time_zone="America/Chicago")


@pytest.fixture
def boss(event: Event) -> User:
    return make_director(event, "dora")


@pytest.fixture
def jose(event: Event, boss: User) -> Entry:
    self_check_in.set_self_check_in(actor=boss, event=event, enabled=True)
    return entry_services.register_entry(
        actor=boss,
        event=event,
        players=[
            PlayerSpec("José Ramírez", "Club", email="jose@example.org"),
            PlayerSpec("Ana Peña", "Club"),
        ],
        team_name="Los Seises",
    )


def page_url(event: Event) -> str:
    return reverse("public:check-in", args=[event.slug])


def test_the_page_says_when_self_check_in_is_off_and_hides_drafts(event: Event) -> None:
    html = Client().get(page_url(event)).content.decode()
    assert 'data-state="off"' in html and "check in at the desk" in html
    draft = make_event("secret", status=Event.Status.DRAFT, self_check_in=True)
    assert Client().get(page_url(draft)).status_code == 404


def test_search_ignores_accents_and_case_and_shows_no_contact_or_code(
    event: Event, jose: Entry
) -> None:
    for query in ("jose ramirez", "RAMÍREZ", "pena", "seises"):
        html = Client().get(page_url(event), {"q": query}).content.decode()
        assert f"?entry={jose.pk}" in html, query
        assert "jose@example.org" not in html and jose.check_in_code not in html
    short = Client().get(page_url(event), {"q": "j"}).content.decode()
    assert f"?entry={jose.pk}" not in short and "at least 2 letters" in short
    none = Client().get(page_url(event), {"q": "Zebedee"}).content.decode()
    assert "No entry matches" in none


def test_a_player_checks_in_with_their_code_and_sees_the_time_in_the_events_zone(
    event: Event, jose: Entry
) -> None:
    client = Client()
    form = client.get(page_url(event), {"entry": jose.pk}).content.decode()
    assert "Los Seises" in form and 'name="code"' in form
    answer = client.post(page_url(event), {"entry": jose.pk, "code": jose.check_in_code.lower()})
    html = answer.content.decode()
    assert answer.status_code == 200 and "You are checked in" in html
    assert re.search(r"Checked in at \d\d:\d\d C[SD]T\.", html)
    assert Entry.objects.get(pk=jose.pk).checked_in_by_self
    again = client.post(page_url(event), {"entry": jose.pk, "code": jose.check_in_code})
    assert again.status_code == 200 and "You were already checked in" in again.content.decode()


def test_a_wrong_code_is_a_clear_error_that_keeps_what_was_typed(event: Event, jose: Entry) -> None:
    answer = Client().post(page_url(event), {"entry": jose.pk, "code": "zz-top"})
    html = answer.content.decode()
    assert answer.status_code == 400 and 'data-code="check_in_code_wrong"' in html
    assert 'value="zz-top"' in html and "Los Seises" in html
    unknown = Client().post(page_url(event), {"entry": 0, "code": "ACEFHJ"})
    assert unknown.status_code == 404 and 'data-code="entry_not_found"' in unknown.content.decode()
    assert Client().get(page_url(event), {"entry": 0}).status_code == 404


def test_the_page_closes_when_round_1_is_generated(event: Event, boss: User, jose: Entry) -> None:
    make_field(event, 4)
    round_generation.generate_round(event=event, actor=boss)
    html = Client().get(page_url(event)).content.decode()
    assert 'data-state="closed"' in html and 'name="q"' not in html
    answer = Client().post(page_url(event), {"entry": jose.pk, "code": jose.check_in_code})
    assert answer.status_code == 409
    assert 'data-code="self_check_in_closed"' in answer.content.decode()


def test_tries_beyond_the_rate_get_429_with_retry_after(
    event: Event, jose: Entry, settings: Any
) -> None:
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **rates,
            "self_check_in": "2/min",
            "self_check_in_search": "2/min",
        },
    }
    client = Client()
    for _ in range(2):
        assert client.post(page_url(event), {"entry": jose.pk, "code": "AAAAAA"}).status_code == 400
    answer = client.post(page_url(event), {"entry": jose.pk, "code": jose.check_in_code})
    assert answer.status_code == 429 and int(answer["Retry-After"]) >= 1
    assert 'data-code="throttled"' in answer.content.decode()
    for _ in range(2):
        assert client.get(page_url(event), {"q": "ana"}).status_code == 200
    assert client.get(page_url(event), {"q": "ana"}).status_code == 429
    assert not Entry.objects.get(pk=jose.pk).checked_in_by_self


def test_the_director_turns_it_on_sets_the_day_code_and_prints(event: Event, boss: User) -> None:
    client = Client()
    client.force_login(boss)
    settings_url = reverse("director:check-in-settings", args=[event.slug])
    assert client.get(settings_url).status_code == 405
    assert client.post(settings_url, {"action": "on"}).status_code == 302
    assert Event.objects.get(pk=event.pk).self_check_in
    client.post(settings_url, {"action": "day-code", "day_code": "fives 2026"})
    assert Event.objects.get(pk=event.pk).check_in_day_code == "FIVES2026"
    for typo in ("abc", "x" * 41):
        bad = client.post(settings_url, {"action": "day-code", "day_code": typo}, follow=True)
        assert "6 to 16 letters and digits" in bad.content.decode()
    assert Event.objects.get(pk=event.pk).check_in_day_code == "FIVES2026"
    desk = client.get(reverse("director:event", args=[event.slug])).content.decode()
    assert 'id="self-check-in"' in desk and "FIVES2026" in desk
    assert reverse("director:help") in desk

    poster = client.get(reverse("director:check-in-poster", args=[event.slug])).content.decode()
    assert "<svg" in poster and f"http://testserver{page_url(event)}" in poster
    assert "FIVES2026" not in poster  # the day's code is announced, not printed
    entry = entry_services.register_entry(
        actor=boss, event=event, players=[PlayerSpec("Al Bo", ""), PlayerSpec("Cy Do", "")]
    )
    slips = client.get(reverse("director:check-in-slips", args=[event.slug])).content.decode()
    assert f"{entry.check_in_code[:3]}-{entry.check_in_code[3:]}" in slips

    client.post(settings_url, {"action": "clear-day-code"})
    client.post(settings_url, {"action": "off"})
    fresh = Event.objects.get(pk=event.pk)
    assert not fresh.self_check_in and fresh.check_in_day_code == ""
    actions = list(AuditEntry.objects.filter(event=event).values_list("action", flat=True))
    assert actions.count("event.self_check_in") == 2
    audit = client.get(reverse("director:audit", args=[event.slug])).content.decode()
    assert "turned self check-in on" in audit and "set a new check-in code for the day" in audit


def test_read_only_staff_and_strangers_cannot_change_it(event: Event) -> None:
    url = reverse("director:check-in-settings", args=[event.slug])
    staff = User.objects.create_user("staff", is_staff=True)
    client = Client()
    client.force_login(staff)
    assert client.post(url, {"action": "on"}).status_code == 403
    assert Client().post(url, {"action": "on"}).status_code == 302  # to the log in page
    assert not Event.objects.get(pk=event.pk).self_check_in


def test_the_desk_marks_who_checked_in_themselves(event: Event, boss: User, jose: Entry) -> None:
    self_check_in.check_in_self(
        event=event, entry_id=jose.pk, code=jose.check_in_code, address="192.0.2.1"
    )
    client = Client()
    client.force_login(boss)
    desk = client.get(reverse("director:entries", args=[event.slug])).content.decode()
    assert "by themselves" in desk and "(1 by themselves)" in desk
    code = f"{jose.check_in_code[:3]}-{jose.check_in_code[3:]}"
    assert code in desk
    detail = client.get(reverse("director:entry", args=[event.slug, jose.pk])).content.decode()
    assert code in detail and "checked in by themselves at" in detail
    audit = client.get(reverse("director:audit", args=[event.slug])).content.decode()
    assert "Los Seises checked themselves in (with their entry&#x27;s code)" in audit


def test_the_help_pages_are_linked_where_the_question_arises(event: Event, jose: Entry) -> None:
    table_help, director_help = reverse("public:help-table"), reverse("director:help")
    for url in (table_help, director_help):
        page = Client().get(url)
        assert page.status_code == 200 and "<h1>" in page.content.decode()
    assert table_help in Client().get(page_url(event)).content.decode()
    setup = make_setup("help-cup")
    assert f"{table_help}#phone" in Client().get(setup.path(0)).content.decode()
    client = Client()
    client.force_login(setup.director)
    review = reverse("director:round", args=[setup.event.slug, setup.round.number])
    assert f"{director_help}#rounds" in client.get(review).content.decode()
    desk = reverse("director:event", args=[setup.event.slug])
    assert director_help in client.get(desk).content.decode()


def test_the_help_pages_read_in_spanish() -> None:
    try:
        spanish = Client(headers={"accept-language": "es-ES,es;q=0.9"})
        page = spanish.get(reverse("public:help-table"))
        assert "Ayuda para jugadores" in page.content.decode()
        page = Client(headers={"accept-language": "es"}).get(reverse("director:help"))
        assert "Ayuda para directores" in page.content.decode()
    finally:
        translation.deactivate()  # the test client leaves the last request's language active
