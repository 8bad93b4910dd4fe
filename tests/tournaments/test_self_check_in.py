"""Self check-in's service (issue 18): the entries' codes, the day's code, the window (off, open,
closed once round 1 is generated), the throttle, the audit, and that nothing but check-in
changes."""

from __future__ import annotations

import doctest
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.factories import make_entry, make_event
from tests.tournaments.api_support import private_cache
from tests.tournaments.rounds_factory import make_field
from tournaments import check_in_codes, time_zones
from tournaments.errors import SpinnerError
from tournaments.models import AuditEntry, Entry, Event
from tournaments.selectors import check_in as check_in_reads
from tournaments.selectors import registration as registration_reads
from tournaments.services import entries as entry_services
from tournaments.services import round_generation, self_check_in
from tournaments.services.entries import PlayerSpec

pytestmark = pytest.mark.django_db

HALL = "192.0.2.10"


@pytest.fixture(autouse=True)
def _own_cache(settings: Any) -> Iterator[None]:
    with private_cache(settings):  # throttle counters start at zero
        yield


@pytest.fixture
def boss() -> User:
    return User.objects.create_user("desk-dana")


@pytest.fixture
def event(boss: User) -> Event:
    event = make_event("self-in", status=Event.Status.REGISTRATION)
    event.directors.add(boss)
    self_check_in.set_self_check_in(actor=boss, event=event, enabled=True)
    return Event.objects.get(pk=event.pk)


def register(event: Event, boss: User, a: str, b: str, **kwargs: Any) -> Entry:
    return entry_services.register_entry(
        actor=boss, event=event, players=[PlayerSpec(a, "Club"), PlayerSpec(b, "Club")], **kwargs
    )


def refused(call: Any) -> SpinnerError:
    with pytest.raises(SpinnerError) as caught:
        call()
    return caught.value


def test_the_code_modules_doctests_pass() -> None:
    for module in (check_in_codes, time_zones):
        assert doctest.testmod(module).failed == 0


def test_registration_gives_each_entry_a_short_unambiguous_code(event: Event, boss: User) -> None:
    codes = [register(event, boss, f"Ann {i}", f"Bob {i}").check_in_code for i in range(30)]
    assert all(len(c) == 6 and set(c) <= set(check_in_codes.ALPHABET) for c in codes)
    assert not set("".join(codes)) & set("0O1IL2Z5S8BGDQ")  # no look-alikes
    assert len(set(codes)) == len(codes)


def test_turning_it_on_gives_codes_to_older_entries_once(boss: User) -> None:
    event = make_event("older", status=Event.Status.REGISTRATION)
    old = make_entry(event, "Old Timers")  # written before codes existed: none
    assert old.check_in_code == ""
    self_check_in.set_self_check_in(actor=boss, event=event, enabled=True)
    old.refresh_from_db()
    assert len(old.check_in_code) == 6
    self_check_in.set_self_check_in(actor=boss, event=event, enabled=True)  # no change
    audits = AuditEntry.objects.filter(event=event, action="event.self_check_in")
    assert [a.after for a in audits] == [{"self_check_in": True, "codes_given": 1}]


def _others(entry: Entry) -> dict[str, Any]:
    """Every field of the entry but the three check-in may change."""
    skip = {"status", "checked_in_at", "checked_in_by_self"}
    return {f.attname: getattr(entry, f.attname) for f in Entry._meta.concrete_fields} | {
        k: None for k in skip
    }


def test_a_player_checks_in_with_the_entry_code_and_nothing_else_changes(
    event: Event, boss: User
) -> None:
    entry = register(event, boss, "Ann Lee", "Bob Ray", seed=3)
    entry_services.pin_table(actor=boss, entry=entry, table=4)
    before = _others(Entry.objects.get(pk=entry.pk))
    typed = entry.check_in_code.lower()[:3] + " - " + entry.check_in_code[3:].lower()
    done = self_check_in.check_in_self(event=event, entry_id=entry.pk, code=typed, address=HALL)
    assert (done.already, done.via) == (False, "entry_code")
    fresh = Entry.objects.get(pk=entry.pk)
    assert fresh.status == Entry.Status.CHECKED_IN and fresh.checked_in_by_self
    assert fresh.checked_in_at is not None and _others(fresh) == before
    audit = AuditEntry.objects.get(event=event, action="entry.self_check_in")
    assert audit.actor is None and audit.after["by"] == "Self check-in (entry_code)"
    assert audit.after["checked_in_by_self"] is True
    assert registration_reads.count_entries(event).self_checked_in == 1

    again = self_check_in.check_in_self(event=event, entry_id=entry.pk, code=typed, address=HALL)
    assert again.already and Entry.objects.get(pk=entry.pk).checked_in_at == fresh.checked_in_at
    assert AuditEntry.objects.filter(action="entry.self_check_in").count() == 1


