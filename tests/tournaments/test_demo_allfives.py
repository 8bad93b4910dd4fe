"""The demo's All Fives night (issue 13): ``/events/demo-allfives/``, fourteen individual players
at tables of 4 + 4 + 3 + 3, three rounds played from verified simulated sheets submitted by one
seat and confirmed by the others; its standings are what a fresh compute of its results gives,
``check_pairings`` and ``export_event`` cover it, it is finished after its three rounds, and
running the demo again changes nothing."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from tournaments.bookkeeping import StandingsSnapshot
from tournaments.management import demo_allfives
from tournaments.models import AuditEntry, Claim, Entry, Event, Match, MatchResult, RoundSeat
from tournaments.selectors import standings_records
from tournaments.standings.multiplayer import PlacingPoints, TableResult, table_points

pytestmark = pytest.mark.django_db


def _rows() -> tuple[int, ...]:
    return tuple(
        model.objects.count()
        for model in (AuditEntry, Event, Entry, Match, RoundSeat, Claim, MatchResult)
    )


def from_scratch(event_id: int) -> bytes:
    """The standings snapshot as a process that never recomputed the event makes it."""
    kept = dict(standings_records._recent)
    standings_records._recent.clear()
    try:
        return standings_records.compute_snapshot_bytes(event_id=event_id)[0]
    finally:
        standings_records._recent.clear()
        standings_records._recent.update(kept)


def test_the_all_fives_night_is_played_at_tables_of_four_and_three_and_is_idempotent() -> None:
    out = StringIO()
    call_command("demo", stdout=out)
    assert "/events/demo-allfives/" in out.getvalue()
    event = Event.objects.get(slug=demo_allfives.SLUG)
    assert event.rules == Event.Rules.ALL_FIVES and event.entry_kind == Event.EntryKind.SINGLE
    assert event.entries.count() == demo_allfives.PLAYER_COUNT == 14
    assert event.status == Event.Status.FINISHED and len(event.placings) == 14
    rounds = list(event.rounds.order_by("number"))
    assert [(r.number, r.status) for r in rounds] == [(n, "closed") for n in (1, 2, 3)]

    for rnd in rounds:
        tables = list(Match.objects.filter(round=rnd, is_bye=False))
        assert sorted(m.table_entries for m in tables) == [3, 3, 4, 4]
        seats = RoundSeat.objects.filter(round=rnd)
        assert seats.count() == 14 and seats.values("entry").distinct().count() == 14
        for match in tables:
            result = MatchResult.objects.get(match=match, is_current=True)
            # a verified sheet, confirmed by the players at the table
            assert result.verified and result.source == MatchResult.Source.AGREED
            assert len(result.scores_halves) == len(result.placings) == match.table_entries
            assert result.sheet["players"] == match.table_entries
            assert set(Claim.objects.filter(match=match).values_list("side", flat=True)) == set(
                range(match.table_entries)
            )

    # The standings are those the results give: a fresh compute, byte for byte, and each
    # player's match points the sum of the default placing points of their tables.
    snapshot = StandingsSnapshot.objects.filter(event=event).order_by("-generation").first()
    assert snapshot is not None
    assert snapshot.data.encode() == from_scratch(event.pk)
    earned: Counter[int] = Counter()
    for result in MatchResult.objects.filter(match__round__event=event, is_current=True):
        seated = dict(
            RoundSeat.objects.filter(match_id=result.match_id).values_list("side", "entry_id")
        )
        table = TableResult(
            result.match_id,
            1,
            "swiss",
            tuple(seated[s] for s in range(len(seated))),
            tuple(Fraction(h, 2) for h in result.scores_halves),
        )
        earned.update(table_points(table, PlacingPoints()))
    rows = json.loads(snapshot.data)["standings"]["rows"]
    assert len(rows) == 14 and sum(earned.values()) > 0
    for row in rows:
        assert Fraction(str(row["match_points"])) == earned[row["entry_id"]]

    checked = StringIO()
    call_command("check_pairings", demo_allfives.SLUG, stdout=checked, stderr=checked)
    assert "0 violations" in checked.getvalue()
    exported = StringIO()
    call_command("export_event", demo_allfives.SLUG, stdout=exported)
    document = json.loads(exported.getvalue())
    assert document["event"]["slug"] == demo_allfives.SLUG
    exported_tables = [m for r in document["rounds"] for m in r["matches"]]
    assert len(exported_tables) == 12
    for item in exported_tables:
        stored = MatchResult.objects.get(match_id=item["id"], is_current=True)
        # every seat of the table, its score and its place, as the result has them
        assert len(item["entries"]) == len(item["result"]["scores"]) == stored.match.table_entries
        assert item["result"]["placings"] == stored.placings

    client = Client()
    page = client.get(f"/events/{demo_allfives.SLUG}/rounds/3/").content.decode()
    assert page.count("data-seat=") == 14 and page.count("badge placing") == 14
    standings = client.get(f"/events/{demo_allfives.SLUG}/standings/").content.decode()
    assert ">Player<" in standings
    podium = client.get(f"/events/{demo_allfives.SLUG}/").content.decode()
    assert event.placings[0]["name"] in podium and "Final placings" in podium
    assert "four at each table (three at some tables" in podium

    before = _rows()
    again = StringIO()
    call_command("demo", stdout=again)
    assert _rows() == before
    assert "/events/demo-allfives/: finished already" in again.getvalue()
