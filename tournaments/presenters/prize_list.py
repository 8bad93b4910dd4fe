"""The prize list: the event's final placings as the director reads them out and hands the prizes
over: each place ("1", "=3"), the entry, its players (who come up), and blank columns for the
prize and the signature of whoever takes it.

A finished event's list is its frozen placings (``Event.placings``); before the finish, the
placings the finish would freeze now (:func:`tournaments.selectors.final_placings.finish_check`),
marked provisional, or why there are none yet. Reading only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import pgettext

from tournaments.models import Event
from tournaments.presenters.cards import players_by_entry
from tournaments.selectors.final_placings import finish_check, placings_json


@dataclass(frozen=True)
class Prize:
    """One line of the prize list."""

    place: str
    name: str
    players: tuple[str, ...] = ()


@dataclass(frozen=True)
class PrizeList:
    """The lines, best first; ``final`` once the event is finished; ``problem``: why there are
    no placings yet (the finish check's refusal), else empty."""

    rows: tuple[Prize, ...] = field(default_factory=tuple)
    final: bool = False
    problem: str = ""


def place_text(place: Any, shared: bool) -> str:
    """A place on the prize list: its number, "=" before it where it is shared (the standings'
    tie mark): every place alike, however far down the list.

    >>> place_text(1, False), place_text(7, True)
    ('1', '=7')
    """
    if shared:
        return pgettext("a place shared with another player", "=%(place)s") % {"place": place}
    return str(place)


def _rows(event: Event, placings: list[dict[str, Any]]) -> tuple[Prize, ...]:
    players = players_by_entry(event, {int(p["entry_id"]) for p in placings})
    found = []
    for p in placings:
        names = tuple(name for _, name in players.get(int(p["entry_id"]), []))
        shown = names if names != (p.get("name", ""),) else ()
        found.append(Prize(place_text(p["place"], bool(p.get("shared"))), p["name"], shown))
    return tuple(found)


def prize_list(event: Event) -> PrizeList:
    """The event's prize list (see the module)."""
    if event.status == Event.Status.FINISHED:
        return PrizeList(_rows(event, list(event.placings or [])), final=True)
    check = finish_check(event)
    if check.error is not None:
        return PrizeList(problem=str(check.error))
    return PrizeList(_rows(event, placings_json(event, check.places)))
