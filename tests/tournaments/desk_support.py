"""A round in play with one table in each result state, for the desk's tests (unit and e2e)."""

from __future__ import annotations

from django.contrib.auth.models import User

from tests.tournaments.rounds_factory import make_director, make_event, make_field
from tournaments.models import Event, Match, Round
from tournaments.services import claims, decisions, round_generation, round_status


def states_round(slug: str = "open", teams: int = 8) -> tuple[Event, User, Round, dict[str, Match]]:
    """A round in play with one table of each state: conflict, missing, pending, confirmed."""
    event = make_event(slug, allow_final_score_only=True, round_minutes=50)
    boss = make_director(event)
    make_field(event, teams)
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    round_status.start_round(round=rnd, actor=boss)
    tables = list(Match.objects.filter(round=rnd, is_bye=False).order_by("table__number"))
    confirmed, conflict, missing, pending = tables[:4]
    claims.submit_claim(match=conflict, side=0, final_score={"scores": [305, 200]})
    claims.submit_claim(match=conflict, side=1, final_score={"scores": [200, 305]})
    claims.submit_claim(match=pending, side=0, final_score={"scores": [305, 100]})
    decisions.override_result(
        match=confirmed, reason="board count", actor=boss, final_score={"scores": [305, 200]}
    )
    return (
        event,
        boss,
        rnd,
        {"conflict": conflict, "missing": missing, "pending": pending, "confirmed": confirmed},
    )
