"""Issue 12's "Done when", walked: from ``manage.py demo`` (round 4 in play, half its tables in),
a director plays the Swiss rounds, the play-off and its best-of-3 final to a champion through the
pages alone, and ``check_pairings`` and the export account for every match.

Only what a person does: the director reads the desk, the rounds, the results board and the
standings page, follows their links and posts their forms (CSRF enforced, redirects followed);
the partnerships' phones open their side's table link and call the results API as the page's
script does (claim on one side, confirm on the other). No service is called; the sheets come
from the engine's simulator, as the demo's do. The database is transactional, so every job a
request enqueues runs after its commit (Celery is eager), as a worker would; for the
semi-finals the worker is down (:func:`worker_down`) and the director's "Next play-off round"
does what the job did not.

Each ``# Found:`` marks a regression of something this walk found broken or confusing.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from html import unescape
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from scoring.simulate import simulate
from tests.tournaments.walk_support import Browser, Page, Phone, poll_page
from tournaments.models import Event, Match, MatchResult

pytestmark = pytest.mark.django_db(transaction=True)

DESK = "/director/events/demo/"


@contextmanager
def worker_down() -> Iterator[None]:
    """No worker takes the tasks: they are published to the in-memory broker and stay there."""
    from spinner.celery import app

    def reset_pools() -> None:  # Celery keeps the producer pool of the first broker it used
        app._pool = None
        app.amqp._producer_pool = None

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    reset_pools()
    try:
        yield
    finally:
        app.conf.task_always_eager = eager
        reset_pools()


class Walk:
    """The director's browser, the tables' phones and the simulator's seeds."""

    def __init__(self) -> None:
        self.director = Browser()
        self.seeds = itertools.count(1)
        self.refused_once = False

    def desk(self) -> Page:
        return self.director.get(DESK)

    def sheet(self, phone: Phone, winner: int | None = None) -> dict[str, Any]:
        """A finished, valid scoresheet of the game the phone's page shows (its header); won
        by side ``winner`` (0: A, 1: B) when told (the simulator's next seed that gives it)."""
        h = phone.config["header"]
        while True:
            sheet = next(
                simulate(
                    rules=h["rules"],
                    players=h["players"],
                    seed=next(self.seeds),
                    target=h["target"],
                    hand_size=h["hand_size"],
                    partnerships=h["partnerships"],
                )
            )
            if winner is None or sheet["result"]["winner"] == winner:
                return sheet

    def play_at_table(
        self, board: Page, table: int, *, claimer: int = 0, winner: int | None = None
    ) -> tuple[Phone, Phone]:
        """Both sides' phones of ``table`` (from the board's links) play one game: ``claimer``
        sends its sheet (won by ``winner`` when told), the other side confirms it."""
        links = [link.href for link in board.links if "page (side" in link.text]
        mine = [h for h in links if f".{table}.0." in h or f".{table}.1." in h]
        phones = (Phone(mine[0]), Phone(mine[1]))
        assert [p.config["side"] for p in phones] == [0, 1]
        sent = phones[claimer].send_sheet(self.sheet(phones[claimer], winner))
        assert sent["match"]["state"] == "pending", sent["match"]
        confirmed = phones[1 - claimer].confirm()
        assert confirmed["match"]["state"] == "confirmed", confirmed["match"]
        return phones

    def arbitral(self, board: Page, scores: tuple[str, str]) -> Page:
        """The director's arbitral result of the board's first missing table, with a reason
        (the first time sent without one: refused, nothing typed lost)."""
        match = self.director.click(board, "Enter the result")
        form = match.form(button="Enter result")
        if not self.refused_once:
            self.refused_once = True
            match = self.director.submit(
                match, form, expect=400, score_a=scores[0], score_b=scores[1]
            )
            form = match.form(button="Enter result")
            assert ("score_a", scores[0]) in form.fields and ("score_b", scores[1]) in form.fields
            assert "This field is required." in match.alerts
        done = self.director.submit(
            match, form, score_a=scores[0], score_b=scores[1], reason="Paper sheet at the desk"
        )
        assert "The result is entered." in done.messages, done.what()
        return done

    def enter_missing(self, number: int) -> None:
        """Every missing result of round ``number``: tables by their phones and by the
        director's arbitral form, in turn."""
        url = f"/director/events/demo/rounds/{number}/results/?state=missing"
        for turn in itertools.count():
            board = self.director.get(url)
            if "Enter the result" not in [link.text for link in board.links]:
                return
            if turn % 2:
                self.arbitral(board, ("61", "38") if turn % 4 == 1 else ("44", "61"))
            else:
                table = int(board.text.split("Table ", 1)[1].split()[0])
                self.play_at_table(board, table, claimer=turn % 4 // 2)

    def close_round(self, number: int) -> Page:
        """The desk's "Next: close round N" (it closes, asking first), then "Are you sure?"."""
        desk = self.desk()
        asked = self.director.submit(desk, desk.form(button=f"Next: close round {number}"))
        closed = self.director.submit(asked, asked.form(button=f"Yes, close round {number}"))
        assert f"Round {number} is closed." in closed.messages, closed.what()
        return closed

    def publish(self, review: Page, number: int) -> Page:
        asked = self.director.submit(review, review.form(button=f"Publish round {number}"))
        done = self.director.submit(asked, asked.form(button=f"Yes, publish round {number}"))
        assert f"Round {number} is published." in done.messages, done.what()
        return done

    def board(self, number: int) -> Page:
        """The results board, from the desk."""
        desk = self.desk()
        assert f"Round {number} published" in desk.text or f"Round {number} in play" in desk.text
        return self.director.click(desk, "Results board")


def play_swiss(walk: Walk) -> None:
    """Rounds 4 (in play) and 5 (generated by a job, reviewed, published) to the end."""
    desk = walk.desk()
    assert "Round 4 in play" in desk.text and "6 missing" in desk.text
    walk.enter_missing(4)
    walk.close_round(4)
    desk = walk.desk()
    job = walk.director.submit(desk, desk.form(button="Next: generate round 5"))
    review = poll_page(walk.director, job.url, "Publish round 5")
    walk.publish(review, 5)
    walk.enter_missing(5)
    walk.close_round(5)


def seed_playoff(walk: Walk) -> Page:
    """From the desk to the seeded bracket (a tiebreak round first if the cut is tied)."""
    desk = walk.desk()
    # Found: the desk said "Next: generate round 6", whose button refused ("seed the play-off
    # bracket from the standings") on a page with no way there.
    assert "Next: generate round 6" not in desk.text
    rounds = walk.director.click(desk, "Rounds", href="/rounds/")
    assert not rounds.has_button("Generate the next round")
    assert rounds.link("Seed the play-off").href.endswith("/standings/")
    standings = walk.director.click(desk, "Next: seed the play-off")
    if standings.has_button("Propose a tiebreak round"):
        standings = walk.director.submit(
            standings, standings.form(button="Propose a tiebreak round")
        )
        standings = walk.director.submit(standings, standings.form(button="Approve and publish"))
        number = int(standings.messages[-1].split()[2])  # "Tiebreak round 6 published."
        walk.enter_missing(number)
        walk.close_round(number)
        standings = walk.director.click(walk.desk(), "Next: seed the play-off")
    seeded = walk.director.submit(standings, standings.form(button="Seed the play-off bracket"))
    assert "The play-off bracket is seeded." in seeded.text, seeded.what()
    # Found: the recent jobs named the seeding by its code, "seed_playoff".
    assert "Seeding the play-off" in seeded.text and "seed_playoff" not in seeded.text
    # Found: the seeded standings page said so and led nowhere (the desk did).
    review = walk.director.click(seeded, "Review and publish round")
    assert "Quarter-final" in review.text
    assert walk.director.click(walk.desk(), "Next: review and publish round").url == review.url
    return review


def round_number(page: Page) -> int:
    return int(page.url.split("/rounds/")[1].split("/")[0])


def play_bracket_round(walk: Walk, review: Page) -> list[tuple[Phone, Phone]]:
    """Publish the reviewed play-off round and play every table on its phones."""
    number = round_number(review)
    walk.publish(review, number)
    board = walk.board(number)
    tables = sorted({int(t.split()[0]) for t in board.text.split("Table ")[1:] if t[0].isdigit()})
    return [walk.play_at_table(board, t, claimer=t % 2) for t in tables]


def play_final(walk: Walk, review: Page) -> tuple[Phone, Phone]:
    """The best-of-3 final, decided 2-1: each game on the same two table links, one after the
    other (A wins game 1, B game 2, A game 3), the sides taking turns to claim."""
    number = round_number(review)
    assert "Final" in review.text and "Best of 3" in review.text
    walk.publish(review, number)
    board = walk.board(number)
    phones = walk.play_at_table(board, 1, claimer=0, winner=0)
    for game, winner in ((2, 1), (3, 0)):
        moved = phones[0].status()  # the page still showing the game before
        assert 'id="next-game"' in moved.html, moved.text
        assert f"Game {game} of 3" in moved.text
        for phone in phones:  # htmx reloads the page (HX-Refresh): the next game opens
            assert f"Game {game} of 3" in phone.open().text
        claimer = game % 2
        sent = phones[claimer].send_sheet(walk.sheet(phones[claimer], winner))
        assert sent["match"]["state"] == "pending"
        assert phones[1 - claimer].confirm()["match"]["state"] == "confirmed"
    decided = phones[1].status()
    assert "Result confirmed" in decided.text and 'id="next-game"' not in decided.html
    return phones


def finish(walk: Walk) -> str:
    """ "Finish the event" on the desk, "Are you sure?" naming the champion; the champion."""
    desk = walk.desk()
    assert "Next: close round" in desk.text or "Next: finish the event" in desk.text
    asked = walk.director.submit(desk, desk.form(button="Finish the event"))
    champion = asked.text.split(" as champion")[0].split("frozen with ")[1]
    done = walk.director.submit(asked, asked.form(button="Finish the event"))
    assert "The event is finished" in " ".join(done.messages), done.what()
    assert "The event is finished." in done.text  # the desk's "now"
    return champion


def test_a_director_plays_the_demo_to_its_champion_through_the_pages() -> None:
    call_command("demo", stdout=StringIO())
    walk = Walk()
    walk.director.login("director", "director")
    play_swiss(walk)
    review = seed_playoff(walk)

    quarter_finals = play_bracket_round(walk, review)
    # Found: the play-off round closes itself on its last confirmation, and that table's phones
    # then showed "This table link does not work" (a 401 htmx never swapped) for their result.
    for phone in quarter_finals[-1]:
        status = phone.status()
        assert "Result confirmed" in status.text and 'id="round-closed"' in status.html
        assert "is closed" in phone.open().text
    review = walk.director.click(walk.desk(), "Next: review and publish round")
    assert "Semi-final" in review.text

    with worker_down():
        play_bracket_round(walk, review)
    rounds = walk.director.click(walk.desk(), "Rounds", href="/rounds/")
    review = walk.director.submit(rounds, rounds.form(button="Next play-off round"))
    assert "(play-off) is ready to review and publish" in review.messages[0], review.what()

    play_final(walk, review)
    champion = finish(walk)

    public = walk.director.get("/events/demo/")
    podium = public.html.split('data-testid="champion"', 1)
    assert len(podium) == 2 and champion in unescape(podium[1][:400])
    assert public.text.index("Final placings") < public.text.index("Rules")
    bracket = Browser().get("/events/demo/bracket/")
    assert f"Champion: {champion}" in bracket.text
    assert_every_match_accounted_for()


def assert_every_match_accounted_for() -> None:
    checked = StringIO()
    call_command("check_pairings", "demo", stdout=checked, stderr=checked)
    assert "0 violations" in checked.getvalue(), checked.getvalue()
    exported = StringIO()
    call_command("export_event", "demo", stdout=exported)
    doc = json.loads(exported.getvalue())
    event = Event.objects.get(slug="demo")
    played = Match.objects.filter(round__event=event, is_bye=False)
    assert MatchResult.objects.filter(match__in=played, is_current=True).count() == played.count()
    assert doc["event"]["status"] == "finished"
    assert len(doc["placings"]) == event.entries.count()
    assert doc["placings"][0]["place"] == 1
    results = [m for r in doc["rounds"] for m in r["matches"] if not m.get("bye")]
    assert len(results) == played.count(), (len(results), played.count())
    assert all(m.get("result") for m in results)
    # Every bracket match decided at a table, its games resolved to rows of ``rounds[]``.
    bracket = doc["bracket"]
    assert bracket["finished"] and bracket["violations"] == []
    assert bracket["champion"] == doc["placings"][0]["entry"]
    ids = {m["id"] for m in results}
    for match in bracket["matches"]:
        assert match["status"] == "decided" and match["winner"] in match["entries"], match
        assert {g["match"] for g in match["series"]["games"]} <= ids
    final = next(m for m in bracket["matches"] if m["stage"] == "final")
    assert final["series"]["best_of"] == 3 and sorted(final["series"]["wins"]) == [1, 2]
