"""Bracket progression played to the champion on plain records, and the bracket checker."""

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    Bracket,
    BracketTable,
    Decision,
    SeedSlot,
    WinnerOf,
    bracket_progress,
    check_bracket,
    double_elimination,
    single_elimination,
)
from tournaments.pairing.brackets import LoserOf
from tournaments.pairing.progression import downstream, placings, resolve

RANKING = list(range(2001, 2101))  # entry ids; entry 2001 ranks first (seed 1)

KINDS = [
    ("single", None),
    ("single", "third_place"),
    ("single", "first_round_losers"),
    ("double", True),
    ("double", False),
]


def make(kind: str, option: object, q: int) -> Bracket:
    if kind == "single":
        return single_elimination(RANKING, qualifiers=q, consolation=option)  # type: ignore[arg-type]
    return double_elimination(RANKING, qualifiers=q, reset=bool(option))


def play_out(
    bracket: Bracket, rng: random.Random, *, favourites: bool = False
) -> tuple[dict[str, Decision], list[BracketTable], list[set[str]]]:
    """Play the bracket to the end, deciding a random subset of the ready matches at each step
    (so matches are played as soon as their feeders are done, never a whole round at once).
    Returns the decisions, the tables as they were set, and the ready sets seen."""
    decisions: dict[str, Decision] = {}
    tables: list[BracketTable] = []
    seen: list[set[str]] = []
    step = 0
    seed_of = {e: s for s, e in enumerate(bracket.seeds, start=1)}
    while True:
        progress = bracket_progress(bracket, decisions)
        if progress.finished:
            return decisions, tables, seen
        ready = list(progress.ready)
        assert ready, "an unfinished bracket always has a ready match"
        seen.append(set(ready))
        step += 1
        chosen = ready if favourites else rng.sample(ready, rng.randint(1, len(ready)))
        for table, match_id in enumerate(sorted(chosen), start=1):
            state = progress.state(match_id)
            pair = state.entries
            assert pair is not None
            a, b = pair
            w = min(pair, key=seed_of.__getitem__) if favourites else rng.choice(pair)
            forfeit = rng.random() < 0.1
            decisions[match_id] = Decision(w, forfeit=forfeit)
            tables.append(BracketTable(step, table, match_id, a, b, winner=w, forfeit=forfeit))


@pytest.mark.parametrize(
    ("kind", "option", "q"),
    [(k, o, q) for k, o in KINDS for q in range(2, 65) if not (k == "double" and q < 3)],
)
def test_brackets_played_to_the_champion(kind: str, option: object, q: int) -> None:
    bracket = make(kind, option, q)
    rng = random.Random(q * 31 + len(str(option)))
    for trial in range(2):
        decisions, tables, _ = play_out(bracket, rng, favourites=trial == 0)
        progress = bracket_progress(bracket, decisions)
        qualifiers = set(RANKING[:q])
        bye_entries = {bracket.seeds[s - 1] for s in bracket.byes}
        # every feeder resolved, to the right entries (recomputed here from the decisions)
        for m in progress.matches:
            match = bracket.match(m.match_id)
            if m.status == "skipped":
                continue
            assert m.status == "decided" and m.entry_a is not None and m.entry_b is not None
            for slot, e in ((match.slot_a, m.entry_a), (match.slot_b, m.entry_b)):
                if isinstance(slot, SeedSlot):
                    assert e == RANKING[slot.seed - 1]
                else:
                    feeder = progress.state(slot.match_id)
                    assert e == (feeder.winner if isinstance(slot, WinnerOf) else feeder.loser)
            assert {m.winner, m.loser} == {m.entry_a, m.entry_b}
        # byes never at a table: a bye seed first sits down in round 2 or later
        for t in tables:
            match = bracket.match(t.match_id)
            if match.section == "winners" and match.round_no == 1:
                assert not bye_entries & {t.entry_a, t.entry_b}
        # eliminations
        main = ("winners",) if kind == "single" else ("winners", "losers", "final")
        losses = Counter(
            m.loser for m in progress.matches if m.status == "decided" and m.section in main
        )
        champion = progress.champion
        assert champion is not None and losses[champion] <= (0 if kind == "single" else 1)
        for e in qualifiers - {champion}:
            if kind == "single":
                assert losses[e] == 1, e
            elif option is False and e == progress.runner_up and losses[e] == 1:
                assert progress.state("GF").loser == e  # no reset: lost GF with one loss
            else:
                assert losses[e] == 2, e
        # the reset is played exactly when the losers' champion won GF
        if kind == "double" and option:
            gf = progress.state("GF")
            assert progress.reset_needed == (gf.winner == gf.entry_b)
            assert (progress.state("GF2").status == "decided") == progress.reset_needed
        # placings: a permutation of the qualifiers, champion first, runner-up second
        order = [p.entry_id for p in progress.placings]
        assert sorted(order) == sorted(qualifiers)
        assert order[0] == champion and order[1] == progress.runner_up
        assert [p.place for p in progress.placings] == list(range(1, q + 1))
        if kind == "single" and option == "third_place" and q >= 4:
            third = progress.state("3P")
            assert order[2:4] == [third.winner, third.loser]
        if trial == 0:  # favourites win: the placings are the seeding
            assert order == RANKING[:q]
        # the independent checker agrees the bracket was played cleanly
        assert check_bracket(bracket, tables) == []


