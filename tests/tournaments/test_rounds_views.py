"""Round control pages, the public round page and who may see what."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.rounds_factory import (
    make_director,
    make_entry,
    make_event,
    make_field,
    settle_round,
)
from tournaments.models import AuditEntry, BackgroundJob, Event, Player, Round, RoundSeat
from tournaments.selectors import rounds as selectors
from tournaments.services import round_generation, round_status

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def director_client(event: Event) -> tuple[Client, User]:
    boss = make_director(event)
    client = Client()
    client.force_login(boss)
    return client, boss


def base(event: Event) -> str:
    return f"/director/events/{event.slug}/rounds/"


def test_generate_from_the_page_then_review_the_draft(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = make_event()
    client, _ = director_client(event)
    make_field(event, 6)
    page = client.get(base(event))
    assert page.status_code == 200 and b"Generate the next round" in page.content
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(base(event) + "generate/")
    job = BackgroundJob.objects.get(event=event, kind="generate_round")
    assert started.status_code == 302 and started["Location"] == f"{base(event)}jobs/{job.pk}/"
    # Eager mode: the job is done, the job page sends the director to the draft.
    done = client.get(started["Location"])
    assert done.status_code == 302 and done["Location"] == f"{base(event)}1/"
    polled = client.get(started["Location"], **HTMX)
    assert polled.status_code == 204 and polled["HX-Redirect"] == f"{base(event)}1/"
    review = client.get(f"{base(event)}1/")
    body = review.content.decode()
    assert review.status_code == 200
    assert "Table 3" in body and "The checker finds no violation" in body
    assert "Swap two entries" in body and "Publish round 1" in body
    rnd = Round.objects.get(event=event, number=1)
    first = rnd.matches.select_related("entry_a").get(table__number=1)
    assert first.entry_a.name in body and first.explanation["reason"] in body


def test_the_job_page_shows_progress_while_pending(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = make_event()
    client, boss = director_client(event)
    make_field(event, 4)
    with django_capture_on_commit_callbacks(execute=False):  # no worker has taken it yet
        job = round_generation.start_round_generation(event=event, actor=boss)
    page = client.get(f"{base(event)}jobs/{job.pk}/")
    body = page.content.decode()
    assert page.status_code == 200 and "<progress" in body and 'data-hx-trigger="every 1s"' in body
    fragment = client.get(f"{base(event)}jobs/{job.pk}/", **HTMX).content.decode()
    assert fragment.lstrip().startswith('<div id="job"') and "<html" not in fragment


def test_a_refused_generation_is_shown_as_a_message() -> None:
    event = make_event()
    client, _ = director_client(event)
    make_entry(event)
    response = client.post(base(event) + "generate/", follow=True)
    assert "check in at least two entries" in response.content.decode()
    assert not BackgroundJob.objects.filter(event=event).exists()


def test_edit_the_draft_with_a_reason_preview_conflicts_then_publish_and_close() -> None:
    event = make_event()
    client, boss = director_client(event)
    make_field(event, 6)
    first = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=first, actor=boss)
    settle_round(first, boss)
    round_status.close_round(round=first, actor=boss)
    second = round_generation.generate_round(event=event, actor=boss)
    m1 = second.matches.get(table__number=1)
    old = RoundSeat.objects.select_related("match").get(round=first, entry_id=m1.entry_a_id).match
    former = old.entry_b_id if old.entry_a_id == m1.entry_a_id else old.entry_a_id
    url = f"{base(event)}2/"
    preview = client.get(
        url + "swap-preview/", {"entry_x": m1.entry_b_id, "entry_y": former}, **HTMX
    ).content.decode()
    assert "rematch" in preview and "After this swap" in preview
    calm = client.get(url + "swap-preview/", {"entry_x": m1.entry_a_id, "entry_y": m1.entry_b_id})
    assert "No conflict" in calm.content.decode()
    # No reason: refused, nothing changes.
    refused = client.post(
        url + "swap-entries/",
        {"entry_x": m1.entry_b_id, "entry_y": former, "reason": ""},
        follow=True,
    )
    assert "Say why" in refused.content.decode()
    assert not AuditEntry.objects.filter(action="round.swap_entries").exists()
    swapped = client.post(
        url + "swap-entries/",
        {"entry_x": m1.entry_b_id, "entry_y": former, "reason": "same club request"},
        follow=True,
    ).content.decode()
    assert "Entries swapped." in swapped and "same club request" in swapped
    assert "Director&#x27;s overrides" in swapped or "Director's overrides" in swapped
    tables = client.post(
        url + "swap-tables/", {"table_x": 1, "table_y": 2, "reason": "near the door"}, follow=True
    )
    assert "Tables 1 and 2 swapped." in tables.content.decode()
    client.post(url + "publish/", {"confirm": "yes"})
    second.refresh_from_db()
    assert second.status == Round.Status.PUBLISHED
    client.post(url + "start/")
    refused = client.post(url + "close/", {"confirm": "yes"}, follow=True).content.decode()
    assert "without a confirmed result" in refused
    second.refresh_from_db()
    assert second.status == Round.Status.IN_PLAY
    settle_round(second, boss)
    client.post(url + "close/", {"confirm": "yes"})
    second.refresh_from_db()
    assert second.status == Round.Status.CLOSED
    again = client.post(url + "publish/", {"confirm": "yes"}, follow=True)
    assert "only a draft can change" in again.content.decode()


def test_discarding_a_draft_needs_a_reason() -> None:
    event = make_event()
    client, boss = director_client(event)
    make_field(event, 4)
    round_generation.generate_round(event=event, actor=boss)
    client.post(f"{base(event)}1/discard/", {"reason": ""})
    assert Round.objects.filter(event=event).exists()
    response = client.post(f"{base(event)}1/discard/", {"reason": "wrong check-ins"})
    assert response.status_code == 302 and response["Location"] == base(event)
    assert not Round.objects.filter(event=event).exists()


@pytest.mark.parametrize("who", ["anonymous", "other_director", "director", "staff", "superuser"])
def test_director_pages_by_role(who: str) -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 4)
    round_generation.generate_round(event=event, actor=boss)
    client = Client()
    if who == "other_director":
        client.force_login(make_director(make_event(slug="other"), "other-boss"))
    elif who == "director":
        client.force_login(boss)
    elif who == "staff":
        client.force_login(User.objects.create_user("staff", is_staff=True))
    elif who == "superuser":
        client.force_login(User.objects.create_superuser("root"))
    expected = {"anonymous": 302, "other_director": 404, "director": 200, "staff": 200}.get(
        who, 200
    )
    for url in (base(event), f"{base(event)}1/"):
        response = client.get(url)
        assert response.status_code == expected, url
        if who == "anonymous":
            assert response["Location"].startswith("/accounts/login/")
    posted = client.post(f"{base(event)}1/publish/", {"confirm": "yes"})
    # Staff see every event's rounds but only its directors (and superusers) change them.
    posted_status = {"other_director": 404, "staff": 403}.get(who, 302)
    assert posted.status_code == posted_status
    if who == "staff":
        assert b'data-code="read_only_staff"' in posted.content
    published = Round.objects.get(event=event, number=1).status == Round.Status.PUBLISHED
    assert published == (who in ("director", "superuser"))


def test_the_public_page_shows_tables_and_finds_a_player() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 5)
    make_entry(event, "Domino Queens", players=("Zora Quist", "Ann Lee"))
    rnd = round_generation.generate_round(event=event, actor=boss)
    url = f"/events/{event.slug}/rounds/1/"
    client = Client()
    assert client.get(url).status_code == 404  # a draft is not public
    round_status.publish_round(round=rnd, actor=boss)
    page = client.get(url)
    body = page.content.decode()
    assert page.status_code == 200
    assert body.count('class="card match"') == 3 and "Find my table" in body
    assert "@example.org" not in body
    seat = RoundSeat.objects.select_related("match__table").get(
        round=rnd, entry__name="Domino Queens"
    )
    table = seat.match.table.number if seat.match.table else None
    # No JavaScript: ?q= filters the page.
    found = client.get(url, {"q": "zora"}).content.decode()
    assert found.count('class="card match"') == 1 and f'id="table-{table}"' in found
    assert "Zora Quist" in found
    # htmx as you type: only the fragment comes back.
    fragment = client.get(url, {"q": "ZORA Q"}, HTTP_HX_TARGET="pairings", **HTMX).content.decode()
    assert fragment.lstrip().startswith('<div id="pairings"') and "<html" not in fragment
    assert fragment.count('class="card match"') == 1
    none = client.get(url, {"q": "nobody-by-that-name"}).content.decode()
    assert "No table for" in none and 'class="card match"' not in none


def test_a_bye_shows_on_the_public_page() -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 3)
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    bye = rnd.matches.select_related("entry_a").get(is_bye=True)
    body = Client().get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "<h2>Bye</h2>" in body and bye.entry_a.name in body


@pytest.mark.parametrize(
    ("status", "pairings_public", "who", "expected"),
    [
        (Event.Status.RUNNING, True, "anonymous", 200),
        (Event.Status.RUNNING, False, "anonymous", 404),
        (Event.Status.RUNNING, False, "other_director", 404),
        (Event.Status.RUNNING, False, "director", 200),
        (Event.Status.DRAFT, True, "anonymous", 404),
        (Event.Status.DRAFT, True, "director", 200),
    ],
)
def test_public_round_permissions(
    status: str, pairings_public: bool, who: str, expected: int
) -> None:
    event = make_event(status=status, public_pairings=pairings_public)
    boss = make_director(event)
    make_field(event, 4)
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    client = Client()
    if who == "director":
        client.force_login(boss)
    elif who == "other_director":
        client.force_login(make_director(make_event(slug="other"), "other-boss"))
    assert client.get(f"/events/{event.slug}/rounds/1/").status_code == expected
    assert client.get(f"/events/{event.slug}/rounds/2/").status_code == 404


def test_round_view_reads_in_two_queries(django_assert_num_queries: Any) -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 9)
    rnd = round_generation.generate_round(event=event, actor=boss)
    with django_assert_num_queries(2):
        view = selectors.round_view(rnd)
    assert len(view.matches) == 4 and len(view.byes) == 1
    assert all(len(e.players) == 2 for e in view.entries)
    assert all(m.reason and m.explanation for m in (*view.matches, *view.byes))
    # Who sits where only (the projector): the same tables, byes and players, without why.
    with django_assert_num_queries(2):
        seating = selectors.round_view(rnd, explained=False)
        seated = [(m.match_id, m.table, m.entries) for m in (*seating.matches, *seating.byes)]
    assert seated == [(m.match_id, m.table, m.entries) for m in (*view.matches, *view.byes)]
    assert all(not m.reason and not m.explanation for m in (*seating.matches, *seating.byes))


def test_a_second_click_on_generate_follows_the_running_job(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = make_event()
    client, _ = director_client(event)
    make_field(event, 4)
    with django_capture_on_commit_callbacks(execute=False):  # the worker has not started
        client.post(base(event) + "generate/")
        again = client.post(base(event) + "generate/")
    job = BackgroundJob.objects.get(event=event)
    assert again.status_code == 302 and again["Location"] == f"{base(event)}jobs/{job.pk}/"
    listing = client.get(base(event)).content.decode()
    assert "Round generation in progress" in listing


def test_the_checker_reads_a_round_in_fixed_queries(django_assert_num_queries: Any) -> None:
    event = make_event()
    boss = make_director(event)
    make_field(event, 7)
    first = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=first, actor=boss)
    settle_round(first, boss)
    round_status.close_round(round=first, actor=boss)
    second = Round.objects.select_related("event").get(
        pk=round_generation.generate_round(event=event, actor=boss).pk
    )
    with django_assert_num_queries(7):
        assert selectors.check_round_record(second) == []


def test_the_review_page_explains_the_round() -> None:
    event = make_event()
    client, boss = director_client(event)
    make_field(event, 4)
    rnd = round_generation.generate_round(event=event, actor=boss)
    body = client.get(f"{base(event)}1/").content.decode()
    assert "Paired from this order" in body and "First lead by lot:" in body
    leader = rnd.matches.get(table__number=1).explanation["first_leader"]["player"]
    assert Player.objects.get(pk=leader).name in body


def test_an_are_you_sure_page_reloaded_later_goes_back_to_its_page_not_a_405() -> None:
    """The "Are you sure?" pages live at their action's address (a POST); opened again with a
    GET (from the history, a reload after the back button), that address goes back to the page
    the action belongs to, and does nothing."""
    event = make_event()
    client, boss = director_client(event)
    make_field(event, 6)
    first = round_generation.generate_round(event=event, actor=boss)
    url = f"{base(event)}1/"
    asked = client.post(url + "publish/")
    assert asked.status_code == 200 and "Publish round 1?" in asked.content.decode()
    for action in ("publish/", "close/", "start/", "clock/start/"):
        again = client.get(url + action)
        assert again.status_code == 302 and again["Location"] == url, action
    first.refresh_from_db()
    assert first.status == Round.Status.DRAFT  # nothing was done
    entry = first.matches.first().entry_a_id
    director = f"/director/events/{event.slug}/"
    assert client.get(f"{director}finish/")["Location"] == director
    back = client.get(f"{director}entries/{entry}/withdraw/")
    assert back.status_code == 302 and back["Location"] == f"{director}entries/{entry}/"
    # A stranger is sent to the page too, which refuses them as before.
    stranger = Client()
    sent = stranger.get(url + "publish/")
    assert sent.status_code == 302 and sent["Location"] == url
    assert stranger.get(url).status_code in (302, 403, 404)
