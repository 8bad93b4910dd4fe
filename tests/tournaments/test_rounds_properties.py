"""Property: whatever the field and its changes between rounds, every round the service writes
is accepted by the independent checker and seats each active entry exactly once."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.rounds_factory import make_director, make_event, make_field, settle_round
from tournaments.models import Entry, RoundSeat
from tournaments.selectors import rounds as selectors
from tournaments.services import round_generation, round_status

pytestmark = pytest.mark.django_db

_events = itertools.count(1)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    size=st.integers(min_value=2, max_value=13),
    rounds=st.integers(min_value=1, max_value=4),
    withdrawals=st.lists(st.integers(min_value=0, max_value=12), max_size=3),
    salt=st.text(alphabet="abcdef0123456789", min_size=1, max_size=12),
)
def test_every_generated_round_passes_the_checker(
    size: int, rounds: int, withdrawals: list[int], salt: str
) -> None:
    n = next(_events)
    event = make_event(slug=f"prop-{n}", salt=salt, swiss_rounds=rounds)
    boss = make_director(event, f"boss-{n}")
    entries = make_field(event, size)
    for number in range(1, rounds + 1):
        active = set(
            Entry.objects.filter(event=event, status=Entry.Status.CHECKED_IN).values_list(
                "pk", flat=True
            )
        )
        if len(active) < 2:
            break
        rnd = round_generation.generate_round(event=event, actor=boss)
        assert rnd.number == number
        seated = list(RoundSeat.objects.filter(round=rnd).values_list("entry_id", flat=True))
        assert sorted(seated) == sorted(active)
        assert selectors.check_round_record(rnd) == []
        round_status.publish_round(round=rnd, actor=boss)
        settle_round(rnd, boss)
        round_status.close_round(round=rnd, actor=boss)
        if withdrawals:  # someone leaves before the next round
            gone = entries[withdrawals.pop() % size]
            Entry.objects.filter(pk=gone.pk).update(status=Entry.Status.WITHDRAWN)
