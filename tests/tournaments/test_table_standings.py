"""Standings of an individual event at tables of many through the recompute (issue 13): match
points by placing (shared places share their points) or in proportion to score, the snapshot's
tables and each row's placings, the CSV and the export; the recompute's reuse of its last
computation gives the bytes from scratch, and a two-entry event's snapshot has none of it."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from tests import factories
from tests.tournaments.tables_support import (
    make_event,
    make_round,
    plain,
    table_at,
    tied_below_the_winner,
    with_halves,
)
from tournaments.models import Event, Match, StandingsSnapshot
from tournaments.presenters.standings import standings_csv
from tournaments.results_math import to_halves
from tournaments.selectors import export, standings_records
from tournaments.selectors import standings as standings_reads
from tournaments.services import claims, decisions
from tournaments.services.standings import recompute_standings
from tournaments.standings import parse_number

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_recent_recomputes() -> Iterator[None]:
    standings_records._recent.clear()
    yield
    standings_records._recent.clear()


def agree(match: Match, sheet: dict[str, Any]) -> None:
    """Every seat of the table holds the sheet: seat 0 sends it, the others confirm it."""
    claims.submit_claim(match=match, side=0, sheet=sheet)
    for seat in range(1, match.table_entries):
        claims.confirm_claim(match=match, side=seat, expected_version=1, of_side=0)


def snapshot(event: Event) -> dict[str, Any]:
    recompute_standings(event_id=event.pk, force=True)
    row = StandingsSnapshot.objects.filter(event=event).order_by("-generation").first()
    assert row is not None
    document: dict[str, Any] = json.loads(row.data)
    return document


def match_points(document: dict[str, Any]) -> dict[int, Fraction]:
    return {
        r["entry_id"]: Fraction(parse_number(str(r["match_points"])))
        for r in document["standings"]["rows"]
    }


def played_round(event: Event) -> tuple[list[Match], list[list[Any]]]:
    """Round 1: a table of three with two players sharing second place, and one with a
    settlement split in halves, confirmed by every player from their sheets."""
    rnd = make_round(event, (3, 3))
    sheets = [tied_below_the_winner(3), with_halves(3)]
    tables = [table_at(rnd, 1), table_at(rnd, 2)]
    for match, (sheet, _) in zip(tables, sheets, strict=True):
        agree(match, sheet)
    return tables, [scores for _, scores in sheets]


def seats(match: Match) -> list[int]:
    return list(match.seats.order_by("side").values_list("entry_id", flat=True))


def test_match_points_by_placing_share_the_points_of_shared_places() -> None:
    event = make_event(tiebreaks=["buchholz", "spread"])
    tables, scores = played_round(event)
    document = snapshot(event)
    points = match_points(document)
    # 4/2/0 at a table of three: the two players sharing 2nd get (2 + 0) / 2 = 1 each
    tied = dict(zip(seats(tables[0]), scores[0], strict=True))
    top = max(tied.values())
    for entry, score in tied.items():
        assert points[entry] == (4 if score == top else 1)
    halves = dict(zip(seats(tables[1]), scores[1], strict=True))
    ranked = sorted(halves.values(), reverse=True)
    for entry, score in halves.items():
        assert points[entry] == (4, 2, 0)[ranked.index(score)]
    # the snapshot carries each table: seats, exact scores (halves), places, points
    table = document["tables"][str(tables[1].pk)]
    assert table["seats"] == seats(tables[1])
    assert [Fraction(parse_number(str(s))) for s in table["scores"]] == [
        Fraction(to_halves(s), 2) for s in scores[1]
    ]
    assert table["placings"] == [1 + ranked.index(s) for s in scores[1]]
    assert document["placing_points"] == {
        "2": [2, 0],
        "3": [4, 2, 0],
        "4": [4, 2, 1, 0],
    }
    first = document["tables"][str(tables[0].pk)]
    assert sorted(first["placings"]) == [1, 2, 2]
    # each row: its places, [round, place, players]
    for entry, place in zip(first["seats"], first["placings"], strict=True):
        assert document["extra"][str(entry)]["placings"] == [[1, place, 3]]


def test_proportional_points_through_the_recompute_and_a_correction() -> None:
    event = make_event(placing_points={"proportional": 12})
    tables, scores = played_round(event)
    points = match_points(snapshot(event))
    for match, table_scores in zip(tables, scores, strict=True):
        total = sum(Fraction(to_halves(s), 2) for s in table_scores)
        for entry, s in zip(seats(match), table_scores, strict=True):
            assert points[entry] == 12 * Fraction(to_halves(s), 2) / total
    # a director's correction: the recompute (reusing nothing at tables) follows it
    director = factories.make_director(event, "dir")
    decisions.correct_result(
        match=tables[0],
        reason="the paper",
        actor=director,
        expected_version=1,
        final_score={"scores": [30, 60, 10]},
    )
    points = match_points(snapshot(event))
    for entry, s in zip(seats(tables[0]), (30, 60, 10), strict=True):
        assert points[entry] == Fraction(12 * s, 100)
    again = standings_records.compute_snapshot_bytes(event_id=event.pk)
    standings_records._recent.clear()
    assert standings_records.compute_snapshot_bytes(event_id=event.pk) == again


def test_placing_points_of_the_event_and_a_table_of_four() -> None:
    event = make_event(table_size=4, placing_points={"4": [5, 3, 1, 0]})
    match = table_at(make_round(event, (4,)), 1)
    sheet, scores = plain(4)
    agree(match, sheet)
    points = match_points(snapshot(event))
    ranked = sorted(scores, reverse=True)
    for entry, s in zip(seats(match), scores, strict=True):
        assert points[entry] == (5, 3, 1, 0)[ranked.index(s)]


def test_the_csv_and_the_export_carry_the_placings() -> None:
    event = make_event()
    tables, scores = played_round(event)
    snapshot(event)
    text = standings_csv(standings_reads.latest_standings(event), event)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 6 and all(r["placings"].startswith("1:") for r in rows)
    assert {r["placings"].split("/")[1] for r in rows} == {"3"}
    # a settlement split in halves (All Fives at three) stays exact in the CSV's raw points
    by_id = {int(r["entry_id"]): r for r in rows}
    for entry, score in zip(seats(tables[1]), scores[1], strict=True):
        assert Fraction(by_id[entry]["points_for_raw"]) == Fraction(to_halves(score), 2)
    assert any(by_id[e]["points_for_raw"].endswith(".5") for e in seats(tables[1]))
    doc = export.export_event(event)
    exported = doc["rounds"][0]["matches"][0]
    assert exported["entries"] == seats(tables[0])
    assert len(exported["result"]["scores"]) == 3 and sorted(exported["result"]["placings"]) == [
        1,
        2,
        2,
    ]
    assert (
        doc["standings"]["tables"][str(tables[0].pk)]["placings"] == exported["result"]["placings"]
    )
    assert all(len(r["placings"]) == 1 for r in doc["standings"]["rows"])


def test_a_two_entry_events_snapshot_and_csv_have_no_tables() -> None:
    event = factories.make_event("duel", rules=Event.Rules.ALL_FIVES, target=100)
    document = snapshot(event)
    assert "tables" not in document and "placing_points" not in document
    assert all("placings" not in extra for extra in document["extra"].values())
    header = standings_csv(standings_reads.latest_standings(event), event).splitlines()[0]
    assert "placings" not in header
