"""The table, match, claim, round and job endpoints' cells of the role x endpoint matrix
(``test_api_permissions``): each endpoint's setup, its call and the status every role gets.
The events, entries, audit and player edits: ``api_matrix_events``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework.test import APIClient

from tests.tournaments.api_support import post
from tests.tournaments.results_support import sheet
from tournaments.models import BackgroundJob, Event, Match, Round
from tournaments.services import claims

# An object the caller may not see is a 404, as if it did not exist (as the pages answer);
# a 403 only says what the caller is (a table token on a director endpoint, a director
# submitting a claim, read-only staff changing something).
NOT_YOURS = 404


def _claimed(match: Match) -> None:
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"))


def conflict(match: Match) -> None:
    _claimed(match)
    claims.submit_claim(match=match, side=1, sheet=sheet("nodeal"))


def _confirmed(match: Match) -> None:
    _claimed(match)
    claims.submit_claim(match=match, side=1, sheet=sheet("tally"))


def _nothing(match: Match) -> None:
    return None


def _all_confirmed(match: Match) -> None:
    """Every match of the round confirmed: the round may close."""
    for each in Match.objects.filter(round=match.round_id).select_related("round__event"):
        _confirmed(each)


def _timed(match: Match) -> None:
    """The event has a time limit: the round's clock may start."""
    Event.objects.filter(pk=match.round.event_id).update(round_minutes=30)


def _job(match: Match) -> None:
    """A generation job of the event (done, as the worker leaves it)."""
    BackgroundJob.objects.create(
        event_id=match.round.event_id,
        kind="generate_round",
        status=BackgroundJob.Status.DONE,
        progress=100,
        result={"round": match.round.number},
    )


def _rounds(r: Round, path: str = "") -> str:
    return f"/api/events/{r.event.slug}/{path}"


Setup = Callable[[Match], None]
Call = Callable[[APIClient, Match, Round], Any]

