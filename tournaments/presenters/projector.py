"""What the projector shows: the standings, the round's pairings and an alphabetical "where do I
sit" list, each cut into screens that fit 1920x1080 in big type, and the order the screens turn
in (every page of every view, then round again). Pure: fed plain lists."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

VIEWS = ("standings", "pairings", "seats")
"""The projector's views, in the order they take turns."""

PER_PAGE = {"standings": 12, "pairings": 8, "seats": 36}
"""Rows per screen: 12 standings lines, 8 tables, 36 names (three columns of 12)."""

SECONDS = {"standings": 15, "pairings": 15, "seats": 20}
"""How long a screen stays up."""


@dataclass(frozen=True)
class Screen:
    """One screen: its view, page (1-based) of ``pages``, the rows on it and what comes next."""

    view: str
    page: int
    pages: int
    rows: list[Any]
    next_view: str
    next_page: int
    seconds: int


def page_count(total: int, per_page: int) -> int:
    return max(1, -(-total // per_page))


class Views(Mapping[str, Sequence[Any]]):
    """The views an event shows (view -> its rows), each view's rows read only when a screen asks
    for them: a screen needs its own view's rows, and the next view's only to skip it when it is
    empty (after a view's last page). ``view in views`` reads nothing."""

    def __init__(self, readers: dict[str, Callable[[], Sequence[Any]]]) -> None:
        self._readers = readers
        self._rows: dict[str, Sequence[Any]] = {}

    def __getitem__(self, view: str) -> Sequence[Any]:
        if view not in self._rows:
            self._rows[view] = self._readers[view]()
        return self._rows[view]

    def __contains__(self, view: object) -> bool:
        return view in self._readers

    def __iter__(self) -> Iterator[str]:
        return iter(self._readers)

    def __len__(self) -> int:
        return len(self._readers)


def screen(available: Mapping[str, Sequence[Any]], view: str, page: int) -> Screen:
    """Screen ``page`` of ``view`` over ``available`` (view -> all its rows; only the views the
    event shows). An unknown view or page falls back to the first; after a view's last page comes
    the next view's first (skipping empty views), after the last view the first again."""
    order = [v for v in VIEWS if v in available]
    if not order:
        return Screen("none", 1, 1, [], "none", 1, 60)
    if view not in order:
        view = order[0]
    rows = available[view]
    per = PER_PAGE[view]
    pages = page_count(len(rows), per)
    page = page if 1 <= page <= pages else 1
    if page < pages:
        nxt, nxt_page = view, page + 1
    else:
        later = order[order.index(view) + 1 :] + order[: order.index(view) + 1]
        nxt = next((v for v in later if available[v]), view)
        nxt_page = 1
    return Screen(
        view=view,
        page=page,
        pages=pages,
        rows=list(rows[(page - 1) * per : page * per]),
        next_view=nxt,
        next_page=nxt_page,
        seconds=SECONDS[view],
    )


@dataclass(frozen=True)
class Seat:
    """A line of "where do I sit": a team or a player, and the table (None: a bye)."""

    name: str
    table: int | None
    team: str = ""


def seat_list(matches: list[tuple[int | None, list[tuple[str, list[str]]]]]) -> list[Seat]:
    """Every team and every player of a round, alphabetically, with their table. ``matches``:
    (table number or None for a bye, [(team name, [player names])...])."""
    seats: list[Seat] = []
    for table, entries in matches:
        for team, players in entries:
            seats.append(Seat(team, table))
            seats.extend(Seat(p, table, team) for p in players if p != team)
    return sorted(seats, key=lambda s: (s.name.casefold(), s.table or 0))


def round_label(in_play: int | None, closed: int | None) -> str:
    """What the standings include: "after round 3", "after round 3, round 4 in play", "round 1
    in play" or "before round 1"."""
    parts = []
    if closed is not None:
        parts.append(gettext("after round %(round)s") % {"round": closed})
    if in_play is not None:
        parts.append(gettext("round %(round)s in play") % {"round": in_play})
    return ", ".join(parts) or gettext("before round 1")