def test_an_entry_the_desk_checked_in_is_already_in_not_an_error(event: Event, boss: User) -> None:
    entry = register(event, boss, "Ann Lee", "Bob Ray")
    entry_services.check_in_entry(actor=boss, entry=entry)
    done = self_check_in.check_in_self(
        event=event, entry_id=entry.pk, code=entry.check_in_code, address=HALL
    )
    assert done.already and not Entry.objects.get(pk=entry.pk).checked_in_by_self


def test_the_day_code_checks_in_any_entry_and_is_never_logged(event: Event, boss: User) -> None:
    entry = register(event, boss, "Cy Dee", "Di Eve")
    assert refused(
        lambda: self_check_in.set_day_code(actor=boss, event=event, code="ab-1")
    ).code == ("invalid_day_code")
    assert refused(
        lambda: self_check_in.set_day_code(actor=boss, event=event, code="¡¿!")
    ).code == ("invalid_day_code")
    event = self_check_in.set_day_code(actor=boss, event=event, code="dominoes 26")
    assert event.check_in_day_code == "DOMINOES26"
    done = self_check_in.check_in_self(
        event=event, entry_id=entry.pk, code="Dominoes-26", address=HALL
    )
    assert done.via == "day_code" and not done.already
    logged = json.dumps([a.after for a in AuditEntry.objects.filter(event=event)])
    assert "DOMINOES26" not in logged and '"day_code": "typed"' in logged

    drawn = self_check_in.set_day_code(actor=boss, event=event).check_in_day_code
    assert len(drawn) == 6 and drawn != "DOMINOES26"
    other = register(event, boss, "Ed Fay", "Flo Gee")
    self_check_in.clear_day_code(actor=boss, event=event)
    assert refused(
        lambda: self_check_in.check_in_self(
            event=event, entry_id=other.pk, code=drawn, address=HALL
        )
    ).code == ("check_in_code_wrong")


def test_a_wrong_or_missing_code_changes_nothing_and_the_wrong_one_is_audited(
    event: Event, boss: User
) -> None:
    entry = register(event, boss, "Ann Lee", "Bob Ray")
    wrong = "".join(reversed(entry.check_in_code))
    if wrong == entry.check_in_code:
        wrong = "AAAAAA"
    error = refused(
        lambda: self_check_in.check_in_self(
            event=event, entry_id=entry.pk, code=wrong, address=HALL
        )
    )
    assert error.code == "check_in_code_wrong" and error.status == 400
    assert refused(
        lambda: self_check_in.check_in_self(event=event, entry_id=entry.pk, code=" -", address=HALL)
    ).code == ("check_in_code_required")
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED
    audit = AuditEntry.objects.get(event=event, action="entry.self_check_in_refused")
    assert audit.object_id == str(entry.pk) and audit.after["why"] == "wrong_code"


def test_an_entry_without_a_code_never_matches_an_empty_one(boss: User) -> None:
    event = make_event("no-codes", status=Event.Status.REGISTRATION, self_check_in=True)
    bare = make_entry(event, "Bare")  # no code, and the event has no day code
    assert refused(
        lambda: self_check_in.check_in_self(event=event, entry_id=bare.pk, code="", address=HALL)
    ).code == ("check_in_code_required")
    assert refused(
        lambda: self_check_in.check_in_self(
            event=event, entry_id=bare.pk, code="ACEFHJ", address=HALL
        )
    ).code == ("check_in_code_wrong")


def test_off_withdrawn_and_unknown_entries_are_refused(event: Event, boss: User) -> None:
    entry = register(event, boss, "Ann Lee", "Bob Ray")
    gone = register(event, boss, "Cy Dee", "Di Eve")
    entry_services.withdraw_entry(actor=boss, entry=gone)
    assert refused(
        lambda: self_check_in.check_in_self(
            event=event, entry_id=gone.pk, code=gone.check_in_code, address=HALL
        )
    ).code == ("entry_withdrawn")
    assert refused(
        lambda: self_check_in.check_in_self(event=event, entry_id=0, code="ACEFHJ", address=HALL)
    ).code == ("entry_not_found")
    event = self_check_in.set_self_check_in(actor=boss, event=event, enabled=False)
    assert refused(
        lambda: self_check_in.check_in_self(
            event=event, entry_id=entry.pk, code=entry.check_in_code, address=HALL
        )
    ).code == ("self_check_in_off")
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED


def test_the_window_closes_when_round_1_is_generated(event: Event, boss: User) -> None:
    late = register(event, boss, "Late Lou", "Slow Sam")
    make_field(event, 4)  # checked in at the desk
    round_generation.generate_round(event=event, actor=boss)  # a draft: generated, not published
    error = refused(
        lambda: self_check_in.check_in_self(
            event=event, entry_id=late.pk, code=late.check_in_code, address=HALL
        )
    )
    assert error.code == "self_check_in_closed" and error.status == 409
    assert Entry.objects.get(pk=late.pk).status == Entry.Status.REGISTERED


