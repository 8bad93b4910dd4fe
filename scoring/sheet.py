"""Strict parsing of a ``fives-scoresheet/1`` sheet (``shared/spec/scoresheet.md``).

:func:`parse_sheet` checks the whole sheet's shape before anything is replayed and returns a
:class:`Sheet` of small records; the first shape problem raises :class:`FormatFault` with the
location (hand and move or tally index, where it has one) and a message naming the field.
:func:`sheet_to_dict` prints a parsed sheet back (canonical tile spellings).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, NamedTuple

from scoring.rules import RULESETS, TIME_POLICIES, MatchOptions, OptionError, Score, find_ruleset
from scoring.tiles import TILE_LOOKUP, Tile, TileError

__all__ = [
    "DRAW",
    "FORMAT",
    "PASS",
    "PLAY",
    "FormatFault",
    "Hand",
    "Move",
    "Sheet",
    "TallyEntry",
    "parse_sheet",
    "sheet_to_dict",
]

FORMAT: Final = "fives-scoresheet/1"
PLAY: Final = 0
DRAW: Final = 1
PASS: Final = 2

_SHEET_KEYS: Final = frozenset(
    ("format", "rules", "players", "partnerships", "target", "hand_size", "time", "hands", "result")
)
_HAND_KEYS: Final = frozenset(
    ("leader", "deal", "moves", "tally", "end", "finisher", "remaining", "settlement")
)
_LOOK: Final = TILE_LOOKUP


# Every key of TILE_LOOKUP is a str: ``get`` of any other hashable gives None.
_LOOK_GET: Final = TILE_LOOKUP.get


class FormatFault(ValueError):
    """The sheet is not a well-formed ``fives-scoresheet/1`` sheet."""

    def __init__(self, message: str, hand: int | None = None, move: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hand = hand
        self.move = move


Move = tuple[int, int, Tile | None, Tile | None, int, tuple[Tile, ...] | None, int]
"""One turn of move form, a plain tuple (the cheapest record to build and unpack):
``(kind, seat, tile, on, score, drawn, n_drawn)``. ``kind`` is :data:`PLAY`, :data:`DRAW` or
:data:`PASS`; a play has ``tile``, ``on`` (None for the opening) and the claimed ``score``; a
draw has ``drawn`` (the tiles, when listed, else None) and ``n_drawn``."""


@dataclass(frozen=True, slots=True)
class TallyEntry:
    """One scoring placement in tally form, by ``seat`` or by ``entity`` (one is None)."""

    seat: int | None
    entity: int | None
    score: int


class Hand(NamedTuple):
    """One hand as recorded. Exactly one of ``moves`` and ``tally`` is set."""

    leader: int
    deal: tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]] | None
    moves: tuple[Move, ...] | None
    tally: tuple[TallyEntry, ...] | None
    end: str | None
    finisher: int | None
    remaining: tuple[tuple[Tile, ...] | int, ...] | None
    settlement: tuple[Score, ...] | None


@dataclass(frozen=True, slots=True)
class Sheet:
    """A parsed sheet: the match options, the hands, the time call and the claimed result."""

    options: MatchOptions
    hands: tuple[Hand, ...]
    time_called: int | None
    time_policy: str | None
    result: tuple[tuple[Score, ...], int | None] | None
    explicit: frozenset[str]


def _is_int(v: object) -> bool:
    return type(v) is int


def _where(hand: int | None, move: int | None, what: str) -> str:
    if hand is None:
        return what
    if move is None:
        return f"hand {hand + 1}: {what}"
    return f"hand {hand + 1}, {what}"


def _tile(v: object, field: str, hand: int | None, move: int | None) -> Tile:
    if isinstance(v, str):
        t = TILE_LOOKUP.get(v)
        if t is not None:
            return t
        try:
            return Tile.parse(v)
        except TileError:
            pass
    raise FormatFault(
        _where(hand, move, f"{field} is {json_repr(v)}, not a tile (write a tile like 4-6)"),
        hand,
        move,
    )


def json_repr(v: object) -> str:
    """A short JSON-ish rendering of a value for messages."""
    if isinstance(v, str):
        return '"' + v[:40] + '"'
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _half(v: object) -> Score | None:
    """An integer or a half (2.5) as an exact score, else None."""
    if _is_int(v):
        return v  # type: ignore[return-value]
    if type(v) is float and math.isfinite(v) and (2 * v).is_integer():
        f = Fraction(v)
        return f.numerator if f.denominator == 1 else f
    return None


def _seat(v: object, players: int, field: str, hand: int | None, move: int | None) -> int:
    if not _is_int(v):
        raise FormatFault(
            _where(hand, move, f"{field} must be a seat number, not {json_repr(v)}"), hand, move
        )
    assert isinstance(v, int)
    if not 0 <= v < players:
        raise FormatFault(
            _where(hand, move, f"{field} {v} is not a seat (seats are 0 to {players - 1})"),
            hand,
            move,
        )
    return v


def _tile_list(v: object, field: str, hand: int | None, move: int | None) -> tuple[Tile, ...]:
    if type(v) is list:
        try:
            ts = tuple(map(_LOOK_GET, v))
        except TypeError:  # an unhashable entry: the slow path names it
            pass
        else:
            if all(ts):
                return ts  # type: ignore[return-value]
    if not isinstance(v, list):
        raise FormatFault(_where(hand, move, f"{field} must be a list of tiles"), hand, move)
    return tuple(_tile(x, field, hand, move) for x in v)


def parse_sheet(sheet: object) -> Sheet:
    """Check a decoded sheet's whole shape and return it parsed; raise :class:`FormatFault`.

    >>> s = parse_sheet({"format": "fives-scoresheet/1", "rules": "five-up", "players": 2,
    ...                  "hands": []})
    >>> s.options.target, s.options.hand_size
    (305, 5)
    """
    if not isinstance(sheet, dict):
        raise FormatFault("the sheet must be a JSON object")
    for key in sheet:
        if key not in _SHEET_KEYS:
            raise FormatFault(f"unknown field {json_repr(key)} in the sheet")
    options = _parse_options(sheet)
    if "hands" not in sheet:
        raise FormatFault('the field "hands" is missing')
    raw_hands = sheet["hands"]
    if not isinstance(raw_hands, list):
        raise FormatFault('"hands" must be a list of hands')
    hands = tuple(_parse_hand(h, i, options) for i, h in enumerate(raw_hands))
    time_called, policy = (
        _parse_time(sheet["time"], len(hands)) if "time" in sheet else (None, None)
    )
    result = _parse_result(sheet["result"], options) if "result" in sheet else None
    return Sheet(options, hands, time_called, policy, result, frozenset(sheet))


def _parse_options(sheet: dict[str, Any]) -> MatchOptions:
    """The sheet's game: format, rule set, players, partnerships, target and hand size."""
    if "format" not in sheet:
        raise FormatFault('the field "format" is missing (it must be "fives-scoresheet/1")')
    if sheet["format"] != FORMAT:
        raise FormatFault(f'"format" must be "{FORMAT}", not {json_repr(sheet["format"])}')
    if "rules" not in sheet:
        raise FormatFault('the field "rules" is missing')
    rules_name = sheet["rules"]
    if not isinstance(rules_name, str) or rules_name not in RULESETS:
        raise FormatFault(
            f'"rules" {json_repr(rules_name)} is not a known rule set '
            f"(known: {', '.join(RULESETS)})"
        )
    rules = find_ruleset(rules_name)
    if "players" not in sheet:
        raise FormatFault('the field "players" is missing')
    players = sheet["players"]
    if not _is_int(players) or players not in (2, 3, 4):
        raise FormatFault(f'"players" must be 2, 3 or 4, not {json_repr(players)}')
    partnerships = sheet.get("partnerships")
    if partnerships is not None and not isinstance(partnerships, bool):
        raise FormatFault(f'"partnerships" must be true or false, not {json_repr(partnerships)}')
    if "partnerships" in sheet and partnerships is None:
        raise FormatFault('"partnerships" must be true or false, not null')
    if partnerships and players != 4:
        raise FormatFault(f'"partnerships" cannot be true with {players} players')
    target = sheet.get("target")
    if "target" in sheet and (not _is_int(target) or target <= 0):  # type: ignore[operator]
        raise FormatFault(f'"target" must be a positive whole number, not {json_repr(target)}')
    hand_size = sheet.get("hand_size")
    if "hand_size" in sheet and (
        not _is_int(hand_size) or not 1 <= hand_size <= 28 // players  # type: ignore[operator]
    ):
        raise FormatFault(
            f'"hand_size" must be a whole number from 1 to {28 // players} with {players} '
            f"players, not {json_repr(hand_size)}"
        )
    try:
        return rules.options(players, target=target, hand_size=hand_size, partnerships=partnerships)
    except OptionError as exc:  # pragma: no cover - every case is caught above
        raise FormatFault(str(exc)) from None


