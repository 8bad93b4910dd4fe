"""Bounded storage per table and per event (issue 15): a side keeps at most so many drafts and
versions of its claim, and the director's board costs the same whatever the drafts kept."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models.signals import post_init
from django.test.utils import CaptureQueriesContext

from tests.tournaments.api_support import assert_error, post, table_client, user_client
from tests.tournaments.results_support import make_director, make_event, make_round, match_at, sheet
from tournaments.errors import SpinnerError
from tournaments.models import Claim, Match
from tournaments.selectors import results as selectors
from tournaments.services import claims

pytestmark = pytest.mark.django_db


def _draft(n: int) -> dict[str, Any]:
    """An invalid sheet, a different one for each ``n`` (a wrong score: never a multiple of 5)."""
    wrong = sheet("tally-mut")
    wrong["hands"][0]["tally"][0]["score"] = 5 * n + 1
    return wrong


def _send_drafts(match: Match, side: int, count: int) -> int | None:
    version = Claim.objects.filter(match=match, side=side).order_by("-version").first()
    expected = version.version if version is not None else None
    for n in range(count):
        out = claims.submit_claim(
            match=match, side=side, sheet=_draft(n), expected_version=expected
        )
        assert out.created and out.claim.status == Claim.Status.DRAFT
        expected = out.claim.version
    return expected


def test_a_side_keeps_at_most_the_capped_drafts_and_loses_nothing() -> None:
    event = make_event("cap-drafts")
    rnd = make_round(event)
    match = match_at(rnd, 1)
    last = _send_drafts(match, 0, claims.MAX_DRAFTS_PER_SIDE)
    table = table_client(rnd, 1)
    refused = post(
        table,
        f"/api/matches/{match.pk}/claims/",
        {"side": 0, "sheet": _draft(999)},
        **{"If-Match": f'"{last}"'},
    )
    body = assert_error(refused, 409, "claim_limit_reached")
    assert body["details"] == {"limit": claims.MAX_DRAFTS_PER_SIDE, "of": "drafts"}
    drafts = Claim.objects.filter(match=match, side=0, status=Claim.Status.DRAFT)
    assert drafts.count() == claims.MAX_DRAFTS_PER_SIDE  # nothing lost, nothing more kept
    # The finished sheet is still taken, and the other side's confirmation too.
    done = post(
        table,
        f"/api/matches/{match.pk}/claims/",
        {"side": 0, "sheet": sheet("tally")},
        **{"If-Match": f'"{last}"'},
    )
    assert done.status_code == 201, done.content
    assert done.json()["claim"]["status"] == "submitted"
    version = done.json()["claim"]["version"]
    confirmed = post(
        table_client(rnd, 1, side=1),
        f"/api/matches/{match.pk}/confirm/",
        {"side": 1},
        **{"If-Match": f'"{version}"'},
    )
    assert confirmed.status_code == 201, confirmed.content
    assert confirmed.json()["match"]["state"] == "confirmed"


def test_a_side_keeps_at_most_the_capped_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(claims, "MAX_VERSIONS_PER_SIDE", 4)
    match = match_at(make_round(make_event("cap-versions")), 1)
    expected = None
    for n in range(4):  # alternate a draft and the finished sheet: every one a new version
        body = _draft(n) if n % 2 == 0 else sheet("tally")
        expected = claims.submit_claim(
            match=match, side=0, sheet=body, expected_version=expected
        ).claim.version
    with pytest.raises(SpinnerError) as refused:
        claims.submit_claim(match=match, side=0, sheet=_draft(9), expected_version=expected)
    assert refused.value.code == "claim_limit_reached"
    assert refused.value.details == {"limit": 4, "of": "versions"}
    assert Claim.objects.filter(match=match, side=0).count() == 4


def _board_cost(slug: str, drafts_per_side: list[int]) -> tuple[int, int, Any]:
    """A round of two tables where each side first sends ``drafts_per_side[i]`` drafts, then
    the finished sheet: the board's queries, the claim rows it reads, and its states."""
    event = make_event(slug)
    director = make_director(event, f"{slug}-dir")
    rnd = make_round(event)
    sides = [(match_at(rnd, t), s) for t in (1, 2) for s in (0, 1)]
    for (match, side), count in zip(sides, drafts_per_side, strict=True):
        last = _send_drafts(match, side, count)
        claims.submit_claim(match=match, side=side, sheet=sheet("tally"), expected_version=last)
    loaded: list[Claim] = []

    def count(sender: Any, instance: Claim, **kwargs: Any) -> None:
        loaded.append(instance)

    client = user_client(director)
    post_init.connect(count, sender=Claim)
    try:
        with CaptureQueriesContext(connection) as queries:
            board = client.get(f"/api/events/{slug}/rounds/{rnd.number}/matches/")
            boards = selectors.round_board(rnd)
    finally:
        post_init.disconnect(count, sender=Claim)
    assert board.status_code == 200, board.content
    return len(queries), len(loaded), [(m["state"], len(boards)) for m in board.json()]


def test_the_directors_board_costs_the_same_with_0_and_50_drafts() -> None:
    none = _board_cost("board-none", [0, 0, 0, 0])
    fifty = _board_cost("board-fifty", [13, 13, 12, 12])
    assert Claim.objects.filter(status=Claim.Status.DRAFT).count() == 50
    assert fifty == none
    queries, rows, states = none
    assert queries <= 12  # authentication, the round, the board's three reads, the selector's
    assert rows == 2 * 4  # each side's current claim, once for the API and once for the selector
    assert states == [("confirmed", 2), ("confirmed", 2)]


def test_the_round_claims_list_still_has_every_version() -> None:
    event = make_event("claims-list")
    director = make_director(event)
    rnd = make_round(event)
    match = match_at(rnd, 1)
    last = _send_drafts(match, 0, 3)
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"), expected_version=last)
    listed = user_client(director).get(f"/api/events/{event.slug}/rounds/1/claims/")
    assert [(c["side"], c["version"]) for c in listed.json()] == [(0, v) for v in (1, 2, 3, 4)]
    assert selectors.match_board(match.pk) is not None
    assert len(selectors.match_board(match.pk).history) == 4  # type: ignore[union-attr]
