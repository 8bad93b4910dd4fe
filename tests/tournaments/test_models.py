"""The constraints the database enforces, whatever the code above it does."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tests import factories
from tournaments.models import (
    AuditEntry,
    Entry,
    EntryPlayer,
    Event,
    Match,
    Partnership,
    Player,
    Round,
    RoundSeat,
    Table,
)

pytestmark = pytest.mark.django_db


def make_event(slug: str = "ev") -> Event:
    return factories.make_event(slug, name="Ev", status=Event.Status.DRAFT)


def make_entry(event: Event, a: str, b: str) -> Entry:
    return factories.make_entry(event, f"{a} & {b}", players=(a, b))


def test_a_partnership_needs_two_different_players() -> None:
    p = Player.objects.create(name="Ana")
    with pytest.raises(IntegrityError):
        Partnership.objects.create(player_a=p, player_b=p)


def test_a_player_plays_for_one_entry_per_event() -> None:
    event = make_event()
    first = make_entry(event, "Ana", "Ben")
    other = make_entry(event, "Cy", "Di")
    ana = first.members.get(player__name="Ana").player
    with pytest.raises(IntegrityError):
        EntryPlayer.objects.create(event=event, entry=other, player=ana)


def test_an_entry_is_a_partnership_or_a_player_never_both() -> None:
    event = make_event()
    pa, pb = Player.objects.create(name="A"), Player.objects.create(name="B")
    partnership = Partnership.objects.create(player_a=pa, player_b=pb)
    with pytest.raises(IntegrityError):
        Entry.objects.create(event=event, partnership=partnership, player=pa, name="x")


def test_an_entry_plays_at_most_once_per_round_and_a_table_hosts_one_match() -> None:
    event = make_event()
    a, b, c, d = (make_entry(event, f"P{i}", f"Q{i}") for i in range(4))
    rnd = Round.objects.create(event=event, number=1)
    t1 = Table.objects.create(event=event, number=1)
    t2 = Table.objects.create(event=event, number=2)
    m1 = Match.objects.create(round=rnd, table=t1, entry_a=a, entry_b=b)
    RoundSeat.objects.create(round=rnd, entry=a, match=m1, side=0)
    RoundSeat.objects.create(round=rnd, entry=b, match=m1, side=1)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Match.objects.create(round=rnd, table=t1, entry_a=c, entry_b=d)
    m2 = Match.objects.create(round=rnd, table=t2, entry_a=c, entry_b=a)
    with pytest.raises(IntegrityError):
        RoundSeat.objects.create(round=rnd, entry=a, match=m2, side=1)


def test_a_bye_has_no_table_and_no_opponent() -> None:
    event = make_event()
    a, b = make_entry(event, "A", "B"), make_entry(event, "C", "D")
    rnd = Round.objects.create(event=event, number=1)
    table = Table.objects.create(event=event, number=1)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Match.objects.create(round=rnd, table=table, entry_a=a, is_bye=True)
    with transaction.atomic(), pytest.raises(IntegrityError):
        Match.objects.create(round=rnd, entry_a=a, entry_b=b, is_bye=True)
    bye = Match.objects.create(round=rnd, entry_a=a, is_bye=True)
    assert str(bye).endswith("(bye)")


def test_the_audit_log_refuses_updates_and_deletes() -> None:
    entry = AuditEntry.objects.create(action="create", object_type="event", object_id="1")
    with transaction.atomic(), pytest.raises(Exception, match="append-only"):
        AuditEntry.objects.filter(pk=entry.pk).update(reason="rewritten")
    with transaction.atomic(), pytest.raises(Exception, match="append-only"):
        AuditEntry.objects.filter(pk=entry.pk).delete()
    assert AuditEntry.objects.get(pk=entry.pk).reason == ""