def test_matches_are_ready_as_soon_as_their_feeders_are_decided() -> None:
    b = single_elimination(RANKING, qualifiers=8)
    p = bracket_progress(b, {"W1-1": Decision(2001), "W1-2": Decision(2005)})
    assert p.ready == ("W1-3", "W1-4", "W2-1")  # the semi-final need not wait for W1-3, W1-4
    assert p.state("W2-1").entries == (2001, 2005)
    assert p.state("W2-2").status == "waiting" and p.state("W2-2").entry_a is None
    assert not p.finished and p.champion is None and p.placings == ()


def test_byes_advance_without_a_table() -> None:
    b = single_elimination(RANKING, qualifiers=5)  # seeds 1, 2, 3 have byes
    p = bracket_progress(b, {})
    # 4 v 5 is the only first-round table; seeds 3 and 2 both had byes and meet at once
    assert p.ready == ("W1-1", "W2-2")
    assert p.state("W1-1").entries == (2004, 2005)
    assert p.state("W2-2").entries == (2003, 2002)
    w21 = p.state("W2-1")
    assert (w21.entry_a, w21.entry_b, w21.status) == (2001, None, "waiting")


def test_grand_final_reset_only_when_the_losers_champion_wins() -> None:
    b = double_elimination(RANKING, qualifiers=4)
    base = resolve(b, {})
    ids = [m.match_id for m in base]
    assert ids[-2:] == ["GF", "GF2"]
    # favourites through the brackets: seed 1 (2001) from the winners', seed 2 from the losers'
    decisions: dict[str, Decision] = {}
    while True:
        p = bracket_progress(b, decisions)
        if "GF" in p.ready:
            break
        for match_id in p.ready:
            pair = p.state(match_id).entries
            assert pair is not None
            decisions[match_id] = Decision(min(pair))
    assert p.state("GF").entries == (2001, 2002) and p.reset_needed is None
    won = bracket_progress(b, {**decisions, "GF": Decision(2001)})
    assert won.reset_needed is False and won.finished and won.champion == 2001
    assert won.state("GF2").status == "skipped"
    with pytest.raises(ValueError, match="GF2 is not played"):
        bracket_progress(b, {**decisions, "GF": Decision(2001), "GF2": Decision(2001)})
    lost = bracket_progress(b, {**decisions, "GF": Decision(2002, forfeit=True)})
    assert lost.reset_needed is True and not lost.finished and lost.champion is None
    assert lost.ready == ("GF2",) and lost.state("GF").forfeit
    done = bracket_progress(b, {**decisions, "GF": Decision(2002), "GF2": Decision(2002)})
    assert done.champion == 2002 and done.runner_up == 2001
    assert [x.entry_id for x in done.placings][:2] == [2002, 2001]


def test_placings_without_a_third_place_match_can_share_places() -> None:
    b = single_elimination(RANKING, qualifiers=8)
    decisions, _, _ = play_out(b, random.Random(1), favourites=True)
    strict = bracket_progress(b, decisions).placings
    assert [(x.place, x.entry_id) for x in strict] == list(enumerate(RANKING[:8], start=1))
    shared = bracket_progress(b, decisions, shared=True).placings
    assert [x.place for x in shared] == [1, 2, 3, 3, 5, 5, 5, 5]
    assert [x.shared for x in shared] == [False, False] + [True] * 6
    assert [x.eliminated_in for x in shared][:4] == [None, "W3-1", "W2-2", "W2-1"]


