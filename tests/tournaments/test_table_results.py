"""Results of tables of many through the services: every seat's claim, confirmation by every
other player or by most of them (the event's setting), a conflict and the director's decisions,
placings and per-seat scores on the result (issue 13)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from tests import factories
from tests.tournaments.tables_support import (
    make_event,
    make_round,
    plain,
    table_at,
    tied_below_the_winner,
    with_halves,
)
from tournaments.errors import SpinnerError
from tournaments.models import AuditEntry, Claim, Event, MatchResult, StandingsState
from tournaments.results_math import to_halves
from tournaments.selectors import results as selectors
from tournaments.services import claims, decisions, forfeits

pytestmark = pytest.mark.django_db


def test_a_three_player_all_fives_table_with_halves_is_confirmed_by_both_other_players() -> None:
    event = make_event()
    match = table_at(make_round(event), 1)
    sheet, scores = with_halves(3)
    halves = [to_halves(s) for s in scores]
    assert any(h % 2 for h in halves)  # the split settlement: a half-point
    out = claims.submit_claim(match=match, side=0, sheet=sheet)
    assert out.created and out.state == "pending" and out.result is None
    claim = out.claim
    assert claim.status == Claim.Status.SUBMITTED and claim.verified
    assert claim.scores_halves == halves
    assert [claim.score_a_halves, claim.score_b_halves] == halves[:2]
    assert claim.winner_side == halves.index(max(halves))
    # seat 1 confirms: one of the two others, not enough when every other player confirms
    out = claims.confirm_claim(match=match, side=1, expected_version=1)
    assert out.state == "pending" and out.result is None
    assert out.claim.confirms_id == claim.pk and out.claim.scores_halves == halves
    # seat 2 confirms seat 0's claim by name: now every other player holds it
    out = claims.confirm_claim(match=match, side=2, expected_version=1, of_side=0)
    assert out.state == "confirmed"
    result = out.result
    assert result is not None and result.source == MatchResult.Source.AGREED
    assert result.scores_halves == halves
    assert [result.score_a_halves, result.score_b_halves] == halves[:2]
    assert result.winner_side == halves.index(max(halves))
    ranked = sorted(halves, reverse=True)
    assert result.placings == [1 + ranked.index(h) for h in halves]
    assert StandingsState.objects.get(event=event).dirty
    assert AuditEntry.objects.filter(action="result.confirm").count() == 1
    labels = [
        a.after["by"] for a in AuditEntry.objects.filter(action="claim.confirm").order_by("pk")
    ]
    assert labels[1].startswith("table 1, side C (")
    board = selectors.match_board(match.pk)
    assert board is not None and board.state == "confirmed" and len(board.claims) == 3
    assert len(board.side_names) == 3 and len(board.sides) == 3


def _four(rule: str) -> tuple[Event, object]:
    event = make_event(f"four-{rule}", table_size=4, table_confirmation=rule)
    return event, table_at(make_round(event, (4,)), 1)


def test_majority_two_of_the_three_others_confirm_a_table_of_four() -> None:
    _, match = _four(Event.TableConfirmation.MAJORITY)
    sheet, scores = plain(4)
    claims.submit_claim(match=match, side=2, sheet=sheet)
    out = claims.confirm_claim(match=match, side=0, expected_version=1)
    assert out.state == "pending"
    out = claims.confirm_claim(match=match, side=3, expected_version=1)
    assert out.state == "confirmed" and out.result is not None
    assert out.result.scores_halves == [to_halves(s) for s in scores]
    # the fourth player, who never confirmed, finds it confirmed
    with pytest.raises(SpinnerError) as exc:
        claims.submit_claim(match=match, side=1, sheet=plain(4, 1)[0])
    assert exc.value.code == "already_confirmed"


def test_every_other_player_confirms_a_table_of_four_when_the_event_says_all() -> None:
    _, match = _four(Event.TableConfirmation.ALL)
    sheet, _ = plain(4)
    claims.submit_claim(match=match, side=0, sheet=sheet)
    for side in (1, 2):
        assert claims.confirm_claim(match=match, side=side, expected_version=1).state == "pending"
    out = claims.confirm_claim(match=match, side=3, expected_version=1)
    assert out.state == "confirmed"


def test_a_different_sheet_from_another_seat_is_a_conflict_the_director_resolves() -> None:
    event = make_event()
    match = table_at(make_round(event), 1)
    first, _ = plain(3)
    second, second_scores = tied_below_the_winner(3)
    claims.submit_claim(match=match, side=0, sheet=first)
    out = claims.submit_claim(match=match, side=1, sheet=second)
    assert out.state == "conflict" and out.result is None
    # seat 2 must say whose claim it confirms
    with pytest.raises(SpinnerError) as exc:
        claims.confirm_claim(match=match, side=2, expected_version=1)
    assert exc.value.code == "confirm_whose"
    with pytest.raises(SpinnerError) as exc:
        claims.confirm_claim(match=match, side=2, expected_version=1, of_side=2)
    assert exc.value.code == "invalid_side"
    board = selectors.match_board(match.pk)
    assert board is not None and board.state == "conflict"
    assert board.divergence() is not None
    director = factories.make_director(event, "dir")
    result = decisions.resolve_conflict(
        match=match, side=1, reason="seat B's sheet", actor=director
    )
    halves = [to_halves(s) for s in second_scores]
    assert result.source == MatchResult.Source.RESOLVED and result.scores_halves == halves
    top = max(halves)
    shared = [h for h in halves if h != top]
    assert shared[0] == shared[1]  # two players share second place
    assert result.placings == [1 if h == top else 2 for h in halves]


def test_a_seat_the_table_does_not_have_is_refused_clearly() -> None:
    match = table_at(make_round(make_event()), 1)
    sheet, _ = plain(3)
    with pytest.raises(SpinnerError) as exc:
        claims.submit_claim(match=match, side=3, sheet=sheet)
    assert exc.value.code == "invalid_side" and "0 to 2" in exc.value.message
    director = factories.make_director(match.round.event, "dir")
    with pytest.raises(SpinnerError) as exc:
        forfeits.record_forfeit(match=match, side=0, reason="left", actor=director)
    assert exc.value.code == "not_at_table_of_many"


def test_the_director_enters_and_corrects_a_table_with_every_players_score() -> None:
    event = make_event()
    match = table_at(make_round(event), 1)
    director = factories.make_director(event, "dir")
    with pytest.raises(SpinnerError) as exc:
        decisions.override_result(
            match=match, reason="paper", actor=director, final_score={"scores": [100, 40]}
        )
    assert exc.value.code == "invalid_score" and "3" in exc.value.message
    result = decisions.override_result(
        match=match, reason="paper", actor=director, final_score={"scores": [60, 102.5, 60]}
    )
    assert result.scores_halves == [120, 205, 120] and result.placings == [2, 1, 2]
    assert result.winner_side == 1 and not result.verified
    sheet, scores = with_halves(3)
    corrected = decisions.correct_result(
        match=match, reason="the sheet", actor=director, expected_version=1, sheet=sheet
    )
    assert corrected.version == 2 and corrected.verified
    assert corrected.scores_halves == [to_halves(s) for s in scores]
    audit = AuditEntry.objects.filter(action="result.correct").get()
    assert audit.after is not None and len(audit.after["scores"]) == 3
    assert audit.after["placings"] == corrected.placings


def test_a_tables_scores_and_placings_are_append_only_in_the_database() -> None:
    """The per-seat columns of claims and results are as immutable as the rest (migration 0010
    remade SQLite's triggers; PostgreSQL's apply to every column)."""
    match = table_at(make_round(make_event()), 1)
    sheet, _ = plain(3)
    claims.submit_claim(match=match, side=0, sheet=sheet)
    claims.confirm_claim(match=match, side=1, expected_version=1)
    out = claims.confirm_claim(match=match, side=2, expected_version=1)
    assert out.result is not None
    for model, pk, column, value in (
        (MatchResult, out.result.pk, "scores_halves", "[1, 2, 3]"),
        (MatchResult, out.result.pk, "placings", "[3, 2, 1]"),
        (Claim, out.claim.pk, "scores_halves", "[1, 2, 3]"),
    ):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(
                f"UPDATE {model._meta.db_table} SET {column} = %s WHERE id = %s", [value, pk]
            )
    out.result.refresh_from_db()
    assert out.result.placings is not None and len(out.result.placings) == 3


def test_a_final_score_from_the_table_needs_every_players_score() -> None:
    event = make_event(allow_final_score_only=True)
    match = table_at(make_round(event), 1)
    with pytest.raises(SpinnerError) as exc:
        claims.submit_claim(match=match, side=0, final_score={"scores": [100, 40]})
    assert exc.value.code == "invalid_score" and exc.value.details == {"seats": 3, "given": 2}
    with pytest.raises(SpinnerError) as exc:  # the winner named is not the highest
        claims.submit_claim(match=match, side=0, final_score={"scores": [100, 40, 40], "winner": 1})
    assert exc.value.code == "invalid_score"
    claims.submit_claim(match=match, side=0, final_score={"scores": [100, 40, 40]})
    same = claims.submit_claim(match=match, side=1, final_score={"scores": [100, 40, 40.0]})
    assert same.state == "pending"
    out = claims.confirm_claim(match=match, side=2, expected_version=1)
    assert out.state == "confirmed" and out.result is not None
    assert out.result.scores_halves == [200, 80, 80] and out.result.placings == [1, 2, 2]
    assert out.result.winner_side == 0 and not out.result.verified
