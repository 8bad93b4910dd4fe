"""Builders for tables of three or four individual players (issue 13), written with the ORM as
the round and result services write them: a ``Match`` with ``table_entries`` 3 or 4 (seats 0
and 1 also ``entry_a``/``entry_b``), a ``RoundSeat`` per seat (``side`` = the seat), and a
confirmed ``MatchResult`` with every seat's score (``scores_halves``) and place (``placings``,
from :func:`tournaments.standings.multiplayer.placings`)."""

from __future__ import annotations

import hashlib
from fractions import Fraction
from typing import Any

from scoring.simulate import simulate
from tests import factories
from tournaments.models import Entry, Event, Match, MatchResult, Round, RoundSeat, Table
from tournaments.standings.multiplayer import TableResult, placings

NAMES = [
    "Ana Ortiz", "Ben Shaw", "Cleo Diaz", "Dev Patel", "Eve Moreau", "Finn Walsh", "Gia Romano",
    "Hugo Brandt", "Ines Costa", "Jon Berg", "Kay Osei", "Lea Novak", "Max Ito", "Nia Grant",
]  # fmt: skip


def make_individual_event(slug: str = "cutthroat", **fields: Any) -> Event:
    """A running All Fives event of individual players at tables of four (or ``table_size``),
    everything public."""
    values: dict[str, Any] = {
        "name": "Cutthroat Night",
        "rules": Event.Rules.ALL_FIVES,
        "entry_kind": Event.EntryKind.SINGLE,
        "table_size": 4,
        "salt": "salt-for-tests",
        "public_listing": True,
        "public_entries": True,
        "public_pairings": True,
        "public_results": True,
        "public_standings": True,
    }
    values.update(fields)
    return factories.make_event(slug, **values)


def make_players(event: Event, count: int) -> list[Entry]:
    """``count`` checked-in single entries named after their players (``NAMES``)."""
    return [
        factories.make_entry(
            event, NAMES[i], players=(NAMES[i],), club="Club", status=Entry.Status.CHECKED_IN
        )
        for i in range(count)
    ]


def seat_table(rnd: Round, number: int, seated: list[Entry]) -> Match:
    """A table of ``len(seated)`` players at table ``number``, seat 0 first (clockwise)."""
    table, _ = Table.objects.get_or_create(event=rnd.event, number=number)
    match = Match.objects.create(
        round=rnd,
        table=table,
        entry_a=seated[0],
        entry_b=seated[1],
        table_entries=len(seated),
    )
    RoundSeat.objects.bulk_create(
        RoundSeat(round=rnd, entry=entry, match=match, side=seat)
        for seat, entry in enumerate(seated)
    )
    return match


def table_sheet(rnd: Round, number: int, players: int) -> dict[str, Any]:
    """A verified All Fives sheet of ``players`` individual players from the engine's
    simulator, the same for the same round and table."""
    key = f"{rnd.event.salt}:{rnd.number}:{number}".encode()
    seed = int.from_bytes(hashlib.sha256(key).digest()[:4], "big")
    return next(simulate(rules=rnd.event.rules, players=players, seed=seed, partnerships=False))


def confirm_table(
    match: Match,
    scores: list[Any] | None = None,
    *,
    sheet: dict[str, Any] | None = None,
    places: list[int] | None = None,
) -> MatchResult:
    """A confirmed result of a table of many: ``scores`` (raw, exact: ``Fraction`` or ``"12.5"``
    for halves), or the scores of ``sheet`` (then it is a verified sheet); ``places`` as the
    rules rank the scores unless given (a director's decision may say otherwise)."""
    if sheet is not None:
        scores = list(sheet["result"]["scores"])
    assert scores is not None
    exact = [Fraction(str(s)) for s in scores]
    halves = [int(s * 2) for s in exact]
    seats = tuple(range(len(exact)))
    ranked = placings(TableResult(match.pk, match.round.number, "swiss", seats, tuple(exact)))
    top = max(exact)
    winner = exact.index(top) if exact.count(top) == 1 else None
    return MatchResult.objects.create(
        match=match,
        version=1,
        source=MatchResult.Source.AGREED,
        kind="sheet" if sheet is not None else "final_score",
        sheet=sheet,
        verified=sheet is not None,
        score_a_halves=halves[0],
        score_b_halves=halves[1],
        winner_side=winner,
        scores_halves=halves,
        placings=places if places is not None else [ranked[s] for s in seats],
    )


class Night:
    """Fourteen players at 4 + 4 + 3 + 3 in round 1 (closed, every result in), round 2 in play
    with one result in (a tie at the top: a game ended by time)."""

    def __init__(self, slug: str = "cutthroat", **fields: Any) -> None:
        self.event = make_individual_event(slug, **fields)
        self.players = make_players(self.event, 14)
        p = self.players
        self.r1 = Round.objects.create(event=self.event, number=1, status=Round.Status.CLOSED)
        seats = [p[0:4], p[4:8], p[8:11], p[11:14]]
        self.t1 = [seat_table(self.r1, i + 1, s) for i, s in enumerate(seats)]
        self.sheet = table_sheet(self.r1, 1, 4)
        confirm_table(self.t1[0], sheet=self.sheet)
        confirm_table(self.t1[1], [120, 95, 95, 40])  # two share 2nd: the last is 4th
        confirm_table(self.t1[2], ["192.5", "87.5", "65"])  # All Fives at three: halves
        confirm_table(self.t1[3], [105, 200, 190])
        self.r2 = Round.objects.create(event=self.event, number=2, status=Round.Status.IN_PLAY)
        order = [0, 4, 8, 11, 1, 5, 9, 12, 2, 6, 10, 3, 7, 13]
        q = [p[i] for i in order]
        self.t2 = [
            seat_table(self.r2, i + 1, s) for i, s in enumerate([q[0:4], q[4:8], q[8:11], q[11:14]])
        ]
        confirm_table(self.t2[0], [200, 150, 200, 75])  # time: two share 1st