def test_placings_order_within_a_round_by_consolation_then_seed() -> None:
    b = single_elimination(RANKING, qualifiers=8, consolation="first_round_losers")
    decisions, _, _ = play_out(b, random.Random(1), favourites=True)
    # first-round losers 8, 5, 6, 7 play C1-1 (8 v 5) and C1-2 (6 v 7); the favourites 5 and 6
    # meet in the consolation final, and here the underdog 6 wins it
    consolation_final = [m for r in b.rounds if r.section == "consolation" for m in r.matches][-1]
    p = bracket_progress(b, decisions)
    final_pair = p.state(consolation_final.match_id).entries
    assert final_pair is not None and set(final_pair) == {2005, 2006}
    decisions[consolation_final.match_id] = Decision(2006)
    order = [x.entry_id for x in bracket_progress(b, decisions).placings]
    assert order[4:] == [2006, 2005, 2007, 2008]


def test_double_elimination_placings_by_the_losers_round_reached() -> None:
    b = double_elimination(RANKING, qualifiers=8)
    decisions, _, _ = play_out(b, random.Random(1), favourites=True)
    p = bracket_progress(b, decisions, shared=True)
    assert [(x.place, x.entry_id) for x in p.placings] == [
        (1, 2001),
        (2, 2002),
        (3, 2003),
        (4, 2004),
        (5, 2005),
        (5, 2006),
        (7, 2007),
        (7, 2008),
    ]
    assert p.placings[2].eliminated_in == "L4-1"


def test_progress_with_seeds_given_apart_from_the_bracket() -> None:
    b = single_elimination(RANKING, qualifiers=2)
    p = bracket_progress(b, {"W1-1": Decision(7)}, seeds=[7, 9])
    assert p.champion == 7 and [x.entry_id for x in p.placings] == [7, 9]
    with pytest.raises(ValueError, match="one distinct entry per seed"):
        bracket_progress(b, {}, seeds=[7])


def test_bad_decisions_fail_loudly() -> None:
    b = single_elimination(RANKING, qualifiers=4)
    with pytest.raises(ValueError, match="unknown bracket match"):
        bracket_progress(b, {"W9-9": Decision(2001)})
    with pytest.raises(ValueError, match="not both known"):
        bracket_progress(b, {"W2-1": Decision(2001)})
    with pytest.raises(ValueError, match="is not entry"):
        bracket_progress(b, {"W1-1": Decision(2002)})
    with pytest.raises(ValueError, match="not finished"):
        placings(b, resolve(b, {}))


# --- the bracket checker -----------------------------------------------------------------------


def clean_tables(bracket: Bracket) -> list[BracketTable]:
    _, tables, _ = play_out(bracket, random.Random(5), favourites=True)
    return tables


def codes(bracket: Bracket, tables: list[BracketTable]) -> set[str]:
    return {v.code for v in check_bracket(bracket, tables)}


def test_the_checker_finds_a_wrong_feeder_and_an_unknown_match() -> None:
    b = single_elimination(RANKING, qualifiers=8)
    tables = clean_tables(b)
    assert check_bracket(b, tables) == []
    i = next(i for i, t in enumerate(tables) if t.match_id == "W2-1")
    wrong = list(tables)
    wrong[i] = replace(tables[i], entry_b=2003)  # 2003 is in the other half
    found = check_bracket(b, wrong)
    assert "feeder" in {v.code for v in found}
    v = next(v for v in found if v.code == "feeder")
    assert v.table == tables[i].table and v.round_no == tables[i].round_no
    assert "W2-1" in str(v)
    assert codes(b, [*tables, replace(tables[0], match_id="W7-1")]) == {"unknown_match"}
    assert codes(b, [*tables, replace(tables[0], round_no=99)]) == {"duplicate"}
    overridden = list(wrong)
    overridden[i] = replace(wrong[i], override="seat swap agreed")
    found = check_bracket(b, overridden)
    assert "feeder" not in {v.code for v in found}
    assert any(v.code == "override" and "seat swap agreed" in v.message for v in found)