# endpoint: (setup, call, {role: expected status})
ENDPOINTS: dict[str, tuple[Setup, Call, dict[str, int]]] = {
    "table": (
        _nothing,
        lambda c, m, r: c.get("/api/table/"),
        {
            "table_a": 200,
            "table_b": 200,
            "table_other_round": 200,  # its own table and round
            "table_other_event": 200,
            "other_director": 403,
            "director": 403,
        },
    ),
    "match_detail": (
        _nothing,
        lambda c, m, r: c.get(f"/api/matches/{m.pk}/"),
        {
            "table_a": 200,
            "table_b": NOT_YOURS,
            "table_other_round": NOT_YOURS,
            "table_other_event": NOT_YOURS,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    "verify": (
        _nothing,
        lambda c, m, r: post(c, f"/api/matches/{m.pk}/verify/", {"sheet": sheet("tally")}),
        {
            "table_a": 200,
            "table_b": NOT_YOURS,
            "table_other_round": NOT_YOURS,
            "table_other_event": NOT_YOURS,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    "claims_list": (
        _claimed,
        lambda c, m, r: c.get(f"/api/matches/{m.pk}/claims/"),
        {
            "table_a": 200,
            "table_b": NOT_YOURS,
            "table_other_round": NOT_YOURS,
            "table_other_event": NOT_YOURS,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    "claims_submit": (
        _nothing,
        lambda c, m, r: post(
            c, f"/api/matches/{m.pk}/claims/", {"side": 0, "sheet": sheet("tally")}
        ),
        {
            "table_a": 201,
            "table_b": NOT_YOURS,
            "table_other_round": NOT_YOURS,
            "table_other_event": NOT_YOURS,
            "other_director": 403,
            "director": 403,
        },
    ),
    "confirm": (
        _claimed,
        lambda c, m, r: post(c, f"/api/matches/{m.pk}/confirm/", {"side": 1}, If_Match='"1"'),
        {
            "table_a": 403,
            "table_b": NOT_YOURS,
            "table_other_round": NOT_YOURS,
            "table_other_event": NOT_YOURS,
            "other_director": 403,
            "director": 403,
        },
    ),
    "resolve": (
        conflict,
        lambda c, m, r: post(c, f"/api/matches/{m.pk}/resolve/", {"side": 0, "reason": "ok"}),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 201,
        },
    ),
    "override": (
        _nothing,
        lambda c, m, r: post(
            c, f"/api/matches/{m.pk}/override/", {"final_score": {"scores": [5, 0]}, "reason": "x"}
        ),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 201,
        },
    ),
    "correct": (
        _confirmed,
        lambda c, m, r: post(
            c,
            f"/api/matches/{m.pk}/correct/",
            {"final_score": {"scores": [5, 0]}, "reason": "x"},
            If_Match='"1"',
        ),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 201,
        },
    ),
    "round_matches": (
        _nothing,
        lambda c, m, r: c.get(f"/api/events/{r.event.slug}/rounds/{r.number}/matches/"),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    "round_claims": (
        _claimed,
        lambda c, m, r: c.get(f"/api/events/{r.event.slug}/rounds/{r.number}/claims/"),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    "revoke_links": (
        _nothing,
        lambda c, m, r: post(
            c, f"/api/events/{r.event.slug}/rounds/{r.number}/revoke-links/", {"reason": "x"}
        ),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    # The event's export: directors' (and staff's) only; a table link is no credential there.
    "export": (
        _nothing,
        lambda c, m, r: c.get(f"/api/events/{r.event.slug}/export/"),
        {
            "table_a": 401,
            "table_b": 401,
            "table_other_round": 401,
            "table_other_event": 401,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    # The director's rounds, jobs, play-off and finish (issue 19): the event's directors
    # (and superusers) only; a refusal by the service (409) says the request got that far.
    "round_list": (
        _nothing,
        lambda c, m, r: c.get(_rounds(r, "rounds/")),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    "round_detail": (
        _nothing,
        lambda c, m, r: c.get(_rounds(r, "rounds/1/")),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    "round_generate": (
        _nothing,
        lambda c, m, r: post(c, _rounds(r, "rounds/generate/"), {"kind": "next"}),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 409,
        },
    ),
    "job_detail": (
        _job,
        lambda c, m, r: c.get(_rounds(r, f"jobs/{BackgroundJob.objects.get(event=r.event).pk}/")),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    "round_swap": (
        _nothing,
        lambda c, m, r: post(
            c, _rounds(r, "rounds/1/swap/"), {"tables": [1, 2], "reason": "access"}
        ),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 409,
        },
    ),
    "round_action": (
        _all_confirmed,
        lambda c, m, r: post(c, _rounds(r, "rounds/1/close/"), {}),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    "round_clock": (
        _timed,
        lambda c, m, r: post(c, _rounds(r, "rounds/1/clock/start/"), {}),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    "playoff_advance": (
        _nothing,
        lambda c, m, r: post(c, _rounds(r, "playoff/advance/"), {}),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 409,
        },
    ),
    "round_links": (
        _nothing,
        lambda c, m, r: c.get(_rounds(r, "rounds/1/links/")),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    "finish_check": (
        _nothing,
        lambda c, m, r: c.get(_rounds(r, "finish/")),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    "finish": (
        _nothing,
        lambda c, m, r: post(c, _rounds(r, "finish/"), {}),
        {
            "table_a": 403,
            "table_b": 403,
            "table_other_round": 403,
            "table_other_event": 403,
            "other_director": NOT_YOURS,
            "director": 409,
        },
    ),
    # Players (public reads): the match's first player, of an unlisted event ("home" is not
    # listed), so only those who oversee the event see the player; the search answers everyone.
    "player_detail": (
        _nothing,
        lambda c, m, r: c.get(f"/api/players/{m.entry_a.members.first().player_id}/"),
        {
            "anonymous": NOT_YOURS,
            "table_a": NOT_YOURS,
            "table_b": NOT_YOURS,
            "table_other_round": NOT_YOURS,
            "table_other_event": NOT_YOURS,
            "other_director": NOT_YOURS,
            "director": 200,
        },
    ),
    "player_list": (
        _nothing,
        lambda c, m, r: c.get("/api/players/", {"q": "R1T1A"}),
        {
            "anonymous": 200,
            "table_a": 200,
            "table_b": 200,
            "table_other_round": 200,
            "table_other_event": 200,
            "other_director": 200,
            "director": 200,
        },
    ),
}
