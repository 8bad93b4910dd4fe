"""A disagreement at the table in words (issue 29): the claim status on each side's phone, and
the director's match page, name the first difference (hand, play, who scored on each sheet and
the points), and the director's page shows both versions side by side from there."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from tests import factories
from tests.tournaments.api_support import table_client
from tests.tournaments.phone_factory import make_setup
from tests.tournaments.test_table_page import tally_sheet
from tournaments.presenters import difference
from tournaments.presenters.table import seat_records
from tournaments.selectors.results import match_board
from tournaments.services.claims import submit_claim

pytestmark = pytest.mark.django_db


def partner_scored(sheet: dict[str, Any]) -> dict[str, Any]:
    """The same sheet with hand 1's first play (10 to North) given to South, North's partner:
    the same totals, another scorer."""
    other = copy.deepcopy(sheet)
    other["hands"][0]["tally"][0]["seat"] = 2
    return other


def conflict() -> Any:
    setup = make_setup(rules="five-up", target=25)
    match = setup.matches[0]
    submit_claim(match=match, side=0, sheet=tally_sheet())
    out = submit_claim(match=match, side=1, sheet=partner_scored(tally_sheet()))
    assert out.state == "conflict"
    return setup


def test_each_phone_names_the_first_difference_from_its_own_sheet(client: Client) -> None:
    setup = conflict()
    a = client.get(setup.path(0, side=0).rstrip("/") + "/status").content.decode()
    b = client.get(setup.path(0, side=1).rstrip("/") + "/status").content.decode()
    # five-up shows points (5 pips = 1): 10 pips are 2 points
    assert (
        "Hand 1, play 1: your sheet gives 2 to Team A One (N); theirs gives 2 to Team A Two (S)."
        in a
    )
    assert (
        "Hand 1, play 1: your sheet gives 2 to Team A Two (S); theirs gives 2 to Team A One (N)."
        in b
    )
    assert 'data-hand="0"' in a and 'data-move="0"' in a and 'data-what="scorer"' in a
    # the other sheet's version of the play, for the phone to take
    assert 'data-theirs="{&quot;seat&quot;:2,&quot;score&quot;:10}"' in a


def test_the_sentence_in_spanish(client: Client) -> None:
    setup = conflict()
    client.cookies["django_language"] = "es"
    a = client.get(setup.path(0, side=0).rstrip("/") + "/status").content.decode()
    assert (
        "Mano 1, jugada 1: tu planilla da 2 a Team A One (N); la suya da 2 a Team A Two (S)." in a
    )


def test_the_directors_page_names_both_teams_and_shows_both_versions(client: Client) -> None:
    setup = conflict()
    match = setup.matches[0]
    client.force_login(setup.director)
    page = client.get(
        f"/director/events/{setup.event.slug}/rounds/1/results/{match.pk}/"
    ).content.decode()
    assert (
        "Hand 1, play 1: Team A&#x27;s sheet gives 2 to Team A One (N); "
        "Team B&#x27;s sheet gives 2 to Team A Two (S)." in page
    )
    assert 'id="difference-side-by-side"' in page
    assert page.count('class="differs"') == 1


@pytest.mark.parametrize("rules", ["five-up", "all-fives", "five-up-7"])
def test_a_move_sentence_names_the_tile_and_where_it_went(rules: str) -> None:
    event = factories.make_event(f"moves-{rules}", rules=rules)
    names = difference.Names(("Ana (N)", "Luis (S)"), ("Ana", "Luis"), event)
    a = {"hands": [{"leader": 0, "moves": [{"seat": 0, "play": "5-5", "score": 10}]}]}
    b = {"hands": [{"leader": 0, "moves": [{"seat": 0, "play": "0-5", "score": 5}]}]}
    with translation.override("en"):
        found = difference.versions(a, b, names, phone=True)
    assert found is not None and (found["hand"], found["move"], found["what"]) == (0, 0, "tile")
    assert found["text"].startswith("Hand 1, turn 1: your sheet has Ana (N) open with 5-5 for ")
    assert "; theirs has Ana (N) open with 0-5 for " in found["text"]


def test_no_sentence_without_a_conflict(client: Client) -> None:
    setup = make_setup(rules="five-up", target=25)
    submit_claim(match=setup.matches[0], side=0, sheet=tally_sheet())
    board = match_board(setup.matches[0].pk)
    assert board is not None and board.state == "pending"
    a = client.get(setup.path(0, side=1).rstrip("/") + "/status").content.decode()
    assert "difference-sentence" not in a


def test_the_directors_board_shows_the_sentence_on_the_conflicting_table(client: Client) -> None:
    setup = conflict()
    client.force_login(setup.director)
    board = client.get(f"/director/events/{setup.event.slug}/rounds/1/results/").content.decode()
    assert (
        f'data-difference="{setup.matches[0].pk}">Hand 1, play 1: Team A&#x27;s sheet gives 2 to '
        "Team A One (N); Team B&#x27;s sheet gives 2 to Team A Two (S)." in board
    )


def test_a_table_of_many_names_the_first_difference_from_the_seats_own_sheet(
    client: Client,
) -> None:
    from tests.tournaments.tables_support import make_event, make_round, plain, table_at
    from tournaments.services.table_links import table_link_path

    event = make_event()
    rnd = make_round(event)
    match = table_at(rnd, 1)
    first, _ = plain(3)
    second, _ = plain(3, skip=1)
    submit_claim(match=match, side=0, sheet=first)
    assert submit_claim(match=match, side=1, sheet=second).state == "conflict"
    assert match.table is not None
    path = table_link_path(round_=rnd, table=match.table, side=0).rstrip("/") + "/status"
    page = client.get(path).content.decode()
    found = difference.versions(
        first, second, difference.names_for(match, seat_records(match)), phone=True
    )
    assert found is not None and found["text"].startswith("Hand 1")
    assert 'id="difference-sentence"' in page and found["text"].replace("'", "&#x27;") in page
    assert 'id="difference-actions"' in page


def test_before_it_disagrees_a_side_reads_the_first_difference_in_words() -> None:
    """Side B checks side A's pending claim against the sheet it typed itself: the verify dry
    run, given B's sheet to compare, names the play and who scored it on each sheet (the phone
    showed "your sheet scores this hand 18-3 (this one 18-3)" before: the same numbers twice)."""
    setup = make_setup(rules="five-up", target=25)
    match = setup.matches[0]
    submit_claim(match=match, side=0, sheet=tally_sheet())
    side_b = table_client(setup.round, match.table.number, side=1)
    url = f"/api/matches/{match.pk}/verify/"
    mine = partner_scored(tally_sheet())
    answer = side_b.post(url, {"sheet": tally_sheet(), "compare": mine}, format="json").json()
    assert answer["difference"]["text"] == (
        "Hand 1, play 1: your sheet gives 2 to Team A Two (S); theirs gives 2 to Team A One (N)"
    )
    assert (answer["difference"]["hand"], answer["difference"]["move"]) == (0, 0)
    same = side_b.post(url, {"sheet": tally_sheet(), "compare": tally_sheet()}, format="json")
    assert same.json()["difference"] is None  # they agree
    alone = side_b.post(url, {"sheet": tally_sheet()}, format="json").json()
    assert alone["difference"] is None and alone["verdict"]["valid"]
    bad = side_b.post(url, {"sheet": tally_sheet(), "compare": "not a sheet"}, format="json")
    assert bad.status_code == 400  # a compare that is no sheet is refused, not ignored
