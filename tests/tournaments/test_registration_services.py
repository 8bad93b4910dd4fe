"""Every step of the registration workflow through its service, errors checked by ``code``."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User

from tournaments.errors import Conflict, NotFound, SpinnerError, ValidationFailed
from tournaments.models import AuditEntry, Entry, EntryPlayer, Event, Partnership, Player, Round
from tournaments.services import entries
from tournaments.services import events as event_services
from tournaments.services.entries import PlayerSpec

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)


@pytest.fixture
def director() -> User:
    return User.objects.create_user("dora", password="pw")


@pytest.fixture
def event(director: User) -> Event:
    return event_services.create_event(
        actor=director, name="Winter Open", start_date=DAY, end_date=DAY, venue="Hall"
    )


@pytest.fixture
def single_event(director: User) -> Event:
    return event_services.create_event(
        actor=director,
        name="Heads Up",
        start_date=DAY,
        end_date=DAY,
        entry_kind=Event.EntryKind.SINGLE,
    )


def code_of(call: Any, **kwargs: Any) -> str:
    with pytest.raises(SpinnerError) as info:
        call(**kwargs)
    return info.value.code


def pair(a: str, b: str, club: str = "Fives Club") -> list[PlayerSpec]:
    return [PlayerSpec(a, club), PlayerSpec(b, club)]


def actions(event: Event) -> list[str]:
    return list(
        AuditEntry.objects.filter(event=event).order_by("pk").values_list("action", flat=True)
    )


# --- events ------------------------------------------------------------------------------------


def test_create_event_makes_the_creator_a_director_draws_a_salt_and_audits(
    director: User, event: Event
) -> None:
    assert event.slug == "winter-open"
    assert list(event.directors.all()) == [director]
    assert len(event.salt) == 32
    entry = AuditEntry.objects.get(event=event)
    assert (entry.action, entry.actor, entry.object_id) == ("event.create", director, str(event.pk))
    assert entry.after["salt"] == event.salt


def test_create_event_makes_slugs_unique_and_refuses_a_taken_explicit_slug(
    director: User, event: Event
) -> None:
    again = event_services.create_event(
        actor=director, name="Winter Open", start_date=DAY, end_date=DAY
    )
    assert again.slug == "winter-open-2"
    assert (
        code_of(
            event_services.create_event,
            actor=director,
            name="Other",
            start_date=DAY,
            end_date=DAY,
            slug="winter-open",
        )
        == "slug_taken"
    )
    assert (
        code_of(
            event_services.create_event,
            actor=director,
            name="Other",
            start_date=DAY,
            end_date=DAY,
            slug="Not A Slug",
        )
        == "invalid_slug"
    )


@pytest.mark.parametrize(
    ("settings", "code", "field"),
    [
        ({"tiebreaks": ["spread", "coin_toss"]}, "unknown_tiebreak", "tiebreaks"),
        ({"tiebreaks": ["spread", "spread"]}, "duplicate_tiebreak", "tiebreaks"),
        ({"end_date": DAY - datetime.timedelta(days=1)}, "dates_out_of_order", "end_date"),
        ({"target": 0}, "invalid_target", "target"),
        ({"hand_size": 8}, "hand_size_too_large", "hand_size"),
        ({"hand_size": 15}, "invalid_hand_size", "hand_size"),
        ({"rules": "poker"}, "invalid_choice", "rules"),
        ({"name": "  "}, "name_required", "name"),
        ({"points_draw": 3}, "points_out_of_order", "points_draw"),
        ({"swiss_rounds": 0}, "invalid_number", "swiss_rounds"),
        ({"margin_bonus_points": 1}, "margin_bonus_needs_margin", "margin_bonus_at"),
        ({"playoff": "single", "playoff_qualifiers": 1}, "invalid_number", "playoff_qualifiers"),
    ],
)
def test_create_event_validates_settings(
    director: User, settings: dict[str, Any], code: str, field: str
) -> None:
    kwargs: dict[str, Any] = {"name": "Bad", "start_date": DAY, "end_date": DAY, **settings}
    with pytest.raises(ValidationFailed) as info:
        event_services.create_event(actor=director, **kwargs)
    assert info.value.code == code
    assert info.value.details["field"] == field
    assert field in info.value.details["errors"]
    assert not Event.objects.exists()


def test_eight_tiles_fit_head_to_head_but_not_four_players(director: User) -> None:
    ok = event_services.create_event(
        actor=director,
        name="Big hands",
        start_date=DAY,
        end_date=DAY,
        entry_kind=Event.EntryKind.SINGLE,
        hand_size=9,
        tiebreaks=list(event_services.TIEBREAKS),
    )
    assert ok.hand_size == 9
    assert ok.tiebreaks == list(event_services.TIEBREAKS)


def test_update_event_audits_only_what_changed(director: User, event: Event) -> None:
    updated = event_services.update_event(
        actor=director,
        event=event,
        target=250,
        tiebreaks=["buchholz", "spread"],
        venue="Hall",
        reason="announced",
    )
    assert (updated.target, updated.tiebreaks) == (250, ["buchholz", "spread"])
    log = AuditEntry.objects.filter(event=event, action="event.update").get()
    assert log.before == {"target": None, "tiebreaks": ["buchholz", "spread", "points_for"]}
    assert log.after == {"target": 250, "tiebreaks": ["buchholz", "spread"]}
    assert log.reason == "announced"
    event_services.update_event(actor=director, event=event, target=250)
    assert AuditEntry.objects.filter(event=event, action="event.update").count() == 1


def test_update_event_validates_and_locks_rules_once_rounds_exist(
    director: User, event: Event
) -> None:
    assert (
        code_of(event_services.update_event, actor=director, event=event, tiebreaks=["luck"])
        == "unknown_tiebreak"
    )
    entries.register_entry(actor=director, event=event, players=pair("Ann", "Bob"))
    assert (
        code_of(
            event_services.update_event,
            actor=director,
            event=event,
            entry_kind=Event.EntryKind.SINGLE,
        )
        == "entries_exist"
    )
    Round.objects.create(event=event, number=1)
    assert (
        code_of(event_services.update_event, actor=director, event=event, target=200)
        == "locked_after_start"
    )
    # Other settings may still change (with the audit log to show it).
    event_services.update_event(actor=director, event=event, public_listing=True)
    event.refresh_from_db()
    assert event.public_listing is True and event.target is None


def test_add_director(director: User, event: Event) -> None:
    User.objects.create_user("vic")
    vic = event_services.add_director(actor=director, event=event, username=" vic ")
    assert event.directors.filter(pk=vic.pk).exists()
    assert actions(event)[-1] == "event.add_director"
    assert code_of(event_services.add_director, actor=director, event=event, username="vic") == (
        "already_director"
    )
    with pytest.raises(NotFound) as info:
        event_services.add_director(actor=director, event=event, username="nobody")
    assert info.value.code == "user_not_found"


# --- entries -----------------------------------------------------------------------------------


def test_register_a_partnership_writes_entry_players_and_audits(
    director: User, event: Event
) -> None:
    entry = entries.register_entry(
        actor=director, event=event, players=pair("Ann Lee", "Bob Ray"), seed=3
    )
    assert entry.name == "Ann Lee & Bob Ray"
    assert entry.partnership is not None and entry.player is None
    assert entry.partnership.player_a.name == "Ann Lee"
    members = sorted(EntryPlayer.objects.filter(entry=entry).values_list("player__name", flat=True))
    assert members == ["Ann Lee", "Bob Ray"]
    assert (entry.status, entry.seed, entry.late) == (Entry.Status.REGISTERED, 3, False)
    log = AuditEntry.objects.get(event=event, action="entry.register")
    assert log.object_id == str(entry.pk) and log.after["seed"] == 3


def test_register_uses_the_team_name_and_reuses_players_by_exact_name_and_club(
    director: User, event: Event
) -> None:
    known = Player.objects.create(name="Ann Lee", club="Fives Club", rating=1500)
    entry = entries.register_entry(
        actor=director,
        event=event,
        players=[PlayerSpec("  Ann   Lee ", "Fives Club"), PlayerSpec("Ann Lee", "Other Club")],
        team_name="The Spinners",
    )
    assert entry.name == "The Spinners"
    players = [m.player for m in entry.members.order_by("pk")]
    assert players[0] == known
    assert players[1] != known and players[1].club == "Other Club"
    assert Player.objects.count() == 2


def test_a_player_cannot_play_for_two_entries_of_an_event(director: User, event: Event) -> None:
    entries.register_entry(actor=director, event=event, players=pair("Ann", "Bob"))
    with pytest.raises(Conflict) as info:
        entries.register_entry(actor=director, event=event, players=pair("Cy", "Bob"))
    assert info.value.code == "player_already_entered"
    assert "Bob" in info.value.message
    assert Entry.objects.filter(event=event).count() == 1
    # ... but may play in another event, with another partner.
    other = event_services.create_event(actor=director, name="Spring", start_date=DAY, end_date=DAY)
    entries.register_entry(actor=director, event=other, players=pair("Cy", "Bob"))


def test_registration_refuses_wrong_player_counts_and_the_same_player_twice(
    director: User, event: Event, single_event: Event
) -> None:
    ann = PlayerSpec("Ann", "X")
    assert code_of(entries.register_entry, actor=director, event=event, players=[ann]) == (
        "wrong_player_count"
    )
    assert code_of(entries.register_entry, actor=director, event=event, players=[ann, ann]) == (
        "same_player_twice"
    )
    assert (
        code_of(entries.register_entry, actor=director, event=event, players=[ann, PlayerSpec("")])
        == "player_required"
    )
    assert (
        code_of(
            entries.register_entry, actor=director, event=single_event, players=pair("Ann", "Bob")
        )
        == "wrong_player_count"
    )
    assert not Entry.objects.exists()


def test_register_a_single_player_in_a_head_to_head_event(
    director: User, single_event: Event
) -> None:
    entry = entries.register_entry(
        actor=director, event=single_event, players=[PlayerSpec("Ann", "X", rating=1700)]
    )
    assert entry.player is not None and entry.partnership is None
    assert entry.name == "Ann" and entry.player.rating == 1700
    assert entry.members.get().player == entry.player
    assert (
        code_of(entries.register_entry, actor=director, event=single_event, players=[entry.player])
        == "player_already_entered"
    )


def test_seeds_are_unique_per_event(director: User, event: Event) -> None:
    first = entries.register_entry(actor=director, event=event, players=pair("A", "B"), seed=1)
    assert (
        code_of(entries.register_entry, actor=director, event=event, players=pair("C", "D"), seed=1)
        == "seed_taken"
    )
    second = entries.register_entry(actor=director, event=event, players=pair("C", "D"))
    assert code_of(entries.set_seed, actor=director, entry=second, seed=1) == "seed_taken"
    assert code_of(entries.set_seed, actor=director, entry=second, seed=0) == "invalid_seed"
    entries.set_seed(actor=director, entry=second, seed=2)
    entries.set_seed(actor=director, entry=first, seed=None)
    entries.set_seed(actor=director, entry=second, seed=1)
    assert Entry.objects.get(pk=second.pk).seed == 1
    log = AuditEntry.objects.filter(action="entry.set_seed").order_by("pk")
    assert [(e.before, e.after) for e in log] == [
        ({"seed": None}, {"seed": 2}),
        ({"seed": 1}, {"seed": None}),
        ({"seed": 2}, {"seed": 1}),
    ]


def test_check_in_undo_withdraw_reinstate(director: User, event: Event) -> None:
    entry = entries.register_entry(actor=director, event=event, players=pair("A", "B"))
    entry = entries.check_in_entry(actor=director, entry=entry)
    assert entry.status == Entry.Status.CHECKED_IN and entry.checked_in_at is not None
    assert code_of(entries.check_in_entry, actor=director, entry=entry) == "already_checked_in"
    entry = entries.undo_check_in(actor=director, entry=entry)
    assert entry.status == Entry.Status.REGISTERED and entry.checked_in_at is None
    assert code_of(entries.undo_check_in, actor=director, entry=entry) == "not_checked_in"
    assert code_of(entries.reinstate_entry, actor=director, entry=entry) == "not_withdrawn"
    entry = entries.withdraw_entry(actor=director, entry=entry, reason="ill")
    assert entry.status == Entry.Status.WITHDRAWN and entry.withdrawn_at is not None
    assert code_of(entries.withdraw_entry, actor=director, entry=entry) == "already_withdrawn"
    assert code_of(entries.check_in_entry, actor=director, entry=entry) == "entry_withdrawn"
    entry = entries.reinstate_entry(actor=director, entry=entry)
    assert entry.status == Entry.Status.REGISTERED
    log = list(AuditEntry.objects.filter(event=event).order_by("pk"))
    assert [e.action for e in log[-4:]] == [
        "entry.check_in",
        "entry.undo_check_in",
        "entry.withdraw",
        "entry.reinstate",
    ]
    withdrawal = log[-2]
    assert withdrawal.reason == "ill"
    assert withdrawal.before["status"] == "registered"
    assert withdrawal.after["status"] == "withdrawn"


def test_late_entries_only_once_rounds_exist(director: User, event: Event) -> None:
    assert (
        code_of(entries.register_late_entry, actor=director, event=event, players=pair("A", "B"))
        == "no_rounds_yet"
    )
    Round.objects.create(event=event, number=1)
    assert (
        code_of(entries.register_entry, actor=director, event=event, players=pair("A", "B"))
        == "rounds_started"
    )
    late = entries.register_late_entry(actor=director, event=event, players=pair("A", "B"))
    assert late.late is True
    assert actions(event)[-1] == "entry.register_late"


def test_no_entries_once_the_event_is_finished(director: User, event: Event) -> None:
    event_services.update_event(actor=director, event=event, status=Event.Status.FINISHED)
    assert (
        code_of(entries.register_entry, actor=director, event=event, players=pair("A", "B"))
        == "event_finished"
    )


def test_pin_table(director: User, event: Event) -> None:
    entry = entries.register_entry(actor=director, event=event, players=pair("A", "B"))
    assert code_of(entries.pin_table, actor=director, entry=entry, table=0) == "invalid_table"
    entry = entries.pin_table(actor=director, entry=entry, table=4, reason="wheelchair")
    assert Entry.objects.get(pk=entry.pk).pinned_table == 4
    log = AuditEntry.objects.get(action="entry.pin_table")
    assert (log.before, log.after, log.reason) == (
        {"pinned_table": None},
        {"pinned_table": 4},
        "wheelchair",
    )
    entries.pin_table(actor=director, entry=entry, table=4)
    assert AuditEntry.objects.filter(action="entry.pin_table").count() == 1
    entries.pin_table(actor=director, entry=entry, table=None)
    assert Entry.objects.get(pk=entry.pk).pinned_table is None


def test_a_partnership_is_reused_when_the_same_pair_enters_another_event(
    director: User, event: Event
) -> None:
    first = entries.register_entry(actor=director, event=event, players=pair("A", "B"))
    other = event_services.create_event(actor=director, name="Spring", start_date=DAY, end_date=DAY)
    second = entries.register_entry(actor=director, event=other, players=pair("B", "A"))
    assert first.partnership_id == second.partnership_id
    assert Partnership.objects.count() == 1


def test_an_event_with_rounds_finishes_only_through_finish_and_reopening_drops_placings(
    director: User, event: Event
) -> None:
    Round.objects.create(event=event, number=1)
    assert (
        code_of(
            event_services.update_event,
            actor=director,
            event=event,
            status=Event.Status.FINISHED,
        )
        == "finish_from_the_event_page"
    )
    # A finished event (as "Finish the event" leaves it) reopened from the settings: its frozen
    # placings no longer stand, and the audit keeps them.
    Event.objects.filter(pk=event.pk).update(
        status=Event.Status.FINISHED, placings=[{"place": 1, "entry_id": 1}]
    )
    event.refresh_from_db()
    reopened = event_services.update_event(actor=director, event=event, status=Event.Status.RUNNING)
    assert reopened.placings is None and reopened.finished_at is None
    log = AuditEntry.objects.filter(action="event.update").last()
    assert log is not None and log.before["placings"] == [{"place": 1, "entry_id": 1}]
