"""Two scoresheets' first difference in words (``scoring.difference.first_difference``): the
sentence each phone at a table in conflict shows, and the director's page with it, and both
versions side by side from the first difference.

"Hand 3, play 2: your sheet gives 2 to Ana (N); theirs gives 2 to Luis (S)". Players are named
with their compass point, sides by team name, points in the event's displayed points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, pgettext

from scoring.difference import NONE, Difference, Entry, entry_of, first_difference
from tournaments import game
from tournaments.models import Event, Match
from tournaments.presenters.cards import Seat

__all__ = ["Names", "names_for", "sentence", "side_by_side", "versions"]


@dataclass(frozen=True)
class Names:
    """How a sentence names people and points: each seat's player with their compass point,
    each side (entity) by its name, and raw points in the event's displayed points."""

    seats: tuple[str, ...]
    entities: tuple[str, ...]
    event: Event | None = None

    def seat(self, s: int | None) -> str:
        if s is not None and 0 <= s < len(self.seats):
            return self.seats[s]
        return gettext("nobody") if s is None else str(s + 1)

    def entity(self, e: int | None) -> str:
        if e is not None and 0 <= e < len(self.entities):
            return self.entities[e]
        return gettext("nobody") if e is None else str(e + 1)

    def points(self, raw: Any) -> str:
        if self.event is None:
            return str(raw)
        return game.format_displayed(raw, self.event)


def compass_letters(players: int) -> list[str]:
    """Each seat's compass point, short (N, E, S, W; head to head N and S), as the phone has it."""
    letters = [
        pgettext("compass point, short", "N"),
        pgettext("compass point, short", "E"),
        pgettext("compass point, short", "S"),
        pgettext("compass point, short", "W"),
    ]
    return letters[:players] if players != 2 else [letters[0], letters[2]]


def names_for(match: Match, seats: Sequence[Seat]) -> Names:
    """The match's seats ("Ana (N)") and sides (team names; at a table of many, the players);
    ``seats``: the table's (``presenters.table.seat_records``)."""
    compass = compass_letters(len(seats))
    labels = tuple(
        f"{s.player or s.side} ({compass[s.number]})" if s.number < len(compass) else s.player
        for s in seats
    )
    if match.table_entries > 2:
        entities = tuple(s.player for s in seats)
    else:
        entities = (match.entry_a.name, match.entry_b.name if match.entry_b else "")
    return Names(labels, entities, match.round.event)


def _where(d: Difference) -> str:
    hand, move = d.hand, d.move
    if hand is None:
        return gettext("The match's settings")
    if move is None:
        return gettext("Hand %(hand)s") % {"hand": hand + 1}
    kinds = {d.a.kind, d.b.kind} - {"none"}
    if kinds <= {"score"}:
        return gettext("Hand %(hand)s, play %(play)s") % {"hand": hand + 1, "play": move + 1}
    return gettext("Hand %(hand)s, turn %(play)s") % {"hand": hand + 1, "play": move + 1}


def phrase(entry: Entry, sheet: str, names: Names, *, move: int | None = None) -> str:
    """What one sheet says at the difference, ``sheet`` naming it ("your sheet", "theirs")."""
    v: dict[str, Any] = {"sheet": sheet}
    k = entry.kind
    if k == "score":
        v["points"] = names.points(entry.score)
        if entry.entity is not None:
            v["team"] = names.entity(entry.entity)
            return gettext("%(sheet)s gives %(points)s to %(team)s") % v
        v["player"] = names.seat(entry.seat)
        return gettext("%(sheet)s gives %(points)s to %(player)s") % v
    if k == "play":
        v.update(player=names.seat(entry.seat), tile=entry.tile, on=entry.on)
        v["points"] = names.points(entry.score or 0)
        if entry.on is None:
            return gettext("%(sheet)s has %(player)s open with %(tile)s for %(points)s") % v
        return gettext("%(sheet)s has %(player)s play %(tile)s on %(on)s for %(points)s") % v
    if k in ("draw", "pass", "leader"):
        v["player"] = names.seat(entry.seat)
        text = {
            "draw": gettext("%(sheet)s has %(player)s draw"),
            "pass": gettext("%(sheet)s has %(player)s pass"),
            "leader": gettext("%(sheet)s has %(player)s lead"),
        }[k]
        return text % v
    return _phrase_rest(entry, v, names, move)


def _phrase_rest(entry: Entry, v: dict[str, Any], names: Names, move: int | None) -> str:
    k = entry.kind
    if k == "none":
        return gettext("%(sheet)s has nothing there") % v
    if k == "end":
        if entry.end == "domino":
            return gettext("%(sheet)s has %(player)s go out") % {
                **v,
                "player": names.seat(entry.seat),
            }
        if entry.end == "blocked":
            return gettext("%(sheet)s has the hand blocked") % v
        return gettext("%(sheet)s has the hand not over") % v
    if k == "remaining":
        v.update(player=names.seat(entry.seat), pips=entry.pips if entry.pips is not None else "—")
        return gettext("%(sheet)s leaves %(pips)s pips with %(player)s") % v
    if k == "settlement":
        v.update(team=names.entity(entry.entity), points=names.points(entry.score))
        return gettext("%(sheet)s settles %(points)s for %(team)s") % v
    if k == "hands":
        return gettext("%(sheet)s has %(count)s hands") % {**v, "count": entry.count}
    if k == "form":
        if entry.form == "tally":
            return gettext("%(sheet)s has it as a tally") % v
        return gettext("%(sheet)s has it move by move") % v
    if k == "setting":
        return gettext("%(sheet)s has %(field)s %(value)s") % {
            **v,
            "field": entry.field,
            "value": "—" if entry.value is None else entry.value,
        }
    return gettext("%(sheet)s has something else") % v