def _parse_time(t: object, hands: int) -> tuple[int, str]:
    """The sheet's ``time``: the hand in which time was called, and the policy applied."""
    if not isinstance(t, dict) or set(t) != {"called_in_hand", "policy"}:
        raise FormatFault('"time" must be {"called_in_hand": hand index, "policy": ...}')
    called = t["called_in_hand"]
    if not _is_int(called) or not 0 <= called < hands:
        raise FormatFault(
            f'"time.called_in_hand" must be the index of a hand of "hands", not {json_repr(called)}'
        )
    if t["policy"] not in TIME_POLICIES:
        raise FormatFault(
            f'"time.policy" must be "finish-hand" or "one-more-hand", not {json_repr(t["policy"])}'
        )
    return called, t["policy"]


def _parse_result(r: object, options: MatchOptions) -> tuple[tuple[Score, ...], int | None]:
    """The sheet's claimed ``result``: a score per scoring entity and the winner (or null)."""
    if not isinstance(r, dict) or set(r) != {"scores", "winner"}:
        raise FormatFault('"result" must be {"scores": [...], "winner": entity or null}')
    sc = r["scores"]
    n = options.entities
    if not isinstance(sc, list) or len(sc) != n:
        raise FormatFault(f'"result.scores" must list {n} scores, one per scoring entity')
    scores: list[Score] = []
    for v in sc:
        h = _half(v)
        if h is None:
            raise FormatFault(f'"result.scores" holds {json_repr(v)}, not a score')
        scores.append(h)
    w = r["winner"]
    if w is not None and (not _is_int(w) or not 0 <= w < n):
        raise FormatFault(
            f'"result.winner" must be a scoring entity 0 to {n - 1} or null, not {json_repr(w)}'
        )
    return tuple(scores), w


