"""Play-offs played through to a champion on the real database, through the services."""

from __future__ import annotations

import io
import random
from collections import Counter

import pytest
from django.core.management import call_command

from tests.tournaments.bracket_support import (
    play_to_champion,
    playoff_event,
    seed,
)
from tournaments.models import Match
from tournaments.pairing.progression import Decision, bracket_progress
from tournaments.selectors.bracket import bracket_view, check_playoff
from tournaments.selectors.export import export_event
from tournaments.selectors.rounds import check_rounds

pytestmark = pytest.mark.django_db


def _assert_played_through(event_id: int, winners: dict[str, int], kind: str) -> None:
    event = Match.objects.filter(round__event_id=event_id).first().round.event  # type: ignore[union-attr]
    view = bracket_view(event)
    assert view is not None and view.progress is not None
    progress = view.progress
    assert progress.finished
    # every bracket match was tabled once, with its feeders resolved to entries
    expected = {m.match_id for m in progress.matches if m.status == "decided"}
    assert set(view.tabled) == expected
    assert check_playoff(event) == []
    # the export accounts for every bracket match, its feeders resolved to entries
    exported = export_event(event)["bracket"]
    assert exported["violations"] == [] and exported["champion"] == progress.champion
    for m in exported["matches"]:
        if m["status"] == "decided":
            assert all(slot["entry"] is not None for slot in m["slots"])
            assert m["series"]["winner"] == m["winner"] and m["series"]["games"]
    # the champion is the pure progress's, from our own record of who won
    pure = bracket_progress(view.bracket, {k: Decision(v) for k, v in winners.items()})
    assert progress.champion == pure.champion is not None
    # eliminations: once in single, exactly twice in double (the champion at most once: GF)
    main = ("winners",) if kind == "single" else ("winners", "losers", "final")
    losses: Counter[int] = Counter(
        m.loser for m in progress.matches if m.status == "decided" and m.section in main
    )
    champion = progress.champion
    for entry in view.bracket.seeds:
        if entry == champion:
            assert losses[entry] <= (0 if kind == "single" else 1)
        elif kind == "single":
            assert losses[entry] == 1
        else:  # without a reset, the runner-up may have lost once (in GF)
            reset = any(m.match_id == "GF2" for m in progress.matches)
            one_loss_ok = entry == progress.runner_up and not reset
            assert losses[entry] == 2 or (one_loss_ok and losses[entry] == 1)
    # byes never reach a table: every tabled match has two entries, and seeds with a bye sit at
    # no table in round 1
    first = view.first_round
    bye_entries = {view.bracket.seeds[s - 1] for s in view.bracket.byes}
    tabled_first = set(
        Match.objects.filter(round=first, is_bye=False).values_list("entry_a_id", "entry_b_id")
    )
    assert not bye_entries & {e for pair in tabled_first for e in pair}
    assert not Match.objects.filter(
        round__event_id=event_id, is_bye=True, table__isnull=False
    ).exists()
    # every published round checks clean
    for _, findings in check_rounds(event):
        assert [v for v in findings if v.is_violation] == []


SIZES = [2, 3, 4, 5, 7, 8, 12, 16, 33]
CONSOLATIONS = {
    4: "third_place",
    5: "first_round_losers",
    8: "third_place",
    12: "first_round_losers",
}
"""Single elimination sizes played with a consolation (the others without)."""
NO_RESET = {5, 12}
"""Double elimination sizes played without the grand final's reset."""


@pytest.mark.parametrize("qualifiers", SIZES)
def test_single_elimination_played_to_the_champion(qualifiers: int) -> None:
    consolation = CONSOLATIONS.get(qualifiers, "")
    event, boss, entries = playoff_event(
        f"single-{qualifiers}", qualifiers, playoff_consolation=consolation
    )
    winners = play_to_champion(
        event, boss, seed(event, boss, entries), rng=random.Random(qualifiers)
    )
    _assert_played_through(event.pk, winners, "single")


@pytest.mark.parametrize("qualifiers", [q for q in SIZES if q >= 3])
def test_double_elimination_played_to_the_champion(qualifiers: int) -> None:
    event, boss, entries = playoff_event(
        f"double-{qualifiers}",
        qualifiers,
        playoff="double",
        playoff_reset=qualifiers not in NO_RESET,
    )
    winners = play_to_champion(
        event, boss, seed(event, boss, entries), rng=random.Random(qualifiers)
    )
    _assert_played_through(event.pk, winners, "double")


@pytest.mark.parametrize("kind", ["single", "double"])
def test_sixty_four_qualifiers_played_to_the_champion(kind: str) -> None:
    event, boss, entries = playoff_event(f"{kind}-64", 64, playoff=kind)
    winners = play_to_champion(event, boss, seed(event, boss, entries), rng=random.Random(64))
    _assert_played_through(event.pk, winners, kind)


def test_check_pairings_covers_every_bracket_match() -> None:
    event, boss, entries = playoff_event("checked", 5, playoff_consolation="third_place")
    play_to_champion(event, boss, seed(event, boss, entries), rng=random.Random(5))
    out, err = io.StringIO(), io.StringIO()
    call_command("check_pairings", event.slug, stdout=out, stderr=err)
    assert out.getvalue() == "" and "0 violations" in err.getvalue()
    # a final seating someone its feeders did not send there is found
    final = Match.objects.get(round__event=event, bracket_slot="W3-1", game_no=1)
    outsider = next(e for e in entries if e.pk not in (final.entry_a_id, final.entry_b_id))
    Match.objects.filter(pk=final.pk).update(entry_b=outsider)
    with pytest.raises(SystemExit) as exited:
        call_command("check_pairings", event.slug, stdout=out, stderr=err)
    assert exited.value.code == 1 and "feeder W3-1" in out.getvalue()