def sentence(d: Difference, names: Names, *, mine: str, theirs: str) -> str:
    """The difference in one sentence: where, then what each sheet says (``d.a`` is named
    ``mine``, ``d.b`` ``theirs``)."""
    if d.what == "deal":
        return gettext("%(where)s: the two sheets have different deals") % {"where": _where(d)}
    return pgettext("first difference", "%(where)s: %(mine)s; %(theirs)s") % {
        "where": _where(d),
        "mine": phrase(d.a, mine, names, move=d.move),
        "theirs": phrase(d.b, theirs, names, move=d.move),
    }


def versions(
    sheet_mine: Any, sheet_theirs: Any, names: Names, *, phone: bool, theirs_name: str = ""
) -> dict[str, Any] | None:
    """The first difference of two sheets for a page: ``{"hand", "move", "what", "text"}``
    (``text`` the sentence: on a phone "your sheet ... theirs ..."; else both sheets named by
    their sides' names, ``names.entities``), or None when they do not differ."""
    d = first_difference(sheet_mine, sheet_theirs)
    if d is None:
        return None
    if phone:
        text = sentence(d, names, mine=gettext("your sheet"), theirs=gettext("theirs"))
    else:
        label = gettext("%(team)s's sheet")
        first, second = (label % {"team": n} for n in names.entities[:2])
        text = sentence(d, names, mine=first, theirs=theirs_name or second)
    return {"hand": d.hand, "move": d.move, "what": d.what, "text": text}


def side_by_side(sheet_a: Any, sheet_b: Any, names: Names) -> list[dict[str, Any]]:
    """Both versions of the hand that differs, from its first difference to its end: rows of
    ``{"label", "a", "b", "differs"}`` (each side's entry in words, without the sheet's name)."""
    d = first_difference(sheet_a, sheet_b)
    if d is None or d.hand is None:
        return []
    rows: list[dict[str, Any]] = []
    hands_a, hands_b = _hands(sheet_a), _hands(sheet_b)
    ha = hands_a[d.hand] if d.hand < len(hands_a) else {}
    hb = hands_b[d.hand] if d.hand < len(hands_b) else {}
    start = d.move or 0
    la, lb = _items(ha), _items(hb)
    for j in range(start, max(len(la), len(lb))):
        ea, eb = _entry_pair(la, lb, j)
        rows.append(
            {
                "label": gettext("Play %(play)s") % {"play": j + 1},
                "a": _bare(phrase(ea, "", names)),
                "b": _bare(phrase(eb, "", names)),
                "differs": ea != eb,
            }
        )
    end_a, end_b = _end_entry(ha), _end_entry(hb)
    rows.append(
        {
            "label": gettext("End"),
            "a": _bare(phrase(end_a, "", names)),
            "b": _bare(phrase(end_b, "", names)),
            "differs": end_a != end_b,
        }
    )
    return rows


def _hands(sheet: Any) -> list[Any]:
    hands = sheet.get("hands") if isinstance(sheet, dict) else None
    return hands if isinstance(hands, list) else []


def _items(hand: Any) -> list[Any]:
    if not isinstance(hand, dict):
        return []
    items = hand.get("tally") if "tally" in hand else hand.get("moves")
    return items if isinstance(items, list) else []


def _entry_pair(la: list[Any], lb: list[Any], j: int) -> tuple[Entry, Entry]:
    return (entry_of(la[j]) if j < len(la) else NONE, entry_of(lb[j]) if j < len(lb) else NONE)


def _end_entry(hand: Any) -> Entry:
    if not isinstance(hand, dict):
        return Entry("none")
    finisher = hand.get("finisher")
    return Entry("end", end=hand.get("end"), seat=finisher if type(finisher) is int else None)


def _bare(text: str) -> str:
    """A phrase written with an empty sheet name, without its leading space; capitalised."""
    text = text.strip()
    return text[:1].upper() + text[1:]


def for_director(
    match: Match, claims: Any, state: str, seats: Sequence[Seat]
) -> dict[str, Any] | None:
    """The director's page of a conflict between two sheets: ``{"text", "rows"}``, the first
    difference with both teams named and both versions side by side (``side_by_side``)."""
    if state != "conflict" or len(claims) != 2 or None in claims:
        return None
    a, b = claims
    if a.kind != "sheet" or b.kind != "sheet":
        return None
    names = names_for(match, seats)
    found = versions(a.sheet, b.sheet, names, phone=False)
    if found is None:
        return None
    return {**found, "rows": side_by_side(a.sheet, b.sheet, names), "names": names.entities}