def _parse_hand(h: object, i: int, options: MatchOptions) -> Hand:
    players = options.players
    if not isinstance(h, dict):
        raise FormatFault(f"hand {i + 1} must be a JSON object", i)
    if not _HAND_KEYS.issuperset(h):
        key = next(k for k in h if k not in _HAND_KEYS)
        raise FormatFault(f"hand {i + 1}: unknown field {json_repr(key)}", i)
    if "leader" not in h:
        raise FormatFault(f'hand {i + 1}: the field "leader" is missing', i)
    leader = h["leader"]
    if type(leader) is not int or not 0 <= leader < players:
        leader = _seat(leader, players, '"leader"', i, None)
    deal = _parse_deal(h["deal"], i) if "deal" in h else None
    moves, tally = _parse_plays(h, i, options, deal is not None)
    end = h.get("end")
    if "end" in h and end not in ("domino", "blocked"):
        raise FormatFault(
            f'hand {i + 1}: "end" must be "domino" or "blocked", not {json_repr(end)}', i
        )
    finisher = None
    if "finisher" in h:
        finisher = h["finisher"]
        if type(finisher) is not int or not 0 <= finisher < players:
            finisher = _seat(finisher, players, '"finisher"', i, None)
    elif end == "domino" and tally is not None:
        raise FormatFault(f'hand {i + 1}: "finisher" is missing (the seat that dominoed)', i)
    remaining = None
    if "remaining" in h:
        remaining = _parse_remaining(h["remaining"], i, players)
    elif end is not None and deal is None:
        raise FormatFault(
            f'hand {i + 1}: "remaining" is missing (what each seat still held at the end)', i
        )
    settlement = _parse_settlement(h["settlement"], i, options) if "settlement" in h else None
    return Hand(leader, deal, moves, tally, end, finisher, remaining, settlement)


