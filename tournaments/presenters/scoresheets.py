"""The paper fallback of a round: a scoresheet and a result slip per table, for a table whose
phones die (issue 30).

A *scoresheet* is one A4 page per table: the table card's facts (the event, the round, the table,
the match, the seats by compass point with the players' names, the first lead drawn by lot, each
side's QR code) and a grid to keep the game on paper: one line per hand, and for each scoring
entity (a side of two entries; at a table of many, each player) the hand's tally (what its
placements scored, as a scorekeeper pegs it) and its settlement (what the hand's end awards), and
the running total. Under the grid: the final score, the winner and the signatures of every side
(every player at a table of many). The *result slip* is the page's foot, cut off along a dashed
line: the same table's final score, winner and signatures, which a runner brings to the desk,
where the director types it as a paper result, in displayed points (as the results page takes it).

Seats are named by :func:`tournaments.game.compass_point` (the templates' ``compass_at`` filter),
the first lead by :func:`tournaments.presenters.cards.first_leader`: the same sources as the table
cards and the phones. Reading only; the queries are the table cards' (a fixed number).
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments import game
from tournaments.models import Match, Round
from tournaments.presenters import cards

HAND_LINES = 15
"""Lines for hands on a scoresheet of two sides (a Five Up game to 61 rarely needs more; the back
of the sheet takes the rest)."""

MANY_HAND_LINES = 12
"""Lines for hands at a table of many, whose slip has a line per player (one A4 page still)."""


@dataclass(frozen=True)
class Scorer:
    """One column group of the grid: a side (its letter and team) or, at a table of many, one
    player (the seat's letter, the player's name and the seat's number)."""

    letter: str
    name: str
    seat: int | None = None


@dataclass(frozen=True)
class Scoresheet:
    """Everything printed on one table's scoresheet and result slip: the table card's facts
    (``card``, with the QR codes), who scores (``scorers``), the game's target in displayed points
    (``target``), its unit, the play-off match's number of games (``best_of``) and the grid's
    hand lines."""

    card: cards.TableCard
    scorers: tuple[Scorer, ...]
    target: str
    unit: str
    best_of: int = 1
    hands: tuple[int, ...] = ()

    @property
    def seats_count(self) -> int:
        """The players at the table (names the seats by compass point)."""
        return len(self.card.seats)


def _scorers(card: cards.TableCard) -> tuple[Scorer, ...]:
    if card.many:
        return tuple(Scorer(seat.side, seat.player, seat.number) for seat in card.seats)
    return (Scorer("A", card.side_a), Scorer("B", card.side_b))


def scoresheets(
    round_: Round, *, url_for: cards.UrlFor, table: int | None = None
) -> list[Scoresheet]:
    """One scoresheet per table of the round, in table order (``table``: only that table's).

    Built on :func:`tournaments.presenters.cards.table_cards` (the same seats, first lead and
    links); each table's target is its match's own (a play-off stage's) or the event's."""
    event = round_.event
    found = cards.table_cards(round_, url_for=url_for)
    if table is not None:
        found = [card for card in found if card.table_number == table]
    matches = {
        m.table.number: m
        for m in Match.objects.filter(round=round_, game_no=1, is_bye=False).select_related("table")
        if m.table is not None
    }
    sheets = []
    for card in found:
        match = matches.get(card.table_number)
        target = game.match_options(event, match).target
        sheets.append(
            Scoresheet(
                card=card,
                scorers=_scorers(card),
                target=game.format_displayed(target, event),
                unit=game.unit_label(event),
                best_of=match.best_of if match is not None else 1,
                hands=tuple(range(1, (MANY_HAND_LINES if card.many else HAND_LINES) + 1)),
            )
        )
    return sheets
