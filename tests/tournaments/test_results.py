"""Results through the services: claim, confirm, conflict, resolve, override, correct."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from tests.tournaments.results_support import (
    expect,
    make_director,
    make_event,
    make_round,
    match_at,
    sheet,
)
from tournaments import results_math
from tournaments.errors import SpinnerError
from tournaments.models import AuditEntry, Claim, Event, MatchResult, Round, StandingsState
from tournaments.selectors import results as selectors
from tournaments.services import claims, decisions, results

pytestmark = pytest.mark.django_db


def codes(exc: pytest.ExceptionInfo[SpinnerError]) -> str:
    return exc.value.code


def test_a_valid_sheet_is_a_submitted_claim_pending_the_other_side() -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    out = claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    assert out.created and out.state == "pending" and out.result is None
    claim = out.claim
    assert (claim.side, claim.version, claim.status) == (0, 1, Claim.Status.SUBMITTED)
    assert claim.verified and claim.verdict is not None and claim.verdict["valid"] is True
    assert [claim.score_a_halves, claim.score_b_halves] == [
        s * 2 for s in expect("tally")["scores"]
    ]
    assert claim.winner_side == expect("tally")["winner"]


def test_identical_claims_from_both_sides_confirm_once_and_mark_standings_dirty() -> None:
    event = make_event()
    match = match_at(make_round(event), 1)
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    # The other side spells tiles and keys differently and leaves out the claimed result.
    other = sheet("tally")
    other.pop("result")
    out = claims.submit_claim(match=match, side=1, sheet=other)
    assert out.state == "confirmed"
    result = out.result
    assert result is not None and result.source == MatchResult.Source.AGREED
    assert (result.version, result.is_current, result.verified) == (1, True, True)
    assert [result.score_a_halves, result.score_b_halves] == [190, 200]
    assert result.winner_side == 1
    state = StandingsState.objects.get(event=event)
    assert state.dirty and state.results_generation == 1
    assert AuditEntry.objects.filter(action="result.confirm", object_id=str(result.pk)).exists()
    assert results.round_results_complete(match.round) is False  # table 2 still missing


def test_the_database_refuses_two_current_results_for_a_match() -> None:
    match = match_at(make_round(make_event()), 1)
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    out = claims.submit_claim(match=match, side=1, sheet=sheet("tally"))
    assert out.result is not None
    with transaction.atomic(), pytest.raises(IntegrityError):
        MatchResult.objects.create(
            match=match,
            version=2,
            source="arbitral",
            kind="final_score",
            score_a_halves=0,
            score_b_halves=0,
        )


def test_different_claims_are_a_conflict_shown_with_the_first_divergence() -> None:
    match = match_at(make_round(make_event()), 1)
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    out = claims.submit_claim(match=match, side=1, sheet=sheet("nodeal"))
    assert out.state == "conflict" and out.result is None
    board = selectors.match_board(match.pk)
    assert board is not None and board.state == "conflict"
    where = board.divergence()
    assert where is not None
    assert where == results_math.divergence(sheet("tally"), sheet("nodeal"))


def test_an_invalid_sheet_is_kept_as_a_draft_with_its_verdict() -> None:
    match = match_at(make_round(make_event()), 1)
    out = claims.submit_claim(match=match, side=0, sheet=sheet("tally-mut"))
    claim = out.claim
    assert claim.status == Claim.Status.DRAFT and not claim.verified
    assert claim.verdict is not None and claim.verdict["valid"] is False
    first = claim.verdict["errors"][0]
    wanted = expect("tally-mut")
    assert (first["code"], first["hand"], first["move"]) == (
        wanted["code"],
        wanted["hand"],
        wanted["move"],
    )
    assert claim.sheet == sheet("tally-mut")  # kept as sent
    assert out.state == "missing"
    # Fixing it: a new version, the draft kept.
    fixed = claims.submit_claim(match=match, side=0, sheet=sheet("tally"), expected_version=1)
    assert fixed.claim.version == 2 and fixed.claim.status == Claim.Status.SUBMITTED
    assert Claim.objects.filter(match=match, side=0).count() == 2


def test_an_unfinished_sheet_is_a_draft() -> None:
    match = match_at(make_round(make_event()), 1)
    out = claims.submit_claim(match=match, side=0, sheet=sheet("progress"))
    assert out.claim.status == Claim.Status.DRAFT and out.claim.verified
    assert out.claim.finished is False and out.state == "missing"


def test_a_sheet_for_another_game_is_kept_as_a_draft_and_refused_field_by_field() -> None:
    match = match_at(make_round(make_event()), 1)
    wrong = sheet("tally")
    wrong["target"] = 150
    out = claims.submit_claim(match=match, side=0, sheet=wrong)
    assert out.refusal is not None and out.refusal.code == "sheet_mismatch"
    fields = [{"field": "target", "expected": 100, "given": 150}]
    assert out.refusal.details["fields"] == fields
    draft = out.claim
    assert out.created and (draft.version, draft.status) == (1, Claim.Status.DRAFT)
    assert draft.sheet == wrong and not draft.verified and draft.score_a_halves is None
    assert draft.verdict is not None and draft.verdict["valid"] is False
    [error] = draft.verdict["errors"]
    assert (error["code"], error["fields"]) == ("sheet_mismatch", fields)
    assert out.state == "missing" and out.result is None
    # The same wrong sheet again stores nothing and says the same.
    again = claims.submit_claim(match=match, side=0, sheet=wrong, expected_version=1)
    assert not again.created and again.refusal is not None and again.claim.pk == draft.pk
    head_to_head = sheet("2p-tally")
    other = claims.submit_claim(match=match, side=0, sheet=head_to_head, expected_version=1)
    assert other.refusal is not None and other.claim.version == 2
    assert {"players", "partnerships"} <= {f["field"] for f in other.refusal.details["fields"]}
    fixed = claims.submit_claim(match=match, side=0, sheet=sheet("tally"), expected_version=2)
    assert fixed.refusal is None and fixed.claim.status == Claim.Status.SUBMITTED
    assert Claim.objects.filter(match=match, side=0).count() == 3


def test_a_wrong_game_draft_never_confirms_a_result() -> None:
    match = match_at(make_round(make_event()), 1)
    wrong = sheet("tally")
    wrong["hand_size"] = 7
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    out = claims.submit_claim(match=match, side=1, sheet=wrong)
    assert out.refusal is not None and out.state == "pending" and out.result is None
    # A draft cannot be confirmed by the other side either.
    other = match_at(match.round, 2)
    claims.submit_claim(match=other, side=0, sheet=wrong)
    with pytest.raises(SpinnerError) as exc:
        claims.confirm_claim(match=other, side=1, expected_version=1)
    assert codes(exc) == "nothing_to_confirm"
    # Both sides sending the same wrong sheet: two drafts, still no result.
    claims.submit_claim(match=other, side=1, sheet=wrong)
    assert not MatchResult.objects.exists()
    assert set(Claim.objects.values_list("status", flat=True)) == {"draft", "submitted"}


def test_a_head_to_head_event_takes_two_player_sheets() -> None:
    event = make_event("h2h", entry_kind=Event.EntryKind.SINGLE, target=None)
    match = match_at(make_round(event), 1)
    claims.submit_claim(match=match, side=0, sheet=sheet("2p-tally"))
    out = claims.submit_claim(match=match, side=1, sheet=sheet("2p-tally"))
    assert out.state == "confirmed"


def test_time_policy_on_the_sheet_must_be_the_events() -> None:
    event = make_event(time_policy=Event.TimePolicy.ONE_MORE_HAND)
    match = match_at(make_round(event), 1)
    refused = claims.submit_claim(match=match, side=0, sheet=sheet("time")).refusal
    assert refused is not None and refused.code == "sheet_mismatch"
    assert refused.details["fields"][0]["field"] == "time.policy"
    event.time_policy = Event.TimePolicy.FINISH_HAND
    event.save()
    out = claims.submit_claim(
        match=match_at(match.round, 1), side=0, sheet=sheet("time"), expected_version=1
    )
    assert out.claim.status == Claim.Status.SUBMITTED
    assert out.claim.winner_side == expect("time")["winner"]


def test_versions_edits_need_the_current_version_and_stale_ones_change_nothing() -> None:
    match = match_at(make_round(make_event()), 1)
    claims.submit_claim(match=match, side=0, sheet=sheet("tally-mut"))
    with pytest.raises(SpinnerError) as exc:
        claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    assert codes(exc) == "version_required" and exc.value.status == 428
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"), expected_version=1)
    with pytest.raises(SpinnerError) as exc:
        claims.submit_claim(match=match, side=0, sheet=sheet("nodeal"), expected_version=1)
    assert codes(exc) == "stale_version" and exc.value.status == 412
    assert exc.value.details["current_version"] == 2
    current = results.current_claims(match)[0]
    assert current is not None and current.version == 2 and current.sheet == sheet("tally")
    # Sending again what is already there is a safe retry: nothing new is stored.
    again = claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    assert not again.created and again.claim.version == 2


def test_the_other_side_confirms_the_first_claim_as_it_stands() -> None:
    match = match_at(make_round(make_event()), 1)
    first = claims.submit_claim(match=match, side=0, sheet=sheet("tally")).claim
    with pytest.raises(SpinnerError) as exc:
        claims.confirm_claim(match=match, side=1, expected_version=7)
    assert codes(exc) == "stale_version"
    out = claims.confirm_claim(match=match, side=1, expected_version=first.version)
    assert out.state == "confirmed" and out.claim.confirms_id == first.pk
    assert out.result is not None and out.result.winner_side == 1
    # Confirming again answers the same, and a new claim is refused.
    again = claims.confirm_claim(match=match, side=1, expected_version=first.version)
    assert not again.created and again.result == out.result
    with pytest.raises(SpinnerError) as exc:
        claims.submit_claim(match=match, side=0, sheet=sheet("nodeal"), expected_version=1)
    assert codes(exc) == "already_confirmed"


def test_nothing_to_confirm_before_the_other_side_submits() -> None:
    match = match_at(make_round(make_event()), 1)
    with pytest.raises(SpinnerError) as exc:
        claims.confirm_claim(match=match, side=1, expected_version=1)
    assert codes(exc) == "nothing_to_confirm"


def test_final_score_only_where_the_event_allows_it_and_marked_unverified() -> None:
    match = match_at(make_round(make_event()), 1)
    with pytest.raises(SpinnerError) as exc:
        claims.submit_claim(match=match, side=0, final_score={"scores": [100, 95]})
    assert codes(exc) == "final_score_not_allowed"
    event = make_event("loose", allow_final_score_only=True)
    match = match_at(make_round(event), 1)
    claims.submit_claim(match=match, side=0, final_score={"scores": [100, 95]})
    out = claims.submit_claim(match=match, side=1, final_score={"scores": [100.0, 95], "winner": 0})
    assert out.state == "confirmed" and out.result is not None
    assert out.result.verified is False and out.result.kind == Claim.Kind.FINAL_SCORE
    assert [out.result.score_a_halves, out.result.score_b_halves] == [200, 190]
    exported = selectors.results_for_export(event)[match.pk]
    assert exported["scores"] == [100, 95] and exported["sheet"] is None


def test_a_final_score_with_the_wrong_winner_is_refused() -> None:
    match = match_at(make_round(make_event(allow_final_score_only=True)), 1)
    with pytest.raises(SpinnerError) as exc:
        claims.submit_claim(match=match, side=0, final_score={"scores": [90, 95], "winner": 0})
    assert codes(exc) == "invalid_score"
    with pytest.raises(SpinnerError) as exc:
        claims.submit_claim(match=match, side=0, final_score={"scores": [90, 95.25]})
    assert codes(exc) == "invalid_score"
    for wild in (float("inf"), float("nan"), 10**12, "12", True):
        with pytest.raises(SpinnerError) as exc:
            claims.submit_claim(match=match, side=0, final_score={"scores": [wild, 95]})
        assert codes(exc) == "invalid_score", wild


def test_tables_cannot_enter_once_the_round_is_closed() -> None:
    rnd = make_round(make_event())
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    with pytest.raises(SpinnerError) as exc:
        claims.submit_claim(match=match_at(rnd, 1), side=0, sheet=sheet("tally"))
    assert codes(exc) == "round_not_open"


def test_the_director_resolves_a_conflict_with_a_reason_in_the_audit_log() -> None:
    event = make_event()
    director = make_director(event)
    match = match_at(make_round(event), 1)
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    claims.submit_claim(match=match, side=1, sheet=sheet("nodeal"))
    with pytest.raises(SpinnerError) as exc:
        decisions.resolve_conflict(match=match, side=1, reason=" ", actor=director)
    assert codes(exc) == "reason_required"
    result = decisions.resolve_conflict(
        match=match, side=1, reason="Side 1's sheet is the one both signed", actor=director
    )
    assert result.source == MatchResult.Source.RESOLVED and result.actor == director
    assert result.claim is not None and result.claim.side == 1
    entry = AuditEntry.objects.get(action="result.resolve")
    assert entry.actor == director and entry.reason.startswith("Side 1")
    with pytest.raises(SpinnerError) as exc:
        decisions.resolve_conflict(match=match, side=0, reason="again", actor=director)
    assert codes(exc) == "already_confirmed"


def test_override_and_correction_make_new_versions_never_overwrite() -> None:
    event = make_event()
    director = make_director(event)
    match = match_at(make_round(event), 1)
    first = decisions.override_result(
        match=match, final_score={"scores": [60, 40]}, reason="Table left early", actor=director
    )
    assert (first.version, first.source, first.verified) == (1, "arbitral", False)
    with pytest.raises(SpinnerError) as exc:
        decisions.correct_result(
            match=match,
            sheet=sheet("tally"),
            reason="Sheet found",
            actor=director,
            expected_version=5,
        )
    assert codes(exc) == "stale_version"
    with pytest.raises(SpinnerError) as exc:
        decisions.correct_result(
            match=match,
            sheet=sheet("tally-mut"),
            reason="Sheet found",
            actor=director,
            expected_version=1,
        )
    assert codes(exc) == "invalid_sheet" and exc.value.details["verdict"]["valid"] is False
    second = decisions.correct_result(
        match=match, sheet=sheet("tally"), reason="Sheet found", actor=director, expected_version=1
    )
    assert (second.version, second.source, second.verified) == (2, "correction", True)
    rows = list(MatchResult.objects.filter(match=match).order_by("version"))
    assert [(r.version, r.is_current) for r in rows] == [(1, False), (2, True)]
    assert rows[0].score_a_halves == 120  # the old version is kept as it was
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", flat=True))
    assert actions == ["result.override", "result.correct"]
    correction = AuditEntry.objects.get(action="result.correct")
    assert correction.before["version"] == 1 and correction.after["version"] == 2
    assert StandingsState.objects.get(event=event).results_generation == 2
    with pytest.raises(SpinnerError) as exc:
        decisions.override_result(
            match=match, final_score={"scores": [5, 0]}, reason="x", actor=director
        )
    assert codes(exc) == "version_required"


def test_correct_needs_a_confirmed_result() -> None:
    event = make_event()
    match = match_at(make_round(event), 1)
    with pytest.raises(SpinnerError) as exc:
        decisions.correct_result(
            match=match,
            final_score={"scores": [5, 0]},
            reason="x",
            actor=None,
            expected_version=1,
        )
    assert codes(exc) == "not_confirmed"


def test_round_results_complete_once_every_table_is_confirmed() -> None:
    event = make_event()
    rnd = make_round(event, tables=2, bye=True)
    assert not results.round_results_complete(rnd)
    for n in (1, 2):
        claims.submit_claim(match=match_at(rnd, n), side=0, sheet=sheet("tally"))
        claims.submit_claim(match=match_at(rnd, n), side=1, sheet=sheet("tally"))
    assert results.round_results_complete(rnd)


def test_a_bye_takes_no_claim() -> None:
    rnd = make_round(make_event(), tables=1, bye=True)
    bye = rnd.matches.get(is_bye=True)
    with pytest.raises(SpinnerError) as exc:
        claims.submit_claim(match=bye, side=0, sheet=sheet("tally"))
    assert codes(exc) == "match_is_bye"


def test_the_round_board_reads_every_state_in_a_fixed_number_of_queries(
    django_assert_num_queries: Any,
) -> None:
    event = make_event()
    rnd = make_round(event, tables=4, bye=True)
    claims.submit_claim(match=match_at(rnd, 2), side=0, sheet=sheet("tally"))
    claims.submit_claim(match=match_at(rnd, 3), side=0, sheet=sheet("tally"))
    claims.submit_claim(match=match_at(rnd, 3), side=1, sheet=sheet("nodeal"))
    claims.submit_claim(match=match_at(rnd, 4), side=0, sheet=sheet("tally"))
    claims.submit_claim(match=match_at(rnd, 4), side=1, sheet=sheet("tally"))
    with django_assert_num_queries(3):
        boards = selectors.round_board(rnd)
        states = [b.state for b in boards]
    assert states == ["missing", "pending", "conflict", "confirmed", "bye"]
    assert selectors.count_states(boards) == {
        "missing": 1,
        "pending": 1,
        "conflict": 1,
        "confirmed": 1,
        "bye": 1,
    }
    with django_assert_num_queries(1):
        exported = selectors.results_for_export(event)
    assert list(exported) == [match_at(rnd, 4).pk]
    assert exported[match_at(rnd, 4).pk]["sheet"] == sheet("tally")


def test_the_recompute_task_marks_the_event_dirty_and_is_safe_twice() -> None:
    from tournaments import tasks

    event = make_event()
    tasks.request_standings_recompute.delay(event.pk)
    tasks.request_standings_recompute.delay(event.pk)
    # The task marks the event dirty, then the (eager) recompute of issue 8 computes a snapshot
    # and cleans the mark; the second run adds nothing.
    state = StandingsState.objects.get(event=event)
    assert not state.dirty and state.results_generation == 0
    assert list(event.standings_snapshots.values_list("generation", flat=True)) == [1]


def test_a_broker_outage_never_fails_a_confirmation(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from tournaments import tasks

    attempts: list[tuple[Any, ...]] = []

    def broken(*args: Any, **kwargs: Any) -> None:
        attempts.append(kwargs.get("args", ()))
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.request_standings_recompute, "apply_async", broken)
    event = make_event()
    match = match_at(make_round(event), 1)
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    with django_capture_on_commit_callbacks(execute=True):
        out = claims.submit_claim(match=match, side=1, sheet=sheet("tally"))
    assert out.state == "confirmed"
    assert attempts == [(event.pk,)]  # the recompute was asked for after commit, and failed
    assert StandingsState.objects.get(event=event).dirty  # marked in the transaction itself


@pytest.mark.parametrize("depth", [900, 25])
def test_a_sheet_nested_too_deeply_is_refused_before_anything_walks_it(depth: int) -> None:
    match = match_at(make_round(make_event()), 1)
    deep: Any = []
    for _ in range(depth):
        deep = [deep]
    too_deep = {**sheet("tally"), "hands": deep}
    with pytest.raises(SpinnerError) as exc:
        decisions.override_result(match=match, sheet=too_deep, reason="x", actor=None)
    assert codes(exc) == "sheet_too_large"
    with pytest.raises(SpinnerError) as exc:
        claims.submit_claim(match=match, side=0, sheet=too_deep)
    assert codes(exc) == "sheet_too_large"
    assert not Claim.objects.exists() and not MatchResult.objects.exists()
