"""Public pages at tables of three and four individual players (issue 13): the round page (every
seat by compass point, each seat's score in displayed points and its place as the result says),
"find my table", the entry's and the player's pages (tablemates, seat, place), "my table" (seats
2 and 3 found, tablemates named), the match page (seats, scores, places, hands by player's name)
and the projector. The tables are written with the ORM as the round and result services write
them (``public_tables_support``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from tests.tournaments.follow_support import follow, private_cache
from tests.tournaments.public_tables_support import Night, confirm_table, seat_table
from tournaments.models import Entry, Event, Match, Round
from tournaments.presenters.placings import place_label
from tournaments.selectors import follow as follow_reads
from tournaments.selectors import matches as match_reads
from tournaments.selectors import rounds as round_reads
from tournaments.services.standings import recompute_standings
from tournaments.standings.serialise import format_number
from tournaments.templatetags.tables import near_filter, points_near_filter

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cache(settings: Any) -> None:
    private_cache(settings)


def text(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def seat_line(body: str, seat: int, table: int) -> str:
    """The text of one seat's line of a table on the round page."""
    start = body.index(f'id="table-{table}"')
    start = body.index(f'data-seat="{seat}"', start)
    return body[start : body.index("</li>", start)]


def test_the_round_page_shows_every_seat_its_score_and_its_place(client: Client) -> None:
    night = Night()
    body = text(client.get("/events/cutthroat/rounds/1/"))
    # every player of the round, once, at their table
    for entry in night.players:
        assert body.count(f"<strong>{entry.name}</strong>") == 1
    scores = night.sheet["result"]["scores"]
    for seat, point in enumerate(("North", "East", "South", "West")):
        line = seat_line(body, seat, 1)
        assert point in line and night.players[seat].name in line
        assert f'<span class="seat-score">{scores[seat]}</span>' in line
    # shared places as the result has them: 1st, =2nd, =2nd, 4th
    t2 = [seat_line(body, seat, 2) for seat in range(4)]
    assert ">1st<" in t2[0] and ">=2nd<" in t2[1] and ">=2nd<" in t2[2] and ">4th<" in t2[3]
    assert 'title="a shared place"' in t2[1] and "title=" not in t2[0]
    # a table of three: North, East, South, and the halves of its split
    t3 = [seat_line(body, seat, 3) for seat in range(3)]
    assert "North" in t3[0] and "East" in t3[1] and "South" in t3[2]
    assert ">192.5<" in t3[0] and ">87.5<" in t3[1] and ">65<" in t3[2]
    assert 'data-seat="3"' not in body[body.index('id="table-3"') : body.index('id="table-4"')]
    assert body.count("3 players") == 2 and body.count("4 players") == 2
    assert "badge confirmed" in body  # the sheets are verified


def test_the_places_are_read_from_the_result_never_recomputed(client: Client) -> None:
    night = Night()
    # A result whose places say otherwise than its scores (a director's decision): shown as is.
    rnd = Round.objects.create(event=night.event, number=3, status=Round.Status.CLOSED)
    match = seat_table(rnd, 1, night.players[:4])
    confirm_table(match, [120, 95, 95, 40], places=[2, 1, 3, 4])
    body = text(client.get("/events/cutthroat/rounds/3/"))
    assert ">2nd<" in seat_line(body, 0, 1) and ">1st<" in seat_line(body, 1, 1)
    assert "=2nd" not in body


def test_a_table_without_its_result_yet_shows_its_seats(client: Client) -> None:
    night = Night()
    body = text(client.get("/events/cutthroat/rounds/2/"))
    table = body[body.index('id="table-2"') : body.index('id="table-3"')]
    assert table.count("data-seat=") == 4 and "No result yet" in table
    assert "seat-score" not in table
    top = body[body.index('id="table-1"') : body.index('id="table-2"')]
    assert top.count(">=1st<") == 2 and ">3rd<" in top and ">4th<" in top
    assert night.t2[0].table_entries == 4


