"""Geometry for pictures: where each tile of a position lies on an integer grid.

Data only (dataclasses with ``as_dict()``, JSON-serialisable); the pages draw it as SVG.

The grid: one half of a tile is a 2 x 2 square, so a tile is 4 long and 2 wide; ``x`` grows to
the right and ``y`` downwards (as in SVG). The opening tile is centred on the origin, lying
horizontally: a non-double shows its low half on the left; a double stands crosswise (vertical).
Each later tile is laid from the *port* it uses: a point on the edge of the tile it touches and
the direction in which the arm grows. A non-double continues the arm; a double lies crosswise to
it, its second line side straight ahead and its branch sides to the left and right.

Bending: arms grow straight while they can. A non-double is laid straight when it fits and
leaves room ahead (:data:`AHEAD` units: a crosswise double and one more tile); else it turns a
corner (left, else right), keeping its touching half just beyond the port, and the arm goes on in
the new direction; when no direction leaves room ahead, the first direction where the tile
itself fits is taken. A double is never turned (it must lie crosswise
to its arm); if it, or a non-double in every direction, would still overlap, it is drawn straight
and the picture's ``overlaps`` lists it. The seed-000 drawing convention is carried by
:attr:`Port.counted`: a counted end is drawn as a filled number, an open port that is not counted
as a hollow dot.

>>> from scoring.tiles import Tile
>>> lay = Layout("five-up")
>>> _ = lay.place(Tile.parse("3-6"), None); _ = lay.place(Tile.parse("6-6"), Tile.parse("3-6"))
>>> pic = picture(lay)
>>> [(t.tile, t.x, t.y, t.w, t.h) for t in pic.tiles]
[('3-6', -2, -1, 4, 2), ('6-6', 2, -2, 2, 4)]
>>> pic.total, [(c.tile, c.contribution) for c in pic.counted]
(15, [('3-6', 3), ('6-6', 12)])
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

from scoring.layout import BRANCH, HIGH, LINE, LOW, PORT_NAMES, Layout, Placement
from scoring.sheet import PLAY, parse_sheet
from scoring.tiles import Tile

__all__ = ["Counted", "Picture", "Port", "Rect", "TilePlace", "picture", "position_after"]

Vec = tuple[int, int]
AHEAD: Final = 8
"""How far ahead (grid units) an arm looks for room: a crosswise double and one more tile."""


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle on the grid: top-left ``(x, y)``, width ``w``, height ``h``."""

    x: int
    y: int
    w: int
    h: int

    def overlaps(self, other: Rect) -> bool:
        """Whether the two rectangles share area (touching edges do not count)."""
        return (
            self.x < other.x + other.w
            and other.x < self.x + self.w
            and self.y < other.y + other.h
            and other.y < self.y + self.h
        )


@dataclass(frozen=True, slots=True)
class TilePlace:
    """One tile drawn: its rectangle, ``first``/``second`` the values of its left/top and
    right/bottom halves, ``horizontal`` its orientation, ``order`` its placement index."""

    tile: str
    x: int
    y: int
    w: int
    h: int
    horizontal: bool
    first: int
    second: int
    double: bool
    spinner: bool
    bent: bool
    order: int


@dataclass(frozen=True, slots=True)
class Port:
    """An open port: where the next tile would touch (``x``, ``y``) and the direction it would
    grow (``dx``, ``dy``); ``side`` is "low end", "high end", "line" or "branch". ``counted``
    tells whether this side adds to the end total (a filled number) or not (a hollow dot)."""

    tile: str
    side: str
    value: int
    x: int
    y: int
    dx: int
    dy: int
    counted: bool


@dataclass(frozen=True, slots=True)
class Counted:
    """A counted end: its tile and side and what it adds to the end total (a terminal double
    adds 2 x its value once, with side "line")."""

    tile: str
    side: str
    contribution: int


@dataclass(frozen=True, slots=True)
class Picture:
    """Everything a page needs to draw one position."""

    rules: str
    tiles: tuple[TilePlace, ...]
    ports: tuple[Port, ...]
    counted: tuple[Counted, ...]
    total: int
    bounds: Rect
    overlaps: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (lists, not tuples)."""
        return _lists(asdict(self))  # type: ignore[no-any-return]


def _lists(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_lists(v) for v in value]
    return value


def _left(d: Vec) -> Vec:
    # Screen coordinates (y down): turning left from east (1, 0) faces north (0, -1).
    return (d[1], -d[0])


def _right(d: Vec) -> Vec:
    return (-d[1], d[0])


def _add(p: Vec, d: Vec, k: int = 1) -> Vec:
    return (p[0] + k * d[0], p[1] + k * d[1])


def _rect_from(a: Vec, b: Vec) -> Rect:
    """The rectangle spanned by two opposite corners."""
    x0, x1 = sorted((a[0], b[0]))
    y0, y1 = sorted((a[1], b[1]))
    return Rect(x0, y0, x1 - x0, y1 - y0)


def _halves(tile: Tile, near: int, d: Vec) -> tuple[int, int]:
    """(left/top value, right/bottom value) of a non-double laid along ``d`` touching with
    ``near``."""
    far = tile.other(near)
    return (near, far) if d[0] + d[1] > 0 else (far, near)


PortMap = dict[tuple[int, int, int], tuple[Vec, Vec]]
"""Where each tile's ports are: (tile index, port kind, slot) -> (position, direction)."""


