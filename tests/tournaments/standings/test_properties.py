"""Properties over random events: order independence, canonical bytes, ranks, a sort oracle."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import (
    TIEBREAKS,
    Entry,
    EntryId,
    PointsConfig,
    Result,
    RoundKind,
    Standings,
    compute_standings,
    find_tiebreak,
)
from tournaments.standings.tallying import id_key

NAMES = sorted(TIEBREAKS)
SCORES = st.one_of(
    st.integers(min_value=0, max_value=400),
    st.integers(min_value=0, max_value=800).map(lambda n: Fraction(n, 2)),
)
OUTCOMES = st.sampled_from(["a", "a", "a", "b", "b", "b", "draw", "forfeit_a", "double"])


@st.composite
def events(draw: st.DrawFn) -> tuple[list[Entry], list[Result], PointsConfig, list[str]]:
    """A random event: entries, Swiss rounds (odd fields get a bye), tiebreak and play-off games."""
    n = draw(st.integers(min_value=1, max_value=9))
    as_str = draw(st.booleans())
    ids: list[EntryId] = [f"e{i}" if as_str else i * 7 for i in range(n)]
    entries = [Entry(e, f"Team {e}") for e in ids]
    results: list[Result] = []
    match_id = 0

    def add(rnd: int, kind: RoundKind, a: EntryId, b: EntryId | None) -> None:
        nonlocal match_id
        match_id += 1
        if b is None:
            results.append(Result(match_id, rnd, kind, a, None, 0, 0, None))
            return
        outcome = draw(OUTCOMES)
        sa, sb = draw(SCORES), draw(SCORES)
        winner = {"a": a, "b": b, "forfeit_a": a}.get(outcome)
        forfeit = outcome in ("forfeit_a", "double")
        results.append(Result(match_id, rnd, kind, a, b, sa, sb, winner, forfeit=forfeit))

    rounds = draw(st.integers(min_value=0, max_value=5))
    for rnd in range(1, rounds + 1):
        kind = draw(st.sampled_from([RoundKind.SWISS, RoundKind.ROUND_ROBIN]))
        order = draw(st.permutations(ids))
        for i in range(0, len(order) - 1, 2):
            add(rnd, kind, order[i], order[i + 1])
        if len(order) % 2:
            add(rnd, kind, order[-1], None)
    for rnd in range(rounds + 1, rounds + 1 + draw(st.integers(min_value=0, max_value=2))):
        kind = draw(st.sampled_from([RoundKind.TIEBREAK, RoundKind.PLAYOFF]))
        players = draw(st.lists(st.sampled_from(ids), unique=True, max_size=4))
        for i in range(0, len(players) - 1, 2):
            add(rnd, kind, players[i], players[i + 1])
        if len(players) % 2:
            add(rnd, kind, players[-1], None)
    points = PointsConfig(
        win=draw(st.sampled_from([2, 3])),
        draw=1,
        loss=draw(st.sampled_from([0, -1])),
        bye=draw(st.sampled_from([1, 2, Fraction(3, 2)])),
        margin_bonus=1,
        margin_threshold=draw(st.sampled_from([None, 100])),
    )
    tiebreaks = list(draw(st.permutations(NAMES)))[: draw(st.integers(0, len(NAMES)))]
    if draw(st.booleans()):
        tiebreaks = ["match_points", *[t for t in tiebreaks if t != "match_points"]]
    if "head_to_head" in tiebreaks and draw(st.booleans()):
        tiebreaks.append("head_to_head")
    return entries, results, points, tiebreaks


@settings(max_examples=150, deadline=None)
@given(data=st.data(), event=events())
def test_standings_do_not_depend_on_input_order(
    data: st.DataObject, event: tuple[list[Entry], list[Result], PointsConfig, list[str]]
) -> None:
    entries, results, points, tiebreaks = event
    first = compute_standings(entries, results, points=points, tiebreaks=tiebreaks)
    again = compute_standings(
        data.draw(st.permutations(entries)),
        data.draw(st.permutations(results)),
        points=points,
        tiebreaks=tiebreaks,
    )
    assert again == first
    assert again.to_json_bytes() == first.to_json_bytes()
    assert Standings.from_json_bytes(first.to_json_bytes()) == first


@settings(max_examples=150, deadline=None)
@given(event=events())
def test_ranks_are_shared_only_by_rows_equal_on_every_key(
    event: tuple[list[Entry], list[Result], PointsConfig, list[str]],
) -> None:
    entries, results, points, tiebreaks = event
    s = compute_standings(entries, results, points=points, tiebreaks=tiebreaks)
    assert sorted(map(str, (r.entry_id for r in s.rows))) == sorted(
        map(str, (e.entry_id for e in entries))
    )
    for i, row in enumerate(s.rows):
        if i == 0:
            assert row.rank == 1
            continue
        previous = s.rows[i - 1]
        if row.rank == previous.rank:
            assert (row.values, row.settlement) == (previous.values, previous.settlement)
            assert id_key(previous.entry_id) < id_key(row.entry_id)  # tied: listed by entry_id
        else:
            assert row.rank == i + 1


def signed(values: Sequence[Any], names: Sequence[str]) -> tuple[Any, ...]:
    return tuple(
        -v if find_tiebreak(name).higher_is_better else v
        for v, name in zip(values, names, strict=True)
    )


@settings(max_examples=150, deadline=None)
@given(event=events())
def test_without_group_tiebreaks_the_order_is_a_plain_sort_of_the_values(
    event: tuple[list[Entry], list[Result], PointsConfig, list[str]],
) -> None:
    entries, results, points, tiebreaks = event
    names = [t for t in tiebreaks if t != "head_to_head"]
    counted = [r for r in results if r.kind is not RoundKind.TIEBREAK]
    s = compute_standings(entries, counted, points=points, tiebreaks=names)
    keys = [signed(r.values, names) for r in s.rows]
    assert keys == sorted(keys)
    for i in range(1, len(keys)):
        assert (s.rows[i].rank == s.rows[i - 1].rank) == (keys[i] == keys[i - 1])