def _parse_deal(d: object, i: int) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
    """A hand's ``deal``: each seat's tiles and the boneyard in drawing order."""
    if type(d) is not dict or len(d) != 2 or "hands" not in d or "boneyard" not in d:
        raise FormatFault(f'hand {i + 1}: "deal" must be {{"hands": [...], "boneyard": [...]}}', i)
    dh = d["hands"]
    if not isinstance(dh, list):
        raise FormatFault(
            f'hand {i + 1}: "deal.hands" must be a list of tile lists, one per seat', i
        )
    return (
        tuple([_tile_list(x, '"deal.hands"', i, None) for x in dh]),
        _tile_list(d["boneyard"], '"deal.boneyard"', i, None),
    )


def _parse_plays(
    h: dict[str, Any], i: int, options: MatchOptions, with_deal: bool
) -> tuple[tuple[Move, ...] | None, tuple[TallyEntry, ...] | None]:
    """A hand's ``moves`` or its ``tally`` (exactly one of them)."""
    has_moves, has_tally = "moves" in h, "tally" in h
    if has_moves == has_tally:
        raise FormatFault(
            f'hand {i + 1}: give exactly one of "moves" and "tally"'
            + (" (both are given)" if has_moves else " (neither is given)"),
            i,
        )
    if has_moves:
        raw = h["moves"]
        if not isinstance(raw, list):
            raise FormatFault(f'hand {i + 1}: "moves" must be a list of moves', i)
        return _parse_moves(raw, i, options.players, with_deal), None
    raw = h["tally"]
    if not isinstance(raw, list):
        raise FormatFault(f'hand {i + 1}: "tally" must be a list of scores', i)
    return None, tuple(_parse_tally(t, i, j, options) for j, t in enumerate(raw))


def _parse_remaining(r: object, i: int, players: int) -> tuple[tuple[Tile, ...] | int, ...]:
    """A hand's ``remaining``: per seat, the tiles still held or their pip total."""
    if not isinstance(r, list) or len(r) != players:
        raise FormatFault(f'hand {i + 1}: "remaining" must have one entry per seat ({players})', i)
    rem: list[tuple[Tile, ...] | int] = []
    for s, x in enumerate(r):
        if type(x) is int:
            if x < 0:
                raise FormatFault(f'hand {i + 1}: "remaining" of seat {s} is {x}, below zero', i)
            rem.append(x)
        elif isinstance(x, list):
            rem.append(_tile_list(x, f'"remaining" of seat {s}', i, None))
        else:
            raise FormatFault(
                f'hand {i + 1}: "remaining" of seat {s} must be a list of tiles or a pip'
                f" total, not {json_repr(x)}",
                i,
            )
    return tuple(rem)


def _parse_settlement(st: object, i: int, options: MatchOptions) -> tuple[Score, ...]:
    """A hand's ``settlement``: the change per scoring entity."""
    n = options.entities
    if not isinstance(st, list) or len(st) != n:
        raise FormatFault(
            f'hand {i + 1}: "settlement" must list {n} changes, one per scoring entity', i
        )
    vals: list[Score] = []
    for x in st:
        v = x if type(x) is int else _half(x)
        if v is None:
            raise FormatFault(f'hand {i + 1}: "settlement" holds {json_repr(x)}, not a score', i)
        vals.append(v)
    return tuple(vals)


