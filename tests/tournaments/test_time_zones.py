"""An event's time zone (issue 18): every time a person reads is in it and labelled.

The instants below are chosen around America/Chicago's rules: 6 hours behind UTC in December
(CST), 5 in summer (CDT), clocks forward at 02:00 on Sunday 8 March 2026. One instant is after
midnight in UTC but still the evening before in Chicago. Runs on SQLite, and on PostgreSQL with
``DATABASE_URL`` set (as CI runs it).
"""

from __future__ import annotations

import csv
import datetime
import io
import zoneinfo
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import make_director, make_entry, make_event
from tournaments import time_zones
from tournaments.errors import ValidationFailed
from tournaments.models import Entry, Event, Round
from tournaments.presenters.table import clock_payload
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services

UTC = datetime.UTC
CHICAGO = zoneinfo.ZoneInfo("America/Chicago")
# 03:30 UTC on the 6th is 21:30 CST on the 5th: the date differs between UTC and the zone.
LATE_EVENING = datetime.datetime(2026, 12, 6, 3, 30, 15, tzinfo=UTC)
# 01:30 CST, half an hour before the clocks go forward; 03:30 CDT, an hour and a half after.
BEFORE_DST = datetime.datetime(2026, 3, 8, 7, 30, tzinfo=UTC)
AFTER_DST = datetime.datetime(2026, 3, 8, 8, 30, tzinfo=UTC)


def test_a_time_is_shown_in_the_active_zone_with_its_label() -> None:
    with translation.override("en"), timezone.override(CHICAGO):
        assert time_zones.label(LATE_EVENING) == "21:30 CST"
        assert time_zones.label(LATE_EVENING, "datetime") == "5 Dec 2026 21:30 CST"
        assert time_zones.label(LATE_EVENING, "seconds") == "21:30:15 CST"
        assert time_zones.label(BEFORE_DST) == "01:30 CST"
        assert time_zones.label(AFTER_DST) == "03:30 CDT"
    with translation.override("en"), timezone.override(zoneinfo.ZoneInfo("UTC")):
        assert time_zones.label(LATE_EVENING, "datetime") == "6 Dec 2026 03:30 UTC"
    with translation.override("es"), timezone.override(CHICAGO):  # the month in the language
        assert time_zones.label(LATE_EVENING, "datetime") == "5 Dic 2026 21:30 CST"
    with timezone.override(zoneinfo.ZoneInfo("Asia/Kathmandu")):
        assert time_zones.label(LATE_EVENING) == "09:15 UTC+05:45"
    assert time_zones.label(None) == ""


def test_csv_times_are_iso_with_the_zone_offset() -> None:
    assert time_zones.iso_in(LATE_EVENING, CHICAGO) == "2026-12-05T21:30:15-06:00"
    assert time_zones.iso_in(AFTER_DST, CHICAGO) == "2026-03-08T03:30:00-05:00"
    assert time_zones.iso_in(None, CHICAGO) == ""


def test_zone_names_are_read_forgivingly_and_checked() -> None:
    assert time_zones.canonical("america/chicago") == "America/Chicago"
    assert time_zones.canonical("America/New York") == "America/New_York"
    assert time_zones.canonical("Mars/Olympus") is None
    assert time_zones.canonical("localtime") is None
    assert time_zones.is_valid("America/Chicago") and not time_zones.is_valid("america/chicago")
    assert not time_zones.is_valid(None)
    offered = time_zones.offered()
    assert offered[0] == "UTC" and "America/Chicago" in offered and "US/Central" not in offered
    # An event whose zone this machine does not know reads in UTC rather than failing.
    assert str(time_zones.zone_of(Event(time_zone="Nowhere/Else"))) == "UTC"


@pytest.mark.django_db
def test_the_service_refuses_an_unknown_zone_and_keeps_a_known_one() -> None:
    event = make_event("zones", time_zone="America/Chicago")
    boss = make_director(event, "zelda")
    with pytest.raises(ValidationFailed) as refused:
        event_services.update_event(actor=boss, event=event, time_zone="Chicago")
    assert refused.value.code == "invalid_time_zone"
    assert refused.value.details["field"] == "time_zone"
    assert "did you mean America/Chicago?" in refused.value.message
    with pytest.raises(ValidationFailed) as refused:
        event_services.update_event(actor=boss, event=event, time_zone="Central Time")
    assert "choose one from the list" in refused.value.message
    assert Event.objects.get(pk=event.pk).time_zone == "America/Chicago"
    event_services.update_event(actor=boss, event=event, time_zone="Europe/Madrid")
    assert Event.objects.get(pk=event.pk).time_zone == "Europe/Madrid"


