"""Results only on published or in-play rounds (issue 15): a draft round's pairing is not
public, may be swapped or discarded, so no claim, confirmation or director's result lands on it;
and a round holding claims or results is never discarded."""

from __future__ import annotations

import pytest

from tests.tournaments.api_support import assert_error, post, table_client, user_client
from tests.tournaments.results_support import make_director, make_event, make_round, match_at, sheet
from tournaments.errors import SpinnerError
from tournaments.models import AuditEntry, Claim, MatchResult, Round
from tournaments.services import claims, decisions, round_edits

pytestmark = pytest.mark.django_db


def _as_draft(rnd: Round) -> Round:
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.DRAFT)
    rnd.refresh_from_db()
    return rnd


def test_a_director_enters_no_result_on_a_draft_round() -> None:
    event = make_event("draft-dir")
    director = make_director(event)
    rnd = make_round(event)
    claims.submit_claim(match=match_at(rnd, 1), side=0, sheet=sheet("tally"))
    _as_draft(rnd)
    with pytest.raises(SpinnerError) as override:
        decisions.override_result(
            match=match_at(rnd, 2), reason="arbiter", actor=director, sheet=sheet("tally")
        )
    with pytest.raises(SpinnerError) as resolve:
        decisions.resolve_conflict(match=match_at(rnd, 1), side=0, reason="left", actor=director)
    assert override.value.code == resolve.value.code == "round_not_published"
    assert not MatchResult.objects.filter(match__round=rnd).exists()


def test_the_api_refuses_results_on_a_draft_round_with_a_clear_code() -> None:
    event = make_event("draft-api")
    director = make_director(event)
    rnd = make_round(event)
    table = table_client(rnd, 1)
    match = match_at(rnd, 1)
    _as_draft(rnd)
    body = {"side": 0, "sheet": sheet("tally")}
    # A table link works only while its round is open: on a draft it is refused at the door.
    assert_error(post(table, f"/api/matches/{match.pk}/claims/", body), 401, "table_link_expired")
    with pytest.raises(SpinnerError) as direct:
        claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    assert direct.value.code == "round_not_open"
    refused = post(
        user_client(director),
        f"/api/matches/{match.pk}/override/",
        {"sheet": sheet("tally"), "reason": "arbiter"},
    )
    assert_error(refused, 403, "round_not_published")
    assert not Claim.objects.filter(match=match).exists()
    assert not MatchResult.objects.filter(match=match).exists()


def test_a_published_round_takes_results_again() -> None:
    event = make_event("draft-published")
    director = make_director(event)
    rnd = _as_draft(make_round(event))
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.PUBLISHED)
    result = decisions.override_result(
        match=match_at(rnd, 1), reason="arbiter", actor=director, sheet=sheet("tally")
    )
    assert result.version == 1 and result.is_current


def test_a_round_with_claims_is_not_discarded() -> None:
    event = make_event("draft-discard")
    director = make_director(event)
    rnd = make_round(event)
    claim = claims.submit_claim(match=match_at(rnd, 1), side=0, sheet=sheet("tally")).claim
    _as_draft(rnd)
    with pytest.raises(SpinnerError) as refused:
        round_edits.discard_draft_round(round=rnd, reason="again", actor=director)
    assert refused.value.code == "round_has_results"
    assert Round.objects.filter(pk=rnd.pk).exists()
    assert Claim.objects.filter(pk=claim.pk).exists()
    assert not AuditEntry.objects.filter(action="round.discard").exists()


def test_an_empty_draft_round_is_still_discarded() -> None:
    event = make_event("draft-empty")
    director = make_director(event)
    rnd = _as_draft(make_round(event))
    round_edits.discard_draft_round(round=rnd, reason="again", actor=director)
    assert not Round.objects.filter(pk=rnd.pk).exists()
    assert AuditEntry.objects.filter(action="round.discard").count() == 1