def _parse_moves(raw: list[Any], i: int, players: int, with_deal: bool) -> tuple[Move, ...]:
    """Parse a hand's moves: a fast path for the common spellings, else :func:`_parse_move`
    (which accepts every valid move and names the field of an invalid one)."""
    look = _LOOK
    look_get = _LOOK_GET
    out: list[Move] = []
    append = out.append
    j = -1
    # ``in`` and subscripts rather than ``dict.get``: this loop runs once per move.
    for m in raw:
        j += 1
        try:
            if type(m) is dict and "seat" in m:
                seat = m["seat"]
                if type(seat) is int and 0 <= seat < players:
                    n = len(m)
                    if "play" in m:
                        if "score" in m:
                            play = m["play"]
                            score = m["score"]
                            # ``in look`` is False for any key that is not a tile's spelling
                            # and raises TypeError for an unhashable one (caught below).
                            if play in look and type(score) is int and score >= 0:
                                if n == 3:
                                    append((PLAY, seat, look[play], None, score, None, 0))
                                    continue
                                if n == 4 and "on" in m:
                                    on = m["on"]
                                    if on in look:
                                        append((PLAY, seat, look[play], look[on], score, None, 0))
                                        continue
                    elif n == 2:
                        if "draw" in m:
                            d = m["draw"]
                            if type(d) is list and d:
                                ts = tuple(map(look_get, d))
                                if all(ts):
                                    append((DRAW, seat, None, None, 0, ts, len(ts)))  # type: ignore[arg-type]
                                    continue
                        elif "pass" in m and m["pass"] is True:
                            append((PASS, seat, None, None, 0, None, 0))
                            continue
        except TypeError:  # an unhashable value where a tile belongs: the slow path names it
            pass
        append(_parse_move(m, i, j, players, with_deal))
    return tuple(out)


def _parse_move(m: object, i: int, j: int, players: int, with_deal: bool) -> Move:
    where = f"move {j + 1}"
    if not isinstance(m, dict):
        raise FormatFault(f"hand {i + 1}, {where} must be a JSON object", i, j)
    if "seat" not in m:
        raise FormatFault(f'hand {i + 1}, {where}: the field "seat" is missing', i, j)
    seat = _seat(m["seat"], players, f'{where}: "seat"', i, j)
    if "play" in m:
        for key in m:
            if key not in ("seat", "play", "on", "score"):
                raise FormatFault(
                    f"hand {i + 1}, {where}: unexpected field {json_repr(key)} in a play", i, j
                )
        tile = _tile(m["play"], f'{where}: "play"', i, j)
        on = _tile(m["on"], f'{where}: "on"', i, j) if "on" in m else None
        if "score" not in m:
            raise FormatFault(
                f'hand {i + 1}, {where}: the field "score" is missing (0 if none)', i, j
            )
        score = m["score"]
        if not _is_int(score) or score < 0:
            raise FormatFault(
                f'hand {i + 1}, {where}: "score" must be a whole number of at least 0, '
                f"not {json_repr(score)}",
                i,
                j,
            )
        return (PLAY, seat, tile, on, score, None, 0)
    if "draw" in m:
        if len(m) != 2:
            raise FormatFault(f'hand {i + 1}, {where}: a draw has only "seat" and "draw"', i, j)
        d = m["draw"]
        if _is_int(d):
            if with_deal:
                raise FormatFault(
                    f"hand {i + 1}, {where}: with the deal given, a draw must list the tiles drawn",
                    i,
                    j,
                )
            if d < 1:
                raise FormatFault(f"hand {i + 1}, {where}: a draw takes at least one tile", i, j)
            return (DRAW, seat, None, None, 0, None, d)
        drawn = _tile_list(d, f'{where}: "draw"', i, j)
        if not drawn:
            raise FormatFault(f"hand {i + 1}, {where}: a draw takes at least one tile", i, j)
        return (DRAW, seat, None, None, 0, drawn, len(drawn))
    if "pass" in m:
        if len(m) != 2 or m["pass"] is not True:
            raise FormatFault(f'hand {i + 1}, {where}: a pass is {{"seat": s, "pass": true}}', i, j)
        return (PASS, seat, None, None, 0, None, 0)
    raise FormatFault(f'hand {i + 1}, {where}: a move needs "play", "draw" or "pass"', i, j)