def test_find_my_table_finds_a_player_in_seat_three(client: Client) -> None:
    Night()
    body = text(client.get("/events/cutthroat/rounds/1/", {"q": "hugo"}))
    assert "1 of 4 shown" in body and 'id="table-2"' in body and 'id="table-1"' not in body
    assert body.count("data-seat=") == 4  # the whole table, its other seats too
    fragment = client.get(
        "/events/cutthroat/rounds/1/",
        {"q": "Nia"},
        headers={"HX-Request": "true", "HX-Target": "pairings"},
    )
    assert 'id="table-4"' in text(fragment) and "<html" not in text(fragment)


def test_the_round_view_reads_tables_of_many_in_three_queries(
    django_assert_num_queries: Any,
) -> None:
    night = Night()
    with django_assert_num_queries(3):
        view = round_reads.round_view(night.r1)
    assert [len(m.seats) for m in view.matches] == [4, 4, 3, 3]
    assert [s.entry.name for s in view.matches[2].seats] == [p.name for p in night.players[8:11]]
    assert [s.compass for s in view.matches[3].seats] == ["North", "East", "South"]
    assert len(view.entries) == 14
    with django_assert_num_queries(3):  # who sits where only (the projector): the same seats
        seating = round_reads.round_view(night.r1, explained=False)
        seats = [
            (m.table, m.entries, [(s.seat, s.compass) for s in m.seats]) for m in seating.matches
        ]
    assert seats == [
        (m.table, m.entries, [(s.seat, s.compass) for s in m.seats]) for m in view.matches
    ]
    with django_assert_num_queries(1):
        results = match_reads.round_results(night.r1.pk)
    assert [r["place"] for r in results[night.t1[1].pk]["seats"]] == [1, 2, 2, 4]
    assert [r["score"] for r in results[night.t1[2].pk]["seats"]] == ["192.5", "87.5", "65"]


def test_the_entry_page_lists_its_tables_tablemates_and_places(client: Client) -> None:
    night = Night()
    gia = night.players[6]  # round 1: table 2, South, =2nd; round 2: table 3, East
    body = text(client.get(f"/events/cutthroat/teams/{gia.pk}/"))
    history = body[body.index('class="history"') :]
    first, second = history.split('<li class="card">')[1:3]
    assert "table 2" in first and "South" in first and ">=2nd<" in first and "95" in first
    for mate, score in (("Eve Moreau", "120"), ("Finn Walsh", "95"), ("Hugo Brandt", "40")):
        assert mate in first and f'{mate}</a> <span class="muted">{score}</span>' in first
    assert "Gia Romano</a>" not in first
    assert "table 3" in second and "East" in second and "no result yet" in second
    assert "Cleo Diaz" in second and "Kay Osei" in second


def test_an_entry_s_history_reads_its_tables_in_two_queries(django_assert_num_queries: Any) -> None:
    night = Night()
    with django_assert_num_queries(2):
        history = match_reads.team_history(night.event, night.players[7].pk)
    assert [h["seat"] for h in history] == [3, 1]  # West at a table of 4, East at one of 3
    assert history[0]["place"] == 4 and history[0]["outcome"] == "lost"
    assert [t["name"] for t in history[0]["tablemates"]] == [p.name for p in night.players[4:7]]
    top = match_reads.team_history(night.event, night.players[0].pk)
    assert top[1]["place"] == 1 and top[1]["shared"] and top[1]["outcome"] == "draw"


def test_the_player_page_lists_the_tables_with_tablemates_and_places(client: Client) -> None:
    night = Night()
    ines = night.players[8]
    player = ines.members.get().player
    body = text(client.get(f"/players/{player.pk}/"))
    assert "Cutthroat Night" in body
    assert ">1st<" in body and "192.5" in body and "North" in body
    assert "Jon Berg" in body and "87.5" in body and "Kay Osei" in body