def picture(layout: Layout) -> Picture:
    """The geometry of a position: each tile's place, the open ports and the counted ends."""
    rects: list[Rect] = []
    places: list[TilePlace] = []
    ports: PortMap = {}
    overlaps: list[str] = []
    for order, p in enumerate(layout.placements):
        if p.on is None:
            place = _place_opening(p.tile, layout.is_spinner(p.tile), ports)
        elif p.tile.is_double:
            place = _place_double(p, layout.is_spinner(p.tile), order, ports, rects, overlaps)
        else:
            place = _place_single(p, order, ports, rects, overlaps)
        rects.append(Rect(place.x, place.y, place.w, place.h))
        places.append(place)
    counted = tuple(Counted(str(t), PORT_NAMES[k], c) for t, k, c in layout.counted_ends())
    return Picture(
        layout.rules.name, tuple(places), tuple(_open_ports(layout, ports)), counted,
        layout.total, _bounds(rects), tuple(overlaps),
    )  # fmt: skip


def _place_opening(t: Tile, spinner: bool, ports: PortMap) -> TilePlace:
    """The opening tile, centred on the origin: a double stands crosswise, a single lies along."""
    if t.is_double:
        ports[(t.index, LINE, 0)] = ((1, 0), (1, 0))
        ports[(t.index, LINE, 1)] = ((-1, 0), (-1, 0))
        ports[(t.index, BRANCH, 0)] = ((0, -2), (0, -1))
        ports[(t.index, BRANCH, 1)] = ((0, 2), (0, 1))
        return TilePlace(str(t), -1, -2, 2, 4, False, t.low, t.high, True, spinner, False, 0)
    ports[(t.index, LOW, 0)] = ((-2, 0), (-1, 0))
    ports[(t.index, HIGH, 0)] = ((2, 0), (1, 0))
    return TilePlace(str(t), -2, -1, 4, 2, True, t.low, t.high, False, False, False, 0)


def _place_double(
    p: Placement,
    spinner: bool,
    order: int,
    ports: PortMap,
    rects: list[Rect],
    overlaps: list[str],
) -> TilePlace:
    """A double played on a port: crosswise to the line, its branch ports to either side."""
    t, on = p.tile, p.on
    assert on is not None
    start, d = ports[(on.index, p.port, p.slot)]
    v = on.high if p.port == HIGH else on.low
    centre = _add(start, d)
    e = _right(d)
    rect = _rect_from(_add(start, e, 2), _add(_add(start, d, 2), e, -2))
    if any(rect.overlaps(r) for r in rects):
        overlaps.append(str(t))
    ports[(t.index, LINE, 1)] = (_add(start, d, 2), d)
    ports[(t.index, BRANCH, 0)] = (_add(centre, _left(d), 2), _left(d))
    ports[(t.index, BRANCH, 1)] = (_add(centre, e, 2), e)
    return TilePlace(
        str(t), rect.x, rect.y, rect.w, rect.h, d[1] != 0, v, v, True, spinner, False, order
    )


def _single_options(start: Vec, d: Vec) -> list[tuple[Rect, Vec, Vec]]:
    """Where a single tile on the port at ``start`` facing ``d`` may lie: straight on, or
    turning a corner either way (the touching half stays just beyond the port)."""
    near_square = _add(start, d)  # centre of the touching half
    options: list[tuple[Rect, Vec, Vec]] = []
    for e in (d, _left(d), _right(d)):
        if e == d:
            rect = _rect_from(_add(start, _right(d)), _add(_add(start, d, 4), _left(d)))
            options.append((rect, _add(start, d, 4), d))
        else:
            back = (-e[0], -e[1])
            rect = _rect_from(
                _add(_add(near_square, back), d, -1), _add(_add(near_square, e, 3), d, 1)
            )
            options.append((rect, _add(near_square, e, 3), e))
    return options


