"""Where two scoresheets of one match first differ, and how: the hand, the play, and each
sheet's version of it (who scored, the points, the tile and where it went, the settlement).

:func:`first_difference` reads two ``fives-scoresheet/1`` sheets as stored (JSON-ready dicts,
neither needs to be valid) and walks them in the order they were played: the match's settings,
then hand by hand the leader, the form, every play (tally entry or move) in order, the end, the
tiles left and the settlement; the first thing that differs is returned as a :class:`Difference`.
``scoring.first_divergence`` says only where; this says what, for a sentence a player can act on
("Hand 3, play 2: your sheet gives 10 to Ana (N); theirs gives 10 to Luis (S)", which the
presenters write).

>>> a = {"hands": [{"leader": 0, "tally": [{"seat": 0, "score": 10}]}]}
>>> b = {"hands": [{"leader": 0, "tally": [{"seat": 2, "score": 10}]}]}
>>> d = first_difference(a, b)
>>> (d.hand, d.move, d.what, d.a.seat, d.b.seat)
(0, 0, 'scorer', 0, 2)
>>> first_difference(a, a) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from scoring.tiles import TILE_LOOKUP

__all__ = ["HEADER_KEYS", "NONE", "Difference", "Entry", "entry_of", "first_difference"]

HEADER_KEYS: Final = ("rules", "players", "partnerships", "target", "hand_size", "time")
"""The match's settings, compared before the hands (``result`` follows from the hands)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One sheet's version of the thing that differs.

    ``kind``: ``"score"`` (a tally entry), ``"play"``, ``"draw"``, ``"pass"`` (moves),
    ``"leader"``, ``"end"`` (``end`` is ``"domino"``, ``"blocked"`` or None, ``seat`` the
    finisher), ``"remaining"`` (``seat`` and its ``pips``), ``"settlement"`` (``entity`` and
    ``score``), ``"hands"`` (``count``), ``"form"`` (``form``), ``"setting"`` (``field``,
    ``value``), or ``"none"`` (this sheet has nothing there)."""

    kind: str
    seat: int | None = None
    entity: int | None = None
    score: Any = None
    tile: str | None = None
    on: str | None = None
    drawn: Any = None
    end: str | None = None
    pips: Any = None
    count: int | None = None
    form: str | None = None
    field: str | None = None
    value: Any = None


@dataclass(frozen=True, slots=True)
class Difference:
    """The first difference: ``hand`` and ``move`` (0-based; ``move`` indexes the hand's
    ``tally`` or ``moves``; None where the difference is not in one play), ``what`` differs, and
    each sheet's version (``a`` for the first sheet given, ``b`` for the second).

    ``what``: ``"setting"``, ``"hands"`` (one sheet has more hands), ``"leader"``, ``"form"``
    (tally on one, moves on the other), ``"deal"``, ``"scorer"`` (the same points to someone
    else), ``"points"`` (the same scorer, other points), ``"entry"`` (both), ``"tile"``,
    ``"placement"`` (the same tile on another tile), ``"turn"`` (another seat or another kind of
    move), ``"draw"``, ``"missing"`` (one sheet has a play the other has not), ``"end"``,
    ``"remaining"``, ``"settlement"``, or ``"other"`` (a hand that is not a JSON object)."""

    hand: int | None
    move: int | None
    what: str
    a: Entry
    b: Entry

    def swapped(self) -> Difference:
        """The same difference seen from the other sheet."""
        return Difference(self.hand, self.move, self.what, self.b, self.a)


NONE: Final = Entry("none")


def _tile(v: Any) -> str | None:
    """A tile in its canonical spelling ("4-6" for "6-4", "[4|6]"); other values as text."""
    if v is None:
        return None
    found = TILE_LOOKUP.get(v) if isinstance(v, str) else None
    return str(found) if found is not None else str(v)


def _int(v: Any) -> int | None:
    return v if type(v) is int else None


def _hands(sheet: Any) -> list[Any]:
    hands = sheet.get("hands") if isinstance(sheet, dict) else None
    return hands if isinstance(hands, list) else []


def _form(hand: Any) -> str:
    if isinstance(hand, dict) and "tally" in hand:
        return "tally"
    return "moves"


def _entries(hand: Any) -> list[Any]:
    items = hand.get(_form(hand)) if isinstance(hand, dict) else None
    return items if isinstance(items, list) else []


def first_difference(sheet_a: Any, sheet_b: Any) -> Difference | None:
    """The first difference between two sheets, in the order the match was played, or None
    when they record the same match (tile spellings aside)."""
    for key in HEADER_KEYS:
        va = sheet_a.get(key) if isinstance(sheet_a, dict) else None
        vb = sheet_b.get(key) if isinstance(sheet_b, dict) else None
        if va != vb:
            return Difference(
                None,
                None,
                "setting",
                Entry("setting", field=key, value=va),
                Entry("setting", field=key, value=vb),
            )
    ha, hb = _hands(sheet_a), _hands(sheet_b)
    for i in range(min(len(ha), len(hb))):
        found = _hand_difference(i, ha[i], hb[i])
        if found is not None:
            return found
    if len(ha) != len(hb):
        i = min(len(ha), len(hb))
        return Difference(
            i, None, "hands", Entry("hands", count=len(ha)), Entry("hands", count=len(hb))
        )
    return None


def _hand_difference(i: int, a: Any, b: Any) -> Difference | None:
    """The first difference inside hand ``i``, or None."""
    if a == b:
        return None
    if not isinstance(a, dict) or not isinstance(b, dict):
        return Difference(i, None, "other", NONE, NONE)
    if a.get("leader") != b.get("leader"):
        return Difference(
            i,
            None,
            "leader",
            Entry("leader", seat=_int(a.get("leader"))),
            Entry("leader", seat=_int(b.get("leader"))),
        )
    if _form(a) != _form(b):
        return Difference(
            i, None, "form", Entry("form", form=_form(a)), Entry("form", form=_form(b))
        )
    if a.get("deal") != b.get("deal"):
        return Difference(i, None, "deal", Entry("deal"), Entry("deal"))
    found = _plays_difference(i, _entries(a), _entries(b))
    if found is not None:
        return found
    return _ending_difference(i, a, b)


def _plays_difference(i: int, xs: list[Any], ys: list[Any]) -> Difference | None:
    for j in range(max(len(xs), len(ys))):
        ea = entry_of(xs[j]) if j < len(xs) else NONE
        eb = entry_of(ys[j]) if j < len(ys) else NONE
        if ea != eb:
            return Difference(i, j, _what(ea, eb), ea, eb)
    return None


def entry_of(item: Any) -> Entry:
    """A tally entry or a move as an :class:`Entry` (canonical tiles)."""
    if not isinstance(item, dict):
        return Entry("other", value=item)
    seat, entity = _int(item.get("seat")), _int(item.get("entity"))
    if "play" in item:
        return Entry(
            "play",
            seat=seat,
            score=item.get("score"),
            tile=_tile(item["play"]),
            on=_tile(item.get("on")),
        )
    if "draw" in item:
        drawn = item["draw"]
        drawn = [_tile(t) for t in drawn] if isinstance(drawn, list) else drawn
        return Entry("draw", seat=seat, drawn=drawn)
    if "pass" in item:
        return Entry("pass", seat=seat)
    return Entry("score", seat=seat, entity=entity, score=item.get("score"))


def _what(a: Entry, b: Entry) -> str:
    """How two versions of one play differ."""
    if a.kind == "none" or b.kind == "none":
        return "missing"
    if a.kind != b.kind:
        return "turn"
    if a.kind == "score":
        same_who = (a.seat, a.entity) == (b.seat, b.entity)
        return "points" if same_who else "scorer" if a.score == b.score else "entry"
    if a.kind == "play":
        if a.tile != b.tile:
            return "tile"
        if a.seat != b.seat:
            return "scorer" if a.score == b.score and a.score else "turn"
        return "placement" if a.on != b.on else "points"
    return "turn" if a.seat != b.seat else "draw"


def _ending_difference(i: int, a: dict[str, Any], b: dict[str, Any]) -> Difference | None:
    """The difference after the plays: the end, the tiles left, the settlement (None: the two
    hands differ in nothing this reads, e.g. only in how a tile is spelt)."""
    if (a.get("end"), a.get("finisher")) != (b.get("end"), b.get("finisher")):
        return Difference(
            i,
            None,
            "end",
            Entry("end", end=a.get("end"), seat=_int(a.get("finisher"))),
            Entry("end", end=b.get("end"), seat=_int(b.get("finisher"))),
        )
    ra, rb = _per_seat(a.get("remaining")), _per_seat(b.get("remaining"))
    for s in range(max(len(ra), len(rb))):
        pa, pb = (ra[s] if s < len(ra) else None), (rb[s] if s < len(rb) else None)
        if pa != pb:
            return Difference(
                i,
                None,
                "remaining",
                Entry("remaining", seat=s, pips=pa),
                Entry("remaining", seat=s, pips=pb),
            )
    sa, sb = _list(a.get("settlement")), _list(b.get("settlement"))
    for e in range(max(len(sa), len(sb))):
        xa, xb = (sa[e] if e < len(sa) else None), (sb[e] if e < len(sb) else None)
        if xa != xb:
            return Difference(
                i,
                None,
                "settlement",
                Entry("settlement", entity=e, score=xa),
                Entry("settlement", entity=e, score=xb),
            )
    return None


def _list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else []


def _per_seat(v: Any) -> list[Any]:
    """Each seat's tiles left as a pip total where they are listed (a list of tiles is read as
    the sum of its pips, so two spellings of one hand are equal)."""
    out: list[Any] = []
    for held in _list(v):
        if isinstance(held, list):
            tiles = [TILE_LOOKUP.get(t) if isinstance(t, str) else None for t in held]
            if all(t is not None for t in tiles):
                out.append(sum(t.pips for t in tiles if t is not None))
                continue
        out.append(held)
    return out