def test_a_finished_event_is_closed(boss: User) -> None:
    event = make_event("done", status=Event.Status.FINISHED, self_check_in=True)
    entry = make_entry(event, "After", check_in_code="ACEFHJ")
    assert refused(
        lambda: self_check_in.check_in_self(
            event=event, entry_id=entry.pk, code="ACEFHJ", address=HALL
        )
    ).code == ("self_check_in_closed")


def test_tries_are_throttled_per_entry(event: Event, boss: User, settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "self_check_in_entry": "3/hour",
        },
    }
    target = register(event, boss, "Ann Lee", "Bob Ray")
    other = register(event, boss, "Cy Dee", "Di Eve")
    for n in range(3):
        address = f"198.51.100.{n}"  # from three phones: the entry's own count still adds up
        assert refused(
            lambda address=address: self_check_in.check_in_self(
                event=event, entry_id=target.pk, code="AAAAAA", address=address
            )
        ).code == ("check_in_code_wrong")
    error = refused(
        lambda: self_check_in.check_in_self(
            event=event, entry_id=target.pk, code=target.check_in_code, address=HALL
        )
    )
    assert error.code == "throttled" and error.status == 429
    assert error.details["scope"] == "self_check_in_entry" and error.details["retry_after"] >= 1
    assert Entry.objects.get(pk=target.pk).status == Entry.Status.REGISTERED
    done = self_check_in.check_in_self(
        event=event, entry_id=other.pk, code=other.check_in_code, address=HALL
    )
    assert not done.already
    # Throttled tries are not audited: only the three wrong codes are.
    assert AuditEntry.objects.filter(action="entry.self_check_in_refused").count() == 3


def test_tries_are_throttled_per_address(event: Event, boss: User, settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "self_check_in": "2/min",
        },
    }
    a, b, c = (register(event, boss, f"A{i}", f"B{i}") for i in range(3))
    for entry in (a, b):
        self_check_in.check_in_self(
            event=event, entry_id=entry.pk, code=entry.check_in_code, address=HALL
        )
    error = refused(
        lambda: self_check_in.check_in_self(
            event=event, entry_id=c.pk, code=c.check_in_code, address=HALL
        )
    )
    assert error.code == "throttled" and error.details["scope"] == "self_check_in"
    self_check_in.check_in_self(
        event=event, entry_id=c.pk, code=c.check_in_code, address="203.0.113.5"
    )
    assert Entry.objects.get(pk=c.pk).checked_in_by_self


def test_the_desk_check_in_and_its_undo_are_not_self(event: Event, boss: User) -> None:
    entry = register(event, boss, "Ann Lee", "Bob Ray")
    self_check_in.check_in_self(
        event=event, entry_id=entry.pk, code=entry.check_in_code, address=HALL
    )
    entry_services.undo_check_in(actor=boss, entry=entry)
    assert not Entry.objects.get(pk=entry.pk).checked_in_by_self
    entry_services.check_in_entry(actor=boss, entry=entry)
    fresh = Entry.objects.get(pk=entry.pk)
    assert fresh.status == Entry.Status.CHECKED_IN and not fresh.checked_in_by_self
    assert AuditEntry.objects.filter(event=event, action="entry.check_in").count() == 1


def test_the_day_code_setting_is_the_directors_and_audited(event: Event, boss: User) -> None:
    self_check_in.set_day_code(actor=boss, event=event)
    self_check_in.clear_day_code(actor=boss, event=event)
    self_check_in.clear_day_code(actor=boss, event=event)  # nothing to clear: no entry
    kinds = [
        a.after["day_code"]
        for a in AuditEntry.objects.filter(event=event, action="event.check_in_day_code").order_by(
            "pk"
        )
    ]
    assert kinds == ["drawn", "cleared"]


def test_the_check_in_reads_use_a_fixed_number_of_queries(
    event: Event, boss: User, django_assert_num_queries: Any
) -> None:
    entries = [register(event, boss, f"Ana {i}", f"Bea {i}") for i in range(12)]
    with django_assert_num_queries(1):
        assert check_in_reads.window(event) == "open"
    with django_assert_num_queries(1):
        found = check_in_reads.find_entries(event, "ana")
    assert len(found) == check_in_reads.MAX_FOUND and all(len(f.players) == 2 for f in found)
    with django_assert_num_queries(1):
        one = check_in_reads.check_in_entry(event, entries[3].pk)
    assert one is not None and one.players == ("Ana 3", "Bea 3")
    with django_assert_num_queries(1):
        assert registration_reads.count_entries(event).total == 12
