"""Issue 30's desk: the event reads "Running" while rounds are played, the "Next:" buttons do
the step (asking first where it must), and the projector shows the podium once it is finished."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.tournaments.finish_support import play_bracket, seeded_event
from tests.tournaments.rounds_factory import make_director, make_event, make_field, settle_round
from tournaments.models import AuditEntry, Event, Round
from tournaments.services import finish, round_generation, round_status

pytestmark = pytest.mark.django_db


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _form_action(html: str, button: str) -> str:
    """The action of the form holding the submit button labelled ``button``."""
    for form in re.findall(r"<form\b.*?</form>", html, flags=re.S):
        if button in _text(form) and re.search(r"<button[^>]*>\s*" + re.escape(button), form):
            found = re.search(r'action="([^"]+)"', form)
            assert found is not None
            return found.group(1)
    raise AssertionError(f"no form with the button {button!r}")


def test_publishing_round_one_makes_an_open_event_running_and_a_draft_stays_a_draft() -> None:
    event = make_event(status=Event.Status.REGISTRATION)
    boss = make_director(event)
    make_field(event, 4)
    rnd = round_generation.generate_round(event=event, actor=boss)
    event.refresh_from_db()
    assert event.status == Event.Status.REGISTRATION  # a draft round is not yet play
    round_status.publish_round(round=rnd, actor=boss)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    change = AuditEntry.objects.filter(event=event, action="event.update").latest("pk")
    assert change.after == {"status": "running"} and "running" in change.reason
    assert "Running" in _text(_client(boss).get(f"/events/{event.slug}/").content.decode())

    hidden = make_event("hidden", status=Event.Status.DRAFT)
    make_field(hidden, 4)
    draft = round_generation.generate_round(event=hidden, actor=boss)
    round_status.publish_round(round=draft, actor=boss)
    hidden.refresh_from_db()
    assert hidden.status == Event.Status.DRAFT


def test_the_next_buttons_do_the_step_and_close_asks_first_then_generates(
    django_capture_on_commit_callbacks: Any,
) -> None:
    event = make_event(swiss_rounds=3)
    boss = make_director(event)
    make_field(event, 8)
    client = _client(boss)
    desk = f"/director/events/{event.slug}/"
    html = client.get(desk).content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the job runs after its commit
        job = client.post(_form_action(html, "Next: generate round 1"))
    generated = client.get(job["Location"], follow=True)
    assert "Publish round 1" in generated.content.decode()
    rnd = Round.objects.get(event=event, number=1)
    round_status.publish_round(round=rnd, actor=boss)
    started = client.post(_form_action(client.get(desk).content.decode(), "Next: start the clock"))
    assert started.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.IN_PLAY
    settle_round(rnd, boss)

    close = _form_action(client.get(desk).content.decode(), "Next: close round 1")
    asked = client.post(close).content.decode()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.IN_PLAY  # it asks first
    assert "Yes, close round 1 and generate round 2" in asked and "Yes, close round 1" in asked
    with django_capture_on_commit_callbacks(execute=True):
        job = client.post(close, {"confirm": "yes", "then": "generate"})
    done = client.get(job["Location"], follow=True)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    assert Round.objects.get(event=event, number=2).status == Round.Status.DRAFT
    assert "Publish round 2" in done.content.decode()


def test_the_last_swiss_round_does_not_offer_to_generate_another() -> None:
    event = make_event(swiss_rounds=1)
    boss = make_director(event)
    make_field(event, 4)
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    settle_round(rnd, boss)
    url = f"/director/events/{event.slug}/rounds/1/close/"
    asked = _client(boss).post(url).content.decode()
    assert "Yes, close round 1" in asked and "and generate round 2" not in asked


def test_the_projector_shows_the_podium_once_the_event_is_finished() -> None:
    event, boss, _ = seeded_event("wall", field=8, qualifiers=4)
    client = _client(boss)
    url = f"/events/{event.slug}/projector/"
    assert "Final placings" not in client.get(url).content.decode()
    play_bracket(event, boss)
    for rnd in event.rounds.exclude(status=Round.Status.CLOSED).order_by("number"):
        round_status.close_round(round=rnd, actor=boss)
    finish.finish_event(event=event, actor=boss)
    event.refresh_from_db()
    html = client.get(url).content.decode()
    assert event.placings is not None
    champion = event.placings[0]["name"]
    assert "Final placings" in html
    found = re.search(r'data-testid="champion">.*?class="name">([^<]+)<', html, flags=re.S)
    assert found is not None and unescape(found.group(1)) == champion


def test_asking_to_close_with_results_missing_goes_to_them_and_says_why() -> None:
    """With tables still playing, "Close round 1" does not ask "Yes, close round 1 and generate
    round 2" (to refuse after): it says why it cannot close and opens the missing results."""
    event = make_event(swiss_rounds=2)
    boss = make_director(event)
    make_field(event, 4)
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    url = f"/director/events/{event.slug}/rounds/1/close/"
    asked = _client(boss).post(url, follow=True)
    page = asked.content.decode()
    assert (
        asked.redirect_chain[-1][0]
        == f"/director/events/{event.slug}/rounds/1/results/?state=missing"
    )
    assert "still has matches without a confirmed result" in page
    assert "Yes, close round 1" not in page
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