def test_my_table_finds_seats_two_and_three_and_names_the_tablemates(client: Client) -> None:
    night = Night()
    lea = night.players[11]  # round 2: table 1, West (seat 3)
    view = follow_reads.followed_view(night.event, lea, show_results=True)
    assert view.match is not None and view.match.pk == night.t2[0].pk
    follow(client, night.event, lea)
    body = text(client.get(f"/events/cutthroat/me/{lea.pk}/live/"))
    assert '<span class="n">1</span>' in body
    assert "with Ana Ortiz, Eve Moreau, Ines Costa" in body
    seats = body[body.index('class="my-seats"') : body.index("</ul>", body.index("my-seats"))]
    assert (
        seats.count("<li") == 4
        and '<li class="mine"><span class="place">West</span> Lea Novak' in seats
    )
    assert "(" not in seats  # no team in brackets: every entry is one player
    # Her last result: round 2's table 1, 4th, with her tablemates.
    last = body[body.index('class="my-last"') :]
    assert "4th" in last and "75" in last
    assert "at a table with Ana Ortiz, Eve Moreau, Ines Costa" in last  # tablemates, not a team


def test_the_match_page_shows_every_seat_and_names_the_hands_by_player(client: Client) -> None:
    night = Night()
    body = text(client.get(f"/events/cutthroat/matches/{night.t1[0].pk}/"))
    scores = night.sheet["result"]["scores"]
    head = body[body.index("match-head many") : body.index("<h2>")]
    for seat, point in enumerate(("North", "East", "South", "West")):
        line = head[head.index(f'data-seat="{seat}"') :]
        assert point in line[:200] and night.players[seat].name in line[:300]
        assert f'<span class="seat-score">{scores[seat]}</span>' in line[:400]
    assert "verified scoresheet" in head and "Won by" not in body
    hands = body[body.index("<h2>") :]
    assert "Hand 1" in hands and "seat 0" not in hands and "side 1" not in hands
    leader = night.sheet["hands"][0]["leader"]
    point = ("North", "East", "South", "West")[leader]
    assert f"Led by {night.players[leader].name} ({point})" in hands
    # a table of three without a sheet: its scores and places, its halves
    body = text(client.get(f"/events/cutthroat/matches/{night.t1[2].pk}/"))
    assert ">192.5<" in body and ">1st<" in body and "final score only" in body


def test_the_projector_shows_every_seat_of_a_table_of_many(client: Client) -> None:
    Night()
    body = text(client.get("/events/cutthroat/projector/", {"view": "pairings"}))
    row = body[body.index('<tr class="many">') :]
    row = row[: row.index("</tr>")]
    # the round in play: round 2's table 1
    assert "Ana Ortiz" in row and "Eve Moreau" in row and "Ines Costa" in row and "Lea Novak" in row
    seats = text(client.get("/events/cutthroat/projector/", {"view": "seats"}))
    assert "Nia Grant" in seats and "Hugo Brandt" in seats


def test_five_up_7_at_a_table_of_four_shows_displayed_points(client: Client) -> None:
    night = Night("seven", rules=Event.Rules.FIVE_UP_7)
    rnd = Round.objects.create(event=night.event, number=3, status=Round.Status.CLOSED)
    confirm_table(seat_table(rnd, 1, night.players[:4]), [305, 200, 200, 75])
    body = text(client.get("/events/seven/rounds/3/"))
    assert ">61<" in seat_line(body, 0, 1) and ">40<" in seat_line(body, 1, 1)
    assert ">15<" in seat_line(body, 3, 1) and "5 pips = 1" in body


def test_spanish_places_and_compass_points(client: Client) -> None:
    Night()
    body = text(client.get("/events/cutthroat/rounds/1/", headers={"accept-language": "es"}))
    t2 = [seat_line(body, seat, 2) for seat in range(4)]
    assert "Norte" in t2[0] and "Oeste" in t2[3]
    assert ">1.º<" in t2[0] and ">=2.º<" in t2[1] and ">4.º<" in t2[3]
    assert "4 jugadores" in body
    with translation.override("es"):
        assert place_label(3) == "3.º" and place_label(2, True) == "=2.º"


