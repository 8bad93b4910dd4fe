"""CSV import: a preview that writes nothing, per-line errors, all or nothing."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User

from tournaments.errors import Conflict, ValidationFailed
from tournaments.models import AuditEntry, Entry, EntryPlayer, Event, Partnership, Player, Round
from tournaments.services import entries as entry_services
from tournaments.services import entry_import
from tournaments.services import events as event_services
from tournaments.services.entries import PlayerSpec

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 5)

GOOD = (
    "\ufeffplayer_a,club_a,rating_a,player_b,club_b,rating_b,team,seed\r\n"
    "  Ann Lee , Brixton Fives ,1510, Bob Ray,Brixton Fives,,The Spinners, 1\r\n"
    "\r\n"
    '"Cy O\'Neil","Leeds, West",,Di Park,Leeds,1400,,\r\n'
    "Ed Fox,,,Flo Gray,,,,2\r\n"
)


@pytest.fixture
def director() -> User:
    return User.objects.create_user("dora")


@pytest.fixture
def event(director: User) -> Event:
    return event_services.create_event(
        actor=director, name="Winter Open", start_date=DAY, end_date=DAY
    )


def test_preview_reads_header_bom_whitespace_quotes_and_writes_nothing(event: Event) -> None:
    Player.objects.create(name="Ann Lee", club="Brixton Fives")
    preview = entry_import.preview_import(event=event, text=GOOD)
    assert preview.ok, preview.errors
    assert [r.line for r in preview.rows] == [2, 4, 5]
    first, second, third = preview.rows
    assert first.players == [
        PlayerSpec("Ann Lee", "Brixton Fives", 1510),
        PlayerSpec("Bob Ray", "Brixton Fives", None),
    ]
    assert (first.team_name, first.seed, first.existing) == ("The Spinners", 1, [True, False])
    assert second.players[0] == PlayerSpec("Cy O'Neil", "Leeds, West", None)
    assert (second.team_name, second.seed) == ("", None)
    assert third.seed == 2
    assert Entry.objects.count() == 0 and Player.objects.count() == 1


def test_import_creates_every_entry_and_reuses_known_players(director: User, event: Event) -> None:
    ann = Player.objects.create(name="Ann Lee", club="Brixton Fives")
    entries = entry_import.import_entries(actor=director, event=event, text=GOOD)
    assert [e.name for e in entries] == ["The Spinners", "Cy O'Neil & Di Park", "Ed Fox & Flo Gray"]
    assert entries[0].members.order_by("pk").first().player == ann  # type: ignore[union-attr]
    assert Player.objects.count() == 6
    assert EntryPlayer.objects.filter(event=event).count() == 6
    assert [e.seed for e in entries] == [1, None, 2]
    log = AuditEntry.objects.filter(event=event)
    assert log.filter(action="entry.register").count() == 3
    assert log.get(action="entries.import").after["lines"] == 3


def test_positional_columns_without_a_header(director: User, event: Event) -> None:
    text = "Ann,A,1500,Bob,A,1400,Team,1\nCy,,,Di\n"
    entries = entry_import.import_entries(actor=director, event=event, text=text)
    assert [(e.name, e.seed) for e in entries] == [("Team", 1), ("Cy & Di", None)]
    # Semicolon-separated files (spreadsheets in many locales) are read too.
    other = event_services.create_event(actor=director, name="Semi", start_date=DAY, end_date=DAY)
    entries = entry_import.import_entries(actor=director, event=other, text="Eve;E;;Fay;F\n")
    assert [e.name for e in entries] == ["Eve & Fay"]


def test_bad_rows_list_every_line_and_save_nothing(director: User, event: Event) -> None:
    entry_services.register_entry(
        actor=director,
        event=event,
        players=[PlayerSpec("Zed", "Z"), PlayerSpec("Yan", "Z")],
        seed=9,
    )
    text = "\n".join(
        [
            "player_a,club_a,rating_a,player_b,club_b,rating_b,team,seed",
            "Ann,A,1500,Bob,A,,,1",  # 2: fine
            "Cy,C,high,Di,C,,,",  # 3: rating not a number
            ",C,,Di2,C,,,",  # 4: no player_a
            "Eve,E,,Eve,E,,,",  # 5: same player twice
            "Fay,F,,Ann,A,,,",  # 6: Ann is on line 2
            "Gus,G,,Zed,Z,,,",  # 7: Zed already entered
            "Hal,H,,Ian,H,,,1",  # 8: seed 1 on line 2
            "Jo,J,,Kim,J,,,9",  # 9: seed 9 taken in the event
            "Lu,L,,Mo,L,,,0",  # 10: seed below 1
            "Ned,N,,Ola,N,,,,extra",  # 11: too many cells
        ]
    )
    preview = entry_import.preview_import(event=event, text=text)
    assert not preview.ok
    errors = {p.line: p.message for p in preview.errors}
    assert sorted(errors) == [3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert "rating_a must be a whole number" in errors[3]
    assert "player_a is empty" in errors[4]
    assert "named twice" in errors[5]
    assert "already on line 2" in errors[6]
    assert "already plays for Zed & Yan" in errors[7]
    assert "seed 1 is already on line 2" in errors[8]
    assert "seed 9 is already taken" in errors[9]
    assert "seed must be at least 1" in errors[10]
    assert "only 8 columns" in errors[11]
    players_before = Player.objects.count()
    audit_before = AuditEntry.objects.count()
    with pytest.raises(ValidationFailed) as info:
        entry_import.import_entries(actor=director, event=event, text=text)
    assert info.value.code == "import_invalid"
    assert [e["line"] for e in info.value.details["errors"]] == [3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert Entry.objects.filter(event=event).count() == 1
    assert Player.objects.count() == players_before
    assert AuditEntry.objects.count() == audit_before


def test_a_bad_header_and_an_empty_file_are_explained(event: Event) -> None:
    preview = entry_import.preview_import(event=event, text="player_a,clbu_a,player_b\nA,B,C\n")
    assert [(p.line, "unknown columns clbu_a" in p.message) for p in preview.errors] == [(1, True)]
    preview = entry_import.preview_import(event=event, text="player_a,club_a\nA,B\n")
    assert "missing columns player_b" in preview.errors[0].message
    preview = entry_import.preview_import(event=event, text="\ufeff \n\n")
    assert not preview.ok and preview.errors[0].message.startswith("No entries")


def test_a_header_in_another_order_with_fewer_columns(director: User, event: Event) -> None:
    text = "seed,player_b,player_a\n3,Bob,Ann\n"
    entries = entry_import.import_entries(actor=director, event=event, text=text)
    assert [(e.name, e.seed) for e in entries] == [("Ann & Bob", 3)]


def test_head_to_head_import(director: User) -> None:
    event = event_services.create_event(
        actor=director,
        name="Heads Up",
        start_date=DAY,
        end_date=DAY,
        entry_kind=Event.EntryKind.SINGLE,
    )
    entries = entry_import.import_entries(
        actor=director, event=event, text="player,club,rating,seed\nAnn,A,1500,1\nBob,,,\n"
    )
    assert [(e.name, e.seed, e.player.rating) for e in entries] == [  # type: ignore[union-attr]
        ("Ann", 1, 1500),
        ("Bob", None, None),
    ]
    preview = entry_import.preview_import(event=event, text="player,club\nCy,C\nCy,C\n")
    assert [(p.line, "already on line 2" in p.message) for p in preview.errors] == [(3, True)]


def test_no_import_once_rounds_exist(director: User, event: Event) -> None:
    Round.objects.create(event=event, number=1)
    with pytest.raises(Conflict) as info:
        entry_import.import_entries(actor=director, event=event, text="Ann,,,Bob\n")
    assert info.value.code == "rounds_started"
    assert Partnership.objects.count() == 0
