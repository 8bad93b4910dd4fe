"""The pairing's records agree with the published standings: one match-points arithmetic."""

from __future__ import annotations

import pytest

from tests.tournaments.rounds_factory import make_director, make_entry, make_event
from tournaments.errors import SpinnerError
from tournaments.models import Match, Round
from tournaments.selectors import pairing_inputs
from tournaments.selectors.standings import latest_standings
from tournaments.services import round_generation, round_status
from tournaments.services.decisions import override_result
from tournaments.services.standings import recompute_standings
from tournaments.standings import parse_number

pytestmark = pytest.mark.django_db


def test_the_pairing_counts_the_margin_bonus_as_the_standings_do() -> None:
    # 1 match point more for winning by 40 displayed points (200 raw pips) or more.
    event = make_event(margin_bonus_points=1, margin_bonus_at=200, swiss_rounds=3)
    boss = make_director(event)
    for n in range(4):
        make_entry(event, f"Side {n}")
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    matches = list(Match.objects.filter(round=rnd, is_bye=False).order_by("table__number"))
    assert len(matches) == 2
    # Table 1: a win by 205 raw (the bonus); table 2: a win by 55 raw (no bonus).
    for match, scores in zip(matches, ([305, 100], [250, 305]), strict=True):
        override_result(match=match, reason="acta", actor=boss, final_score={"scores": scores})
    round_status.close_round(round=rnd, actor=boss)
    recompute_standings(event_id=event.pk, force=True)

    published = {
        row["entry_id"]: parse_number(row["match_points"]) for row in latest_standings(event).rows
    }
    bonus_winner = matches[0].entry_a_id
    assert published[bonus_winner] == event.points_win + 1
    for_pairing = pairing_inputs.results_for_pairing(event)
    assert {e: for_pairing[e].match_points for e in published} == published
    records = {
        e.entry_id: e.match_points for e in pairing_inputs.pairing_inputs(event, round_no=2).entries
    }
    assert records == published


def test_a_swiss_round_is_not_paired_while_the_standings_lag_the_results() -> None:
    event = make_event(swiss_rounds=3)
    boss = make_director(event)
    for n in range(4):
        make_entry(event, f"Side {n}")
    rnd = round_generation.generate_round(event=event, actor=boss)
    round_status.publish_round(round=rnd, actor=boss)
    for match in Match.objects.filter(round=rnd, is_bye=False):
        override_result(match=match, reason="acta", actor=boss, final_score={"scores": [305, 90]})
    round_status.close_round(round=rnd, actor=boss)
    # The results marked the standings dirty; their recompute (after commit) has not run.
    for generate in (round_generation.generate_round, round_generation.start_round_generation):
        with pytest.raises(SpinnerError) as refused:
            generate(event=event, actor=boss)
        assert (refused.value.code, refused.value.status) == ("standings_updating", 409)
    assert not Round.objects.filter(event=event, number=2).exists()
    recompute_standings(event_id=event.pk)
    assert round_generation.generate_round(event=event, actor=boss).number == 2