def test_place_labels() -> None:
    assert [place_label(n) for n in (1, 2, 3, 4)] == ["1st", "2nd", "3rd", "4th"]
    assert place_label(1, True) == "=1st" and place_label(None) == "" and place_label(5) == "5."


def test_a_table_of_two_in_the_same_event_is_shown_as_before(client: Client) -> None:
    night = Night("mixed", table_size=2)
    rnd = Round.objects.create(event=night.event, number=3, status=Round.Status.PUBLISHED)
    match = seat_table(rnd, 1, night.players[:2])
    assert Match.objects.get(pk=match.pk).table_entries == 2
    body = text(client.get("/events/mixed/rounds/3/"))
    assert "table-seats" not in body and 'class="vs"' in body
    assert isinstance(night.players[0], Entry)


def test_the_event_page_says_how_tables_of_many_seat_and_score(client: Client) -> None:
    Night()
    body = text(client.get("/events/cutthroat/"))
    assert "individual players, four at each table (three at some tables" in body
    assert "at a table of four, 4, 2, 1, 0 by place; at a table of three, 4, 2, 0 by place" in body
    assert "head to head" not in body and "Forfeits:" not in body
    assert "deals every player 5 tiles at a table of four, 7 tiles at a table of three" in body
    Event.objects.filter(slug="cutthroat").update(
        placing_points={"proportional": 10}, mixed_table_sizes=False
    )
    body = text(client.get("/events/cutthroat/", headers={"accept-language": "es"}))
    assert "jugadores individuales, cuatro en cada mesa (descansa quien quede sin mesa)" in body
    assert "10 por mesa, repartidos en proporción al tanteo" in body


def test_the_standings_and_the_entry_page_at_tables_of_many(client: Client) -> None:
    night = Night()
    recompute_standings(event_id=night.event.pk)
    body = text(client.get("/events/cutthroat/standings/"))
    assert ">Player<" in body and ">Team<" not in body
    for entry in night.players:
        assert f">{entry.name}</a>" in body
    live = text(client.get("/events/cutthroat/standings/live/"))
    assert ">Player<" in live
    # Ines Costa: 1st at a table of three (192.5 of 345), then =1st at round 2's table 1.
    ines = night.players[8]
    page = text(client.get(f"/events/cutthroat/teams/{ines.pk}/"))
    places = page[page.index("Places, round by round") :]
    assert ">1st</span> · <span" in places[:400] and ">=1st<" not in places[:400]
    # Points against: the tablemates' mean, (87.5 + 65) / 2 = 76.25, then (200 + 150 + 75) / 3.
    against = Fraction(305, 4) + Fraction(425, 3)
    assert f'title="{format_number(against)}">{float(against):.1f}<' in page


def test_numbers_that_do_not_terminate_are_rounded_with_the_exact_value_kept() -> None:
    event = Event(rules=Event.Rules.FIVE_UP)
    assert points_near_filter("1175/3", event) == ('<span class="approx" title="235/3">78.3</span>')
    assert points_near_filter("305", event) == "61" and near_filter("2.5") == "2.5"
    assert near_filter("500/107") == '<span class="approx" title="500/107">4.67</span>'
    assert near_filter("3") == "3" and near_filter(None) == ""


def test_my_table_search_for_an_individual_player(client: Client) -> None:
    Night()
    found = text(client.get("/events/cutthroat/me/", {"q": "nia grant"}))
    assert "Nia Grant" in found and 'class="muted players"' not in found
    none = text(client.get("/events/cutthroat/me/", {"q": "zz top"}))
    assert "No player matches “zz top”. Check the spelling, or ask the director." in none
    assert "partner" not in none