@pytest.mark.django_db
def test_the_settings_form_offers_zones_and_says_what_to_fix() -> None:
    event = event_services.create_event(
        actor=(boss := make_director(make_event("other"), "zoe")),
        name="Chicago Fives",
        start_date=datetime.date(2026, 12, 5),
        end_date=datetime.date(2026, 12, 5),
    )
    client = Client()
    client.force_login(boss)
    url = reverse("director:event-edit", args=[event.slug])
    page = client.get(url).content.decode()
    assert 'list="time-zone-names"' in page and '<option value="America/Chicago">' in page
    form = _settings_of(client, url)
    form.update(time_zone="Chicago", venue="The Hall")
    answer = client.post(url, form)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "Unknown time zone" in html and "did you mean America/Chicago?" in html
    assert 'value="Chicago"' in html and 'value="The Hall"' in html  # nothing typed is lost
    assert Event.objects.get(pk=event.pk).time_zone == "UTC"
    form.update(time_zone="america/chicago")
    assert client.post(url, form).status_code == 302
    assert Event.objects.get(pk=event.pk).time_zone == "America/Chicago"


def _settings_of(client: Client, url: str) -> dict[str, Any]:
    """The settings form's current values, as a browser would send them back."""
    form = client.get(url).context["form"]
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value
    return data


@pytest.fixture
def chicago() -> tuple[Event, Client]:
    event = make_event("chicago-open", time_zone="America/Chicago")
    client = Client()
    client.force_login(make_director(event, "carla"))
    return event, client


@pytest.mark.django_db
def test_the_entry_page_and_the_csv_show_check_in_times_in_the_zone(
    chicago: tuple[Event, Client],
) -> None:
    event, client = chicago
    evening = make_entry(event, "Night Owls", status=Entry.Status.CHECKED_IN)
    spring = make_entry(event, "Early Birds", status=Entry.Status.CHECKED_IN)
    Entry.objects.filter(pk=evening.pk).update(checked_in_at=LATE_EVENING)
    Entry.objects.filter(pk=spring.pk).update(checked_in_at=AFTER_DST, checked_in_by_self=True)
    page = client.get(reverse("director:entry", args=[event.slug, evening.pk])).content.decode()
    assert "checked in at the desk at 5 Dec 2026 21:30 CST" in page
    page = client.get(reverse("director:entry", args=[event.slug, spring.pk])).content.decode()
    assert "checked in by themselves at 8 Mar 2026 03:30 CDT" in page

    answer = client.get(reverse("director:entries-csv", args=[event.slug]))
    assert answer["Content-Type"].startswith("text/csv")
    rows = {r["name"]: r for r in csv.DictReader(io.StringIO(answer.content.decode()))}
    assert rows["Night Owls"]["checked_in_at"] == "2026-12-05T21:30:15-06:00"
    assert rows["Night Owls"]["checked_in_by"] == "desk"
    assert rows["Early Birds"]["checked_in_at"] == "2026-03-08T03:30:00-05:00"
    assert rows["Early Birds"]["checked_in_by"] == "self"
    registered = datetime.datetime.fromisoformat(rows["Night Owls"]["registered_at"])
    assert registered.utcoffset() in (datetime.timedelta(hours=-6), datetime.timedelta(hours=-5))


@pytest.mark.django_db
def test_the_desk_and_the_audit_log_read_in_the_zone(
    chicago: tuple[Event, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    event, client = chicago
    entry = make_entry(event, "Aces", status=Entry.Status.REGISTERED)
    monkeypatch.setattr(timezone, "now", lambda: LATE_EVENING)  # the audit entry's instant
    entry_services.check_in_entry(actor=None, entry=entry)
    monkeypatch.undo()
    Round.objects.create(
        event=event, number=1, status=Round.Status.PUBLISHED, published_at=BEFORE_DST
    )
    desk = client.get(reverse("director:event", args=[event.slug])).content.decode()
    assert 'Published <time datetime="2026-03-08T01:30:00-06:00">01:30 CST</time>' in desk
    audit = client.get(reverse("director:audit", args=[event.slug])).content.decode()
    assert "5 Dec 2026 21:30:15 CST" in audit
    # The zone is the request's only: the next request, and this thread, are back in UTC.
    assert timezone.get_current_timezone_name() == "UTC"


@pytest.mark.django_db
def test_the_round_clock_reads_in_the_zone_and_its_json_is_an_instant(
    chicago: tuple[Event, Client],
) -> None:
    event, client = chicago
    ends = timezone.now() + datetime.timedelta(minutes=30)
    Round.objects.create(
        event=event,
        number=1,
        status=Round.Status.IN_PLAY,
        published_at=timezone.now(),
        clock_started_at=timezone.now(),
        clock_ends_at=ends,
    )
    page = client.get(reverse("director:round", args=[event.slug, 1])).content.decode()
    local = ends.astimezone(CHICAGO)
    assert f"{local:%H:%M} {local.tzname()}</time>" in page
    payload = clock_payload(Round.objects.get(event=event, number=1))
    instant = datetime.datetime.fromisoformat(payload["ends_at"])
    assert instant.utcoffset() == datetime.timedelta(0) and instant == ends


@pytest.mark.django_db
def test_the_demo_event_has_its_own_zone() -> None:
    from tournaments.management.commands import demo

    assert time_zones.is_valid(demo.TIME_ZONE) and demo.TIME_ZONE != "UTC"
    event = demo.build_event(demo.ensure_users())
    assert event.time_zone == demo.TIME_ZONE
