"""The director's registration pages and the public event pages: roles, forms, htmx, privacy."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournaments.models import AuditEntry, Entry, Event, Player, Round
from tournaments.selectors import registration as selectors
from tournaments.services import entries
from tournaments.services import events as event_services
from tournaments.services.entries import PlayerSpec
from tournaments.services.organisers import make_organiser

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)


@pytest.fixture
def director() -> User:
    user = User.objects.create_user("dora", password="pw")
    make_organiser(user=user)  # only organisers create events (issue 15)
    return user


@pytest.fixture
def event(director: User) -> Event:
    return event_services.create_event(
        actor=director,
        name="Winter Open",
        start_date=DAY,
        end_date=DAY,
        venue="Town Hall",
        status=Event.Status.REGISTRATION,
        public_listing=True,
    )


@pytest.fixture
def client_for(director: User) -> Any:
    def make(user: User | None = director) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return make


def add(event: Event, a: str, b: str, **kwargs: Any) -> Entry:
    players = [PlayerSpec(a, "Club", **kwargs), PlayerSpec(b, "Club")]
    return entries.register_entry(actor=None, event=event, players=players)


def director_urls(event: Event, entry: Entry) -> list[tuple[str, str]]:
    base = f"/director/events/{event.slug}"
    return [
        ("get", f"{base}/"),
        ("get", f"{base}/edit/"),
        ("get", f"{base}/entries/"),
        ("get", f"{base}/entries/add/"),
        ("get", f"{base}/entries/late/"),
        ("get", f"{base}/entries/{entry.pk}/"),
        ("post", f"{base}/entries/{entry.pk}/check-in/"),
        ("get", f"{base}/import/"),
        ("get", f"{base}/audit/"),
        ("post", f"{base}/directors/"),
    ]


# --- roles -------------------------------------------------------------------------------------


def test_anonymous_visitors_are_sent_to_log_in(client_for: Any, event: Event) -> None:
    entry = add(event, "A", "B")
    client = client_for(None)
    urls = [("get", "/director/"), ("get", "/director/events/new/"), *director_urls(event, entry)]
    for method, url in urls:
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/?next="), url
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED


def test_a_director_of_another_event_gets_404(client_for: Any, event: Event) -> None:
    entry = add(event, "A", "B")
    other = User.objects.create_user("otto")
    event_services.create_event(actor=other, name="Otto's", start_date=DAY, end_date=DAY)
    client = client_for(other)
    for method, url in director_urls(event, entry):
        assert getattr(client, method)(url).status_code == 404, url
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED
    home = client.get("/director/")
    assert "Otto&#x27;s" in home.content.decode() and "Winter Open" not in home.content.decode()


def test_staff_see_every_event_but_change_none(client_for: Any, event: Event) -> None:
    entry = add(event, "A", "B")
    staff = User.objects.create_user("sam", is_staff=True)
    client = client_for(staff)
    audit_before = AuditEntry.objects.count()
    for method, url in director_urls(event, entry):
        response = getattr(client, method)(url)
        if method == "get":
            assert response.status_code == 200, url
        else:
            assert response.status_code == 403, url
            assert b'data-code="read_only_staff"' in response.content, url
            assert b"only its directors change it" in response.content, url
    assert "Winter Open" in client.get("/director/").content.decode()
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED
    assert AuditEntry.objects.count() == audit_before
    # Nor may staff make themselves a director of it.
    response = client.post(f"/director/events/{event.slug}/directors/", {"username": "sam"})
    assert response.status_code == 403
    assert not event.directors.filter(pk=staff.pk).exists()


def test_a_superuser_directs_every_event(client_for: Any, event: Event) -> None:
    entry = add(event, "A", "B")
    root = User.objects.create_superuser("root", password="pw")
    client = client_for(root)
    for method, url in director_urls(event, entry):
        if method == "get":
            assert client.get(url).status_code == 200, url
    assert "Winter Open" in client.get("/director/").content.decode()
    client.post(f"/director/events/{event.slug}/entries/{entry.pk}/check-in/")
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.CHECKED_IN
    assert AuditEntry.objects.get(action="entry.check_in").actor == root


# --- event pages -------------------------------------------------------------------------------


def event_form(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Spring Fives",
        "start_date": "2027-03-06",
        "end_date": "2027-03-07",
        "venue": "Club house",
        "status": "draft",
        "rules": "five-up",
        "entry_kind": "partnership",
        "target": "",
        "hand_size": "",
        "time_policy": "finish-hand",
        "round_minutes": "45",
        "format": "swiss",
        "swiss_rounds": "6",
        "first_round": "random",
        "playoff": "single",
        "playoff_qualifiers": "8",
        "points_win": "2",
        "points_draw": "1",
        "points_loss": "0",
        "points_bye": "2",
        "margin_bonus_points": "0",
        "margin_bonus_at": "0",
        "tiebreaks": "Buchholz, spread, head_to_head",
        "public_entries": "on",
    }
    data.update(overrides)
    return data


def test_create_an_event_through_the_form(client_for: Any, director: User) -> None:
    response = client_for().post("/director/events/new/", event_form())
    event = Event.objects.get(name="Spring Fives")
    assert response.status_code == 302 and response["Location"] == "/director/events/spring-fives/"
    assert event.tiebreaks == ["buchholz", "spread", "head_to_head"]
    assert (event.swiss_rounds, event.playoff, event.target) == (6, "single", None)
    assert event.public_entries and not event.public_listing
    assert list(event.directors.all()) == [director]
    page = client_for().get(response["Location"]).content.decode()
    assert event.salt in page and "61 points" in page


def test_the_form_shows_service_errors_against_their_fields(client_for: Any) -> None:
    response = client_for().post(
        "/director/events/new/", event_form(tiebreaks="spread, luck", end_date="2027-03-01")
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert "luck" in form.errors["tiebreaks"][0]
    assert "end_date" in form.errors
    assert not Event.objects.exists()


def test_edit_an_event(client_for: Any, event: Event) -> None:
    url = f"/director/events/{event.slug}/edit/"
    page = client_for().get(url)
    assert page.status_code == 200
    response = client_for().post(
        url, event_form(name="Winter Open", target="250", rules="all-fives", status="running")
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.target, event.rules, event.status) == (250, "all-fives", "running")
    assert AuditEntry.objects.filter(event=event, action="event.update").count() == 1


def test_add_a_director(client_for: Any, event: Event) -> None:
    User.objects.create_user("vic")
    client = client_for()
    client.post(f"/director/events/{event.slug}/directors/", {"username": "vic"})
    assert event.directors.filter(username="vic").exists()
    response = client.post(
        f"/director/events/{event.slug}/directors/", {"username": "ghost"}, follow=True
    )
    assert "No user called" in response.content.decode()


def test_the_dashboard_counts_entries(client_for: Any, event: Event) -> None:
    a, b, c = add(event, "A", "B"), add(event, "C", "D"), add(event, "E", "F")
    entries.check_in_entry(actor=None, entry=a)
    entries.withdraw_entry(actor=None, entry=b)
    assert selectors.count_entries(event) == selectors.EntryCounts(3, 1, 1, 1, 0)
    page = client_for().get(f"/director/events/{event.slug}/").content.decode()
    assert '<dd id="count-checked-in">1</dd>' in page
    assert '<dd id="count-withdrawn">1</dd>' in page
    assert c.name not in page  # the dashboard summarises; the list is on the entries page


# --- entries -----------------------------------------------------------------------------------


def test_search_entries_as_you_type(client_for: Any, event: Event) -> None:
    add(event, "Ann Lee", "Bob Ray")
    entries.register_entry(
        actor=None,
        event=event,
        players=[PlayerSpec("Cy Osei", "Club"), PlayerSpec("Di Park", "Club")],
        team_name="Spinners",
    )
    url = f"/director/events/{event.slug}/entries/"
    client = client_for()
    partial = client.get(url, {"q": "park"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="entry-rows")
    html = partial.content.decode()
    assert html.lstrip().startswith('<ul id="entry-rows"')
    assert "Spinners" in html and "Ann Lee" not in html
    assert f'name="next" value="{url}?q=park"' in html
    html = client.get(url, {"q": "spin"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="entry-rows")
    assert "Di Park" in html.content.decode()
    full = client.get(url, {"q": "ann"}).content.decode()
    rows = full[full.index('<ul id="entry-rows"') :].split("</ul>")[0]  # not "keep apart"'s list
    assert "<html" in full and "Ann Lee" in rows and "Spinners" not in rows
    assert "Checked in" in client.get(url, {"status": "checked_in"}).content.decode()


def test_one_tap_check_in_with_htmx_and_without(client_for: Any, event: Event) -> None:
    entry = add(event, "Ann", "Bob")
    base = f"/director/events/{event.slug}/entries/{entry.pk}"
    client = client_for()
    row = client.post(f"{base}/check-in/", HTTP_HX_REQUEST="true").content.decode()
    assert row.lstrip().startswith(f'<li class="entry-row checked_in" id="entry-{entry.pk}"')
    assert "Undo" in row
    counter = '<small class="muted" id="checked-count" data-hx-swap-oob="true">1 of 1 checked in'
    assert counter in row
    again = client.post(f"{base}/check-in/", HTTP_HX_REQUEST="true").content.decode()
    assert "already checked in" in again
    back = f"/director/events/{event.slug}/entries/?q=ann"
    response = client.post(f"{base}/undo-check-in/", {"next": back, "confirm": "yes"})
    assert response.status_code == 302 and response["Location"] == back
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED
    response = client.post(f"{base}/withdraw/", {"next": "https://evil.example/"})
    assert response["Location"] == f"/director/events/{event.slug}/entries/"
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.WITHDRAWN
    client.post(f"{base}/reinstate/")
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED
    assert client.post(f"{base}/jump/", follow=True).status_code == 200
    # A GET never acts: it goes back to the entry's page (views/confirm.get_goes_back).
    looked = client.get(f"{base}/check-in/")
    assert looked.status_code == 302 and looked["Location"] == f"{base}/"
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED


def test_add_an_entry_and_a_late_entry(client_for: Any, event: Event) -> None:
    client = client_for()
    url = f"/director/events/{event.slug}/entries/add/"
    form = {"player_a": "Ann", "club_a": "X", "rating_a": "1500", "player_b": "Bob", "seed": "2"}
    assert client.post(url, form).status_code == 302
    entry = Entry.objects.get(event=event)
    assert (entry.name, entry.seed, entry.late) == ("Ann & Bob", 2, False)
    response = client.post(url, {"player_a": "Ann", "club_a": "X", "player_b": "Cy"})
    assert response.status_code == 200
    assert "already plays for Ann &amp; Bob" in response.content.decode()
    assert client.post(url, {"player_a": "", "player_b": "Cy"}).status_code == 200
    Round.objects.create(event=event, number=1)
    late_url = f"/director/events/{event.slug}/entries/late/"
    response = client.post(late_url, {"player_a": "Di", "player_b": "Ed", "another": "1"})
    assert response.status_code == 302 and response["Location"] == late_url
    assert Entry.objects.get(name="Di & Ed").late is True
    refused = client.post(url, {"player_a": "Fy", "player_b": "Gu"}).content.decode()
    assert "late entry" in refused


def test_entry_page_sets_seed_and_pins_a_table(client_for: Any, event: Event) -> None:
    entry = add(event, "Ann", "Bob")
    add(event, "Cy", "Di")
    entries.set_seed(actor=None, entry=Entry.objects.get(name="Cy & Di"), seed=1)
    url = f"/director/events/{event.slug}/entries/{entry.pk}/"
    client = client_for()
    assert client.get(url).status_code == 200
    taken = client.post(url, {"form": "seed", "seed": "1"})
    assert "already" in taken.content.decode()
    client.post(url, {"form": "seed", "seed": "2"})
    client.post(url, {"form": "pin", "pinned_table": "3", "reason": "step-free"})
    entry.refresh_from_db()
    assert (entry.seed, entry.pinned_table) == (2, 3)
    assert AuditEntry.objects.get(action="entry.pin_table").reason == "step-free"
    assert client.get(f"/director/events/{event.slug}/entries/99999/").status_code == 302


def test_entry_page_renames_the_entry_as_the_api_does(client_for: Any, event: Event) -> None:
    entry = add(event, "Ann", "Bob")
    url = f"/director/events/{event.slug}/entries/{entry.pk}/"
    client = client_for()
    assert 'value="Ann &amp; Bob"' in client.get(url).content.decode()
    saved = client.post(url, {"form": "name", "name": "  The   Aces "})
    assert saved.status_code == 302
    entry.refresh_from_db()
    assert entry.name == "The Aces"
    audit = AuditEntry.objects.get(action="entry.rename")
    assert (audit.before, audit.after) == ({"name": "Ann & Bob"}, {"name": "The Aces"})
    blank = client.post(url, {"form": "name", "name": "   "})
    assert blank.status_code == 200 and 'aria-invalid="true"' in blank.content.decode()
    entry.refresh_from_db()
    assert entry.name == "The Aces"
    log = client.get(f"/director/events/{event.slug}/audit/").content.decode()
    assert "renamed Ann &amp; Bob to The Aces" in log


# --- import ------------------------------------------------------------------------------------


def test_import_preview_then_confirm(client_for: Any, event: Event) -> None:
    url = f"/director/events/{event.slug}/import/"
    client = client_for()
    assert "player_a,club_a,rating_a" in client.get(url).content.decode()
    text = (
        "player_a,club_a,rating_a,player_b,club_b,rating_b,team,seed\n"
        "Ann,X,,Bob,X,,,1\nCy,,,Di,,,,\n"
    )
    preview = client.post(url, {"action": "preview", "text": text})
    html = preview.content.decode()
    assert "Preview: 2 entries to create" in html
    assert '<textarea name="text" hidden>' in html
    assert not Entry.objects.exists()
    confirmed = client.post(url, {"action": "confirm", "text": preview.context["text"]})
    assert confirmed.status_code == 302
    assert sorted(Entry.objects.values_list("name", flat=True)) == ["Ann & Bob", "Cy & Di"]


def test_import_with_bad_lines_shows_them_and_saves_nothing(client_for: Any, event: Event) -> None:
    url = f"/director/events/{event.slug}/import/"
    text = "Ann,X,,Bob,X\nCy,,lots,Di\nEd,,,Ed\n"
    client = client_for()
    html = client.post(url, {"action": "preview", "text": text}).content.decode()
    assert "Nothing was saved" in html
    assert "Line 2:" in html and "rating_a must be a whole number" in html
    assert "Line 3:" in html and "Line 1:" not in html
    assert "Cy,,lots,Di" in html  # the text is kept for fixing
    html = client.post(url, {"action": "confirm", "text": text}).content.decode()
    assert "Nothing was imported" in html
    assert not Entry.objects.exists() and not Player.objects.exists()


def test_import_reads_an_uploaded_file_with_a_bom(client_for: Any, event: Event) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("e.csv", "\ufeffAnn,X,,Bob\n".encode(), "text/csv")
    response = client_for().post(
        f"/director/events/{event.slug}/import/", {"action": "preview", "file": upload}
    )
    assert response.context["preview"].ok
    assert response.context["text"] == "\ufeffAnn,X,,Bob\n".lstrip("\ufeff")


def test_audit_page_lists_changes(client_for: Any, event: Event) -> None:
    entry = add(event, "Ann", "Bob")
    entries.withdraw_entry(actor=None, entry=entry, reason="gone home")
    html = client_for().get(f"/director/events/{event.slug}/audit/").content.decode()
    assert "entry.withdraw" in html and "gone home" in html and "event.create" in html


# --- public pages ------------------------------------------------------------------------------


def test_public_events_list_hides_drafts_and_unlisted(director: User, event: Event) -> None:
    event_services.create_event(actor=director, name="Secret draft", start_date=DAY, end_date=DAY)
    event_services.create_event(
        actor=director,
        name="Unlisted",
        start_date=DAY,
        end_date=DAY,
        status=Event.Status.REGISTRATION,
    )
    event_services.create_event(
        actor=director,
        name="Last Year",
        start_date=datetime.date(2020, 1, 4),
        end_date=datetime.date(2020, 1, 4),
        status=Event.Status.FINISHED,
        public_listing=True,
    )
    upcoming, past = selectors.list_public_events(today=datetime.date(2026, 11, 1))
    assert [e.name for e in upcoming] == ["Winter Open"]
    assert [e.name for e in past] == ["Last Year"]
    html = Client().get("/events/").content.decode()
    assert "Winter Open" in html and "Last Year" in html
    assert "Secret draft" not in html and "Unlisted" not in html
    assert Client().get("/events/unlisted/").status_code == 200  # by link
    assert Client().get("/events/secret-draft/").status_code == 404
    assert Client().get("/events/nope/").status_code == 404


def test_public_event_page_shows_rules_salt_entries_rounds_but_no_contacts(
    client_for: Any, event: Event
) -> None:
    entry = entries.register_entry(
        actor=None,
        event=event,
        players=[
            PlayerSpec("Ann Lee", "Brixton", email="ann@example.org", phone="+44 7700 900123"),
            PlayerSpec("Bob Ray", "Brixton"),
        ],
    )
    assert Player.objects.get(name="Ann Lee").email == "ann@example.org"
    Round.objects.create(event=event, number=1, status=Round.Status.PUBLISHED)
    Round.objects.create(event=event, number=2, status=Round.Status.DRAFT)
    html = Client().get(f"/events/{event.slug}/").content.decode()
    assert "Winter Open" in html and "Town Hall" in html and event.salt in html
    assert "61 points (305 raw pips, counted in fives)" in html
    assert "deals 5 tiles" in html
    assert "Ann Lee &amp; Bob Ray" in html and "Brixton" in html
    assert "ann@example.org" not in html and "7700" not in html
    assert "Round 1" in html and "Round 2" not in html
    director_view = client_for().get(f"/events/{event.slug}/").content.decode()
    assert "Round 2" in director_view
    # The director's own entry page does show contact details.
    private = client_for().get(f"/director/events/{event.slug}/entries/{entry.pk}/")
    assert "ann@example.org" in private.content.decode()
    event_services.update_event(actor=None, event=event, public_entries=False)
    assert "Ann Lee" not in Client().get(f"/events/{event.slug}/").content.decode()


def test_all_fives_targets_are_shown_raw(director: User) -> None:
    event = event_services.create_event(
        actor=director,
        name="A5",
        start_date=DAY,
        end_date=DAY,
        rules=Event.Rules.ALL_FIVES,
        entry_kind=Event.EntryKind.SINGLE,
    )
    rules = selectors.describe_rules(event)
    assert (rules.target_display, rules.hand_size) == ("250 points", 9)
    event.rules, event.target, event.entry_kind = Event.Rules.FIVE_UP_7, 300, "partnership"
    rules = selectors.describe_rules(event)
    assert (rules.target_display, rules.hand_size) == (
        "60 points (300 raw pips, counted in fives)",
        7,
    )


# --- selectors' query counts --------------------------------------------------------------------


def test_selectors_use_a_fixed_number_of_queries(
    event: Event, director: User, django_assert_num_queries: Any
) -> None:
    for i in range(6):
        add(event, f"A{i}", f"B{i}")
    with django_assert_num_queries(2):
        rows = selectors.list_entries(event=event, query="a")
        assert [len(e.members.all()) for e in rows] == [2] * 6
    with django_assert_num_queries(1):
        assert len(selectors.list_public_entries(event)) == 6
    with django_assert_num_queries(1):
        selectors.count_entries(event)
    with django_assert_num_queries(1):
        assert [a.actor for a in selectors.list_audit(event=event)][-1] == director
    with django_assert_num_queries(1):
        assert selectors.list_director_events(director) == [event]


def test_the_admin_is_read_only_for_staff(event: Event) -> None:
    add(event, "Ann", "Bob")
    admin = User.objects.create_superuser("root", password="pw")
    client = Client()
    client.force_login(admin)
    assert "Ann &amp; Bob" in client.get("/admin/tournaments/entry/").content.decode()
    assert client.get("/admin/tournaments/entry/add/").status_code == 403
    assert client.get("/admin/tournaments/auditentry/").status_code == 200


def test_import_reads_excels_utf16_unicode_text(client_for: Any, event: Event) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("e.csv", "Ann,X,,Bob\nCy,,,Di\n".encode("utf-16"), "text/csv")
    response = client_for().post(
        f"/director/events/{event.slug}/import/", {"action": "preview", "file": upload}
    )
    assert response.status_code == 200
    assert "Preview: 2 entries to create" in response.content.decode()


def test_import_of_a_binary_file_names_its_lines_and_saves_nothing(
    client_for: Any, event: Event
) -> None:
    text = "Ann,X,,Bob\nC\x00y,,,Di\n"
    html = client_for().post(
        f"/director/events/{event.slug}/import/", {"action": "preview", "text": text}
    )
    assert html.status_code == 200
    body = html.content.decode()
    assert "Line 2:" in body and "NUL character" in body
    assert not Entry.objects.exists()


def test_a_nul_in_the_entry_search_is_a_400(client_for: Any, event: Event) -> None:
    # Issue 15: text no database stores is refused before any view, query strings included.
    add(event, "Ann Lee", "Bob Ray")
    url = f"/director/events/{event.slug}/entries/"
    response = client_for().get(url, {"q": "An\x00n"})
    assert response.status_code == 400
    assert "Ann Lee" in client_for().get(url, {"q": "Ann"}).content.decode()


def test_the_event_form_takes_scores_in_the_points_players_count(
    client_for: Any, event: Event
) -> None:
    """Issue 11: a director types 61 for a Five Up target (305 raw pips), and reads 61 back."""
    url = f"/director/events/{event.slug}/edit/"
    form = event_form(name="Winter Open", rules="five-up", target="61", margin_bonus_at="8")
    assert client_for().post(url, form).status_code == 302
    event.refresh_from_db()
    assert (event.target, event.margin_bonus_at) == (305, 40)
    page = client_for().get(url).content.decode()
    assert 'name="target" value="61"' in page
    assert "Target (points)" in page
    refused = client_for().post(url, {**form, "target": "60.3"})
    assert refused.status_code == 200
    assert "steps of 0.2" in refused.content.decode()
    event.refresh_from_db()
    assert event.target == 305