def _choose(
    options: list[tuple[Rect, Vec, Vec]], rects: list[Rect]
) -> tuple[Rect, Vec, Vec] | None:
    """First choice: a direction that also leaves room ahead for a crosswise double; else any
    direction where the tile itself fits; None where none does."""
    for look_ahead in (True, False):
        for rect, pp, pd in options:
            if any(rect.overlaps(r) for r in rects):
                continue
            if look_ahead:
                room = _rect_from(_add(pp, _right(pd), 2), _add(_add(pp, pd, AHEAD), _left(pd), 2))
                if any(room.overlaps(r) for r in rects):
                    continue
            return rect, pp, pd
    return None


def _place_single(
    p: Placement, order: int, ports: PortMap, rects: list[Rect], overlaps: list[str]
) -> TilePlace:
    """A single tile played on a port: straight on where it fits, else round a corner."""
    t, on = p.tile, p.on
    assert on is not None
    start, d = ports[(on.index, p.port, p.slot)]
    v = on.high if p.port == HIGH else on.low
    chosen = _choose(_single_options(start, d), rects)
    if chosen is None:
        overlaps.append(str(t))
        rect = _rect_from(_add(start, _right(d)), _add(_add(start, d, 4), _left(d)))
        chosen = (rect, _add(start, d, 4), d)
    rect, pp, pd = chosen
    free_port = HIGH if t.low == v else LOW
    ports[(t.index, free_port, 0)] = (pp, pd)
    first, second = _halves(t, v, pd)
    return TilePlace(
        str(t), rect.x, rect.y, rect.w, rect.h, pd[1] == 0, first, second, False, False,
        pd != d, order,
    )  # fmt: skip


def _open_ports(layout: Layout, ports: PortMap) -> list[Port]:
    """Every port a tile may still be played on, in placement order."""
    out_ports: list[Port] = []
    counts = layout.rules.internal_branches_count
    for p in layout.placements:
        t = p.tile
        free, branch = layout.free_sides(t)
        if not t.is_double:
            for kind, value in ((LOW, t.low), (HIGH, t.high)):
                if free >> kind & 1:
                    (x, y), (dx, dy) = ports[(t.index, kind, 0)]
                    out_ports.append(Port(str(t), PORT_NAMES[kind], value, x, y, dx, dy, True))
            continue
        # The free line sides are the last ones of the double's slots, branch sides likewise.
        line_slots = [1] if p.on is not None else [0, 1]
        for slot in line_slots[len(line_slots) - free :]:
            (x, y), (dx, dy) = ports[(t.index, LINE, slot)]
            out_ports.append(Port(str(t), "line", t.low, x, y, dx, dy, True))
        if not free:
            for slot in (0, 1)[2 - branch :]:
                (x, y), (dx, dy) = ports[(t.index, BRANCH, slot)]
                out_ports.append(Port(str(t), "branch", t.low, x, y, dx, dy, counts))
    return out_ports


def _bounds(rects: list[Rect]) -> Rect:
    """The smallest rectangle holding every tile (empty at the origin for no tile)."""
    if not rects:
        return Rect(0, 0, 0, 0)
    x0 = min(r.x for r in rects)
    y0 = min(r.y for r in rects)
    return Rect(x0, y0, max(r.x + r.w for r in rects) - x0, max(r.y + r.h for r in rects) - y0)


def position_after(sheet: dict[str, Any], hand: int, move: int | None) -> Layout:
    """The layout of a move-form sheet after hand ``hand``, move ``move`` (both 0-based,
    ``move`` included; None: after the hand's last move).

    Meant for a sheet that verified valid; raises ``ValueError`` (``FormatFault``,
    ``IllegalPlacement``, ``IndexError`` turned into ``ValueError``) otherwise.

    >>> from scoring.simulate import simulate
    >>> s = next(simulate("five-up", 2, seed=1))
    >>> position_after(s, 0, 0).placements[0].tile == Tile.parse(s["hands"][0]["moves"][0]["play"])
    True
    """
    parsed = parse_sheet(sheet)
    if not 0 <= hand < len(parsed.hands):
        raise ValueError(f"the sheet has no hand {hand}")
    h = parsed.hands[hand]
    if h.moves is None:
        raise ValueError(f"hand {hand} is in tally form: it has no positions")
    if move is not None and not 0 <= move < len(h.moves):
        raise ValueError(f"hand {hand} has no move {move}")
    layout = Layout(parsed.options.rules)
    for kind, _seat, tile, on, _score, _drawn, _n in h.moves[: None if move is None else move + 1]:
        if kind == PLAY:
            assert tile is not None
            layout.place(tile, on)
    return layout