def _parse_tally(t: object, i: int, j: int, options: MatchOptions) -> TallyEntry:
    where = f"tally entry {j + 1}"
    if not isinstance(t, dict) or "score" not in t or len(t) != 2:
        raise FormatFault(
            f'hand {i + 1}, {where} must be {{"seat": s, "score": n}}'
            ' or {"entity": e, "score": n}',
            i,
            j,
        )
    score = t["score"]
    if not _is_int(score) or score < 0:
        raise FormatFault(
            f'hand {i + 1}, {where}: "score" must be a whole number of at least 0, '
            f"not {json_repr(score)}",
            i,
            j,
        )
    if "seat" in t:
        return TallyEntry(_seat(t["seat"], options.players, f'{where}: "seat"', i, j), None, score)
    if "entity" in t:
        e = t["entity"]
        n = options.entities
        if not _is_int(e) or not 0 <= e < n:
            raise FormatFault(
                f'hand {i + 1}, {where}: "entity" must be 0 to {n - 1}, not {json_repr(e)}', i, j
            )
        return TallyEntry(None, e, score)
    raise FormatFault(f'hand {i + 1}, {where}: give "seat" or "entity"', i, j)


def _score_json(v: Score) -> int | float:
    return v if isinstance(v, int) else (int(v) if v.denominator == 1 else float(v))


def sheet_to_dict(sheet: Sheet) -> dict[str, Any]:
    """Print a parsed sheet back as a JSON-ready dict (canonical tiles; defaults left out unless
    they were given). ``parse_sheet(sheet_to_dict(s)) == s``.
    """
    o = sheet.options
    out: dict[str, Any] = {"format": FORMAT, "rules": o.rules.name, "players": o.players}
    if "partnerships" in sheet.explicit:
        out["partnerships"] = o.partnerships
    if "target" in sheet.explicit:
        out["target"] = o.target
    if "hand_size" in sheet.explicit:
        out["hand_size"] = o.hand_size
    if sheet.time_called is not None:
        out["time"] = {"called_in_hand": sheet.time_called, "policy": sheet.time_policy}
    hands: list[dict[str, Any]] = []
    for h in sheet.hands:
        d: dict[str, Any] = {"leader": h.leader}
        if h.deal is not None:
            d["deal"] = {
                "hands": [[str(t) for t in seat] for seat in h.deal[0]],
                "boneyard": [str(t) for t in h.deal[1]],
            }
        if h.moves is not None:
            d["moves"] = [_move_dict(m) for m in h.moves]
        if h.tally is not None:
            d["tally"] = [
                {"seat": e.seat, "score": e.score}
                if e.seat is not None
                else {"entity": e.entity, "score": e.score}
                for e in h.tally
            ]
        if h.end is not None:
            d["end"] = h.end
        if h.finisher is not None:
            d["finisher"] = h.finisher
        if h.remaining is not None:
            d["remaining"] = [r if isinstance(r, int) else [str(t) for t in r] for r in h.remaining]
        if h.settlement is not None:
            d["settlement"] = [_score_json(v) for v in h.settlement]
        hands.append(d)
    out["hands"] = hands
    if sheet.result is not None:
        out["result"] = {
            "scores": [_score_json(v) for v in sheet.result[0]],
            "winner": sheet.result[1],
        }
    return out


def _move_dict(m: Move) -> dict[str, Any]:
    kind, seat, tile, on, score, drawn, n_drawn = m
    if kind == PLAY:
        d: dict[str, Any] = {"seat": seat, "play": str(tile)}
        if on is not None:
            d["on"] = str(on)
        d["score"] = score
        return d
    if kind == DRAW:
        return {"seat": seat, "draw": [str(t) for t in drawn] if drawn else n_drawn}
    return {"seat": seat, "pass": True}
