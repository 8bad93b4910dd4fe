"""Rounds with no rematch-free pairing: the fewest rematches, found without the dense graph.

Histories are forced: a simulated Swiss event, then some entries made to have met (nearly)
everyone. ``rematches.hard_entries`` certifies the most rematch-free pairs; ``pair_swiss``
then matches on a window plus every pair of the hard entries. Every round is compared with the
dense reference (``SwissOptions(dense=True)``: the complete graph, exact) and re-checked by the
independent checker. The 2,000-entry timing is in ``benchmarks/pairing`` (not a timed test).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import EntryRecord, PastMatch, SwissOptions, check_round, pair_swiss
from tournaments.pairing.checker import _opponents, fewest_rematches
from tournaments.pairing.ranking import rank_with_draws
from tournaments.pairing.rematches import hard_entries
from tournaments.pairing.simulate import simulate
from tournaments.pairing.swiss import prepare_field

DENSE = SwissOptions(dense=True)
SALT = "forced"


def forced(
    size: int, rounds: int, seed: int, hard: int, spared: int
) -> tuple[list[EntryRecord], list[PastMatch]]:
    """A simulated event of ``size`` entries after ``rounds`` rounds, where ``hard`` entries
    (drawn from the field) have also met everyone but ``spared`` entries each (drawn too)."""
    entries, history, _ = simulate(size, rounds, seed=seed, salt=SALT)
    rng = random.Random(seed)
    by_id = {e.entry_id: e for e in entries}
    ids = sorted(by_id)
    for x in rng.sample(ids, hard):
        keep = set(rng.sample([i for i in ids if i != x], spared))
        for y in ids:
            if y != x and y not in keep:
                a, b = by_id[x], by_id[y]
                history.append(
                    PastMatch(rounds, a.entry_id, a.player_ids, b.entry_id, b.player_ids)
                )
    return entries, history


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(min_value=6, max_value=35).map(lambda k: 2 * k),  # even: no bye to hide in
    rounds=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=10**6),
    hard=st.integers(min_value=1, max_value=4),
)
def test_rounds_forced_into_rematches_have_the_dense_optimum(
    size: int, rounds: int, seed: int, hard: int
) -> None:
    """Entries that met everyone: the fewest rematches, then the dense optimum's lower tiers
    (the same total weight). (1,952 such rounds of 12 to 120 entries agreed offline too.)"""
    entries, history = forced(size, rounds, seed, hard, 0)
    round_no = rounds + 1
    rp = pair_swiss(entries, history, round_no=round_no, salt=SALT)
    dense = pair_swiss(entries, history, round_no=round_no, salt=SALT, options=DENSE)
    assert rp.rematches == dense.rematches >= 1
    assert rp.total_weight == dense.total_weight
    assert check_round(rp, entries, history) == []


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(min_value=12, max_value=70),
    rounds=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=10**6),
    hard=st.integers(min_value=1, max_value=3),
    spared=st.integers(min_value=1, max_value=3),
)
def test_entries_that_met_nearly_everyone_get_the_fewest_rematches(
    size: int, rounds: int, seed: int, hard: int, spared: int
) -> None:
    """Whether or not a rematch-free pairing exists, the round has the fewest rematches and
    passes the checker. (Its lower tiers are the window's, as in every round: see ``swiss``.)"""
    entries, history = forced(size, rounds, seed, hard, spared)
    round_no = rounds + 1
    rp = pair_swiss(entries, history, round_no=round_no, salt=SALT)
    dense = pair_swiss(entries, history, round_no=round_no, salt=SALT, options=DENSE)
    assert rp.rematches == dense.rematches
    assert check_round(rp, entries, history) == []


@settings(max_examples=100, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=40),
    rounds=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=10**6),
    hard=st.integers(min_value=0, max_value=4),
    spared=st.integers(min_value=0, max_value=4),
)
def test_the_most_rematch_free_pairs_are_the_checkers(
    size: int, rounds: int, seed: int, hard: int, spared: int
) -> None:
    """``hard_entries``'s count, when it gives one, is the dense maximum matching's."""
    entries, history = forced(size, rounds, seed, min(hard, size), min(spared, size - 1))
    active = [e for e in entries if e.active]
    order, _ = rank_with_draws(active, salt=SALT, round_no=rounds + 1)
    field = prepare_field(entries, history, order, SwissOptions())
    found = hard_entries(field.met, field.bye_cost if field.bye_node is not None else None)
    if found.most_pairs is not None:
        fewest = fewest_rematches(active, _opponents(history))
        assert field.nodes // 2 - found.most_pairs == fewest


@pytest.mark.parametrize(("size", "hard"), [(300, 1), (301, 2), (300, 3)])
def test_a_few_hundred_entries_forced_into_rematches(size: int, hard: int) -> None:
    """Entries that met everyone: each must meet someone again (two of them: each other)."""
    entries, history = forced(size, 6, size, hard, 0)
    rp = pair_swiss(entries, history, round_no=7, salt=SALT)
    assert rp.rematches == (hard + 1) // 2
    assert any("the fewest possible" in note for note in rp.notes)
    assert rp.window is not None and rp.window < size - 1  # not the dense graph
    assert check_round(rp, entries, history) == []
    seated = sorted([e for p in rp.pairings for e in (p.entry_a, p.entry_b)])
    seated += [b.entry_id for b in rp.byes]
    assert sorted(seated) == sorted(e.entry_id for e in entries)