def test_the_checker_finds_a_bye_at_a_table_and_a_match_tabled_too_early() -> None:
    b = single_elimination(RANKING, qualifiers=6)  # seeds 1 and 2 have byes
    bye_at_table = [BracketTable(1, 1, "W1-1", 2001, 2006)]
    assert {"bye", "feeder"} <= codes(b, bye_at_table)
    early = [BracketTable(1, 1, "W2-1", 2001, 2005)]
    assert codes(b, early) == {"not_ready"}


def test_the_checker_counts_eliminations() -> None:
    single = single_elimination(RANKING, qualifiers=4)
    again = [
        BracketTable(1, 1, "W1-1", 2001, 2004, winner=2001),
        BracketTable(1, 2, "W1-2", 2002, 2003, winner=2002),
        BracketTable(2, 1, "W2-1", 2004, 2002, winner=2002),  # 2004 was out
    ]
    assert {"feeder", "eliminated_twice"} <= codes(single, again)
    assert "winner" in codes(single, [replace(again[0], winner=2003)])
    double = double_elimination(RANKING, qualifiers=4)
    tables = clean_tables(double)
    assert check_bracket(double, tables) == []
    gf = next(t for t in tables if t.match_id == "GF")
    extra_reset = codes(double, [*tables, replace(gf, match_id="GF2", round_no=99)])
    assert {"reset_not_needed", "eliminated_twice"} <= extra_reset
    # an unfinished bracket is not asked for two losses each; a finished one is
    partial = [t for t in tables if t.match_id != "GF"]
    assert check_bracket(double, partial) == []
    assert codes(double, [t for t in tables if not t.match_id.startswith("L")]) == {"not_ready"}


def test_the_loser_slots_of_a_third_place_match_resolve() -> None:
    b = single_elimination(RANKING, qualifiers=4, consolation="third_place")
    third = b.match("3P")
    assert isinstance(third.slot_a, LoserOf)
    p = bracket_progress(b, {"W1-1": Decision(2004), "W1-2": Decision(2002)})
    assert p.state("3P").entries == (2001, 2003) and "3P" in p.ready


@st.composite
def partly_played(draw: st.DrawFn) -> tuple[Bracket, list[BracketTable]]:
    """A random bracket, played for a random number of steps (random winners and forfeits)."""
    kind, option = draw(st.sampled_from(KINDS))
    q = draw(st.integers(min_value=3, max_value=40))
    bracket = make(kind, option, q)
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32)))
    steps = draw(st.integers(min_value=1, max_value=30))
    decisions: dict[str, Decision] = {}
    tables: list[BracketTable] = []
    for step in range(1, steps + 1):
        progress = bracket_progress(bracket, decisions)
        if progress.finished:
            break
        for table, match_id in enumerate(progress.ready, start=1):
            pair = progress.state(match_id).entries
            assert pair is not None
            w = rng.choice(pair)
            decisions[match_id] = Decision(w, forfeit=rng.random() < 0.2)
            tables.append(BracketTable(step, table, match_id, *pair, winner=w))
    return bracket, tables


@settings(max_examples=150, deadline=None)
@given(partly_played(), st.data())
def test_the_checker_accepts_any_bracket_in_play_and_finds_a_planted_entry(
    played: tuple[Bracket, list[BracketTable]], data: st.DataObject
) -> None:
    bracket, tables = played
    assert check_bracket(bracket, tables) == []
    i = data.draw(st.integers(min_value=0, max_value=len(tables) - 1))
    t = tables[i]
    outsider = data.draw(
        st.sampled_from([e for e in bracket.seeds if e not in (t.entry_a, t.entry_b)])
    )
    planted = list(tables)
    planted[i] = replace(t, entry_b=outsider, winner=t.entry_a)
    found = check_bracket(bracket, planted)
    assert any(v.code == "feeder" and v.table == t.table for v in found), found


def test_downstream_lists_what_a_correction_puts_in_question() -> None:
    b = double_elimination(RANKING, qualifiers=4)
    assert downstream(b, "GF") == ("GF2",)
    assert downstream(b, "W2-1") == ("L2-1", "GF", "GF2")  # the winners final drops to L2-1
    every = {m.match_id for r in b.rounds for m in r.matches}
    assert set(downstream(b, "W1-1")) == every - {"W1-1", "W1-2"}
    with pytest.raises(KeyError):
        downstream(b, "W9-1")
