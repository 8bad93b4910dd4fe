"""Verification of a ``fives-scoresheet/1`` sheet: a replay, tile by tile, and a verdict.

:func:`verify` takes an already-decoded sheet; :func:`verify_json` takes text. Neither raises for
bad input: a sheet that is not well formed gets a ``format`` verdict. The order of the checks and
where each fault is reported follow ``shared/spec/scoresheet.md`` ("What is checked", "The
verdict"). A wrong *claim* (a placement score, a settlement, a remaining hand, the result) does not
change the table, so the replay goes on with the true figures and every miscount is listed; after
any other fault it stops.

>>> v = verify({"format": "fives-scoresheet/1", "rules": "five-up", "players": 2, "hands": [
...     {"leader": 0, "moves": [{"seat": 0, "play": "1-4", "score": 5}]}]})
>>> v.as_dict()
{'valid': True, 'errors': [], 'scores': [5, 0], 'winner': None, 'finished': False}
"""

from __future__ import annotations

import json
from typing import Any, Final

from scoring.hand_end import HandEnd, Stop, loc, playable_mask
from scoring.rules import last_hand_by_time
from scoring.sheet import DRAW, PLAY, FormatFault, Hand, Sheet, parse_sheet
from scoring.tally_form import TallyFormReplay
from scoring.tiles import TILES, Tile
from scoring.verdict import CODES, Fault, Verdict, json_score

__all__ = [
    "CODES",
    "Fault",
    "Verdict",
    "decode",
    "first_divergence",
    "verify",
    "verify_json",
    "verify_parsed",
]


class _Replay(TallyFormReplay):
    """The replay of one parsed sheet; fills a :class:`Verdict`. The move form is here (its hot
    loop); the tally form, the shared state and the end of a hand are in the base classes."""

    def run(self) -> None:
        sheet = self.sheet
        n = len(sheet.hands)
        prev_domino: int | None = None
        time_end = None
        if sheet.time_called is not None and sheet.time_policy is not None:
            time_end = last_hand_by_time(sheet.time_called, sheet.time_policy)
        try:
            for i, hand in enumerate(sheet.hands):
                if self.over:
                    self.stop(
                        "result",
                        i,
                        None,
                        f"hand {i + 1} was played after the match was over",
                    )
                if prev_domino is not None and hand.leader != prev_domino:
                    self.stop(
                        "turn",
                        i,
                        None,
                        f"hand {i + 1}: seat {prev_domino} dominoed the hand before and must lead,"
                        f" not seat {hand.leader}",
                    )
                last = i == n - 1
                if hand.moves is not None:
                    prev_domino = self.move_hand(i, hand, last)
                else:
                    prev_domino = self.tally_hand(i, hand, last)
                if self.in_progress or self.over:
                    continue
                self.check_target()
                if not self.over and time_end is not None and i >= time_end:
                    self.end_by_time()
            self.check_result()
        except Stop:
            pass

    def check_result(self) -> None:
        claim = self.sheet.result
        if claim is None:
            return
        scores, winner = claim
        true_winner = self.winner if self.finished else None
        if list(scores) != self.scores or winner != true_winner:
            got = ", ".join(str(json_score(s)) for s in self.scores)
            said = ", ".join(str(json_score(s)) for s in scores)
            who = "nobody" if true_winner is None else f"entity {true_winner}"
            self.fault(
                "result",
                None,
                None,
                f"the result says scores {said} and winner"
                f" {'nobody' if winner is None else f'entity {winner}'};"
                f" the replay gives scores {got} and winner {who}",
            )

    # -- move form -------------------------------------------------------------------------

    def move_hand(self, i: int, hand: Hand, last: bool) -> int | None:
        """Replay one hand in move form; return the seat that dominoed (None if blocked, still
        being played, or ended on the target).

        The hot path of the engine. The layout's state is kept in local lists indexed by tile
        (the same representation as :class:`scoring.layout.Layout`, inlined to save a method
        call and an object per placement): ``free`` (a non-double's free halves as bits 0 and
        1; a double's free line sides), ``branch`` (a spinner's free branch sides), ``ports``
        (open ports per value), ``on_table`` (bitmask) and ``total`` (the end total).
        """
        moves = hand.moves
        assert moves is not None
        o = self.o
        players = self.players
        hs = o.hand_size
        deal = hand.deal
        # Every tile each seat has held in this hand (dealt or drawn); what it holds now is
        # that less the table, so a play costs no update here.
        masks, boneyard = self._check_deal(i, deal) if deal is not None else ([], ())
        with_deal = deal is not None
        bone_left = len(boneyard) if with_deal else o.boneyard_size
        counts = [hs] * players
        free = [0] * 28
        branch = [0] * 28
        ports = [0] * 7
        on_table = 0
        total = 0
        branch_counts = self.rules.internal_branches_count
        first_only = self.rules.spinners == "first"
        seen_double = False
        turn = hand.leader
        pending = -1  # the seat that has drawn this turn
        pending_tile: Tile | None = None
        drawn_known = 0  # tiles listed as drawn
        domino: int | None = None
        entity_of = self.entity_of
        scores = self.scores
        at_once = self.at_once
        over = self.over
        low_of = _LOW
        high_of = _HIGH
        j = -1
        last_move = len(moves) - 1
        next_seat = tuple((s + 1) % players for s in range(players))
        # The result check (a move after the match ended) and the end check (a move after the
        # domino) come first in a move; they are made at the placement that ends the match or
        # the hand, against the move after it, so that the loop does not test them every move.
        play_kind, draw_kind = PLAY, DRAW
        for kind, seat, tile, on, claimed, drawn, k in moves:
            j += 1
            # turn
            if seat != turn:
                self.stop(
                    "turn",
                    i,
                    j,
                    f"{loc(i, j)}: it is seat {turn}'s turn, not seat {seat}'s"
                    + (" (after a draw the same seat places or passes)" if pending >= 0 else ""),
                )
            if kind == play_kind:
                assert tile is not None
                ti = tile.index
                bit = 1 << ti
                # tile
                if on_table & bit:
                    self.stop("tile", i, j, f"{loc(i, j)}: {tile} is already on the table")
                if with_deal and not masks[seat] & bit:
                    self.stop("tile", i, j, f"{loc(i, j)}: seat {seat} does not hold {tile}")
                # draw
                if pending >= 0 and pending_tile is not None and tile is not pending_tile:
                    self.stop(
                        "draw",
                        i,
                        j,
                        f"{loc(i, j)}: after drawing, seat {seat} must place {pending_tile},"
                        f" the tile just drawn, not {tile}",
                    )
                # placement, and the new end total
                xl = low_of[ti]
                xh = high_of[ti]
                if not on_table:
                    if on is not None:
                        self.stop(
                            "placement",
                            i,
                            j,
                            f'{loc(i, j)}: {tile} opens the hand, so it has no "on"',
                        )
                    if xl != xh:
                        free[ti] = 3
                        ports[xl] += 1
                        ports[xh] += 1
                        total = xl + xh
                    else:
                        free[ti] = 2
                        if first_only and seen_double:
                            branch[ti] = 0
                        else:
                            branch[ti] = 2
                            seen_double = True
                        ports[xl] += 2
                        total = 2 * xl
                else:
                    if on is None:
                        self.stop(
                            "placement",
                            i,
                            j,
                            f'{loc(i, j)}: say which tile {tile} is placed on ("on")',
                        )
                    assert on is not None
                    oj = on.index
                    if not on_table >> oj & 1:
                        self.stop("placement", i, j, f"{loc(i, j)}: {on} is not on the table")
                    a = low_of[oj]
                    if a != high_of[oj]:
                        f = free[oj]
                        if f & 1 and (xl == a or xh == a):
                            free[oj] = f & 2
                            v = a
                        else:
                            v = high_of[oj]
                            if f & 2 and (xl == v or xh == v):
                                free[oj] = f & 1
                            else:
                                self.stop("placement", i, j, self._no_fit(i, j, tile, on, f, 0))
                        ports[v] -= 1
                        total -= v
                    else:
                        v = a
                        f = free[oj]
                        if (xl != v and xh != v) or not (f or branch[oj]):
                            self.stop(
                                "placement", i, j, self._no_fit(i, j, tile, on, f, branch[oj])
                            )
                        ports[v] -= 1
                        if f:
                            f -= 1
                            free[oj] = f
                            if not f:
                                # The double turns internal: it stops counting 2v, and a
                                # spinner's branch sides open.
                                br = branch[oj]
                                total -= 2 * v
                                ports[v] += br
                                if branch_counts:
                                    total += v * br
                        else:
                            branch[oj] -= 1
                            if branch_counts:
                                total -= v
                    if xl != xh:
                        if xl == v:
                            free[ti] = 2
                            ports[xh] += 1
                            total += xh
                        else:
                            free[ti] = 1
                            ports[xl] += 1
                            total += xl
                    else:
                        free[ti] = 1
                        if first_only and seen_double:
                            branch[ti] = 0
                        else:
                            branch[ti] = 2
                            seen_double = True
                        ports[xl] += 1
                        total += 2 * xl
                on_table |= bit
                # score
                true = total if total % 5 == 0 else 0
                if claimed != true:
                    self.fault(
                        "score",
                        i,
                        j,
                        f"{loc(i, j)}: {tile} makes the ends total {total}, which scores"
                        f" {true}, not {claimed}",
                    )
                if true:
                    scores[entity_of[seat]] += true
                    if at_once:
                        self.check_target()
                        over = self.over
                        if over and j < last_move:
                            self.stop(
                                "result", i, j + 1, f"{loc(i, j + 1)}: the match was already over"
                            )
                c = counts[seat] - 1
                counts[seat] = c
                if not c:
                    domino = seat
                    if j < last_move:
                        self.stop(
                            "end",
                            i,
                            j + 1,
                            f"{loc(i, j + 1)}: seat {seat} has already dominoed this hand",
                        )
                pending = -1
                pending_tile = None
                turn = next_seat[seat]
            elif kind == draw_kind:
                if not on_table:
                    self.stop("draw", i, j, f"{loc(i, j)}: nobody draws before the opening tile")
                if pending >= 0:
                    self.stop("draw", i, j, f"{loc(i, j)}: seat {seat} has already drawn this turn")
                playable = playable_mask(ports, on_table)
                if with_deal and masks[seat] & playable:
                    self.stop(
                        "draw",
                        i,
                        j,
                        f"{loc(i, j)}: seat {seat} holds a tile that can be placed"
                        " and may not draw",
                    )
                if k > bone_left:
                    self.stop(
                        "draw",
                        i,
                        j,
                        f"{loc(i, j)}: seat {seat} draws {k} but only {bone_left} tiles are"
                        " left to draw",
                    )
                if drawn is not None:
                    if with_deal:
                        pos = len(boneyard) - bone_left
                        expect = boneyard[pos : pos + k]
                        if drawn != expect:
                            self.stop(
                                "draw",
                                i,
                                j,
                                f"{loc(i, j)}: the boneyard gives {' '.join(map(str, expect))},"
                                f" not {' '.join(map(str, drawn))}",
                            )
                    for n_, t in enumerate(drawn):
                        tbit = 1 << t.index
                        if (on_table | drawn_known) & tbit:
                            self.stop(
                                "draw",
                                i,
                                j,
                                f"{loc(i, j)}: {t} cannot be drawn: it is already on the table"
                                " or drawn",
                            )
                        drawn_known |= tbit
                        if n_ < k - 1 and playable & tbit:
                            self.stop(
                                "draw",
                                i,
                                j,
                                f"{loc(i, j)}: {t} can be placed, so drawing stops there",
                            )
                    last_ok = playable >> drawn[-1].index & 1
                    if not last_ok and bone_left - k > 0:
                        self.stop(
                            "draw",
                            i,
                            j,
                            f"{loc(i, j)}: nothing placeable was drawn and tiles are left,"
                            " so drawing goes on",
                        )
                    if with_deal:
                        for t in drawn:
                            masks[seat] |= 1 << t.index
                    pending_tile = drawn[-1] if last_ok else None
                else:
                    pending_tile = None
                bone_left -= k
                counts[seat] += k
                pending = seat
            else:  # PASS
                if not on_table:
                    self.stop("draw", i, j, f"{loc(i, j)}: nobody passes before the opening tile")
                if bone_left > 0:
                    self.stop(
                        "draw",
                        i,
                        j,
                        f"{loc(i, j)}: seat {seat} passes while {bone_left} tiles are left to draw",
                    )
                if with_deal and masks[seat] & playable_mask(ports, on_table):
                    self.stop("draw", i, j, f"{loc(i, j)}: seat {seat} passes but can place a tile")
                if pending_tile is not None:
                    self.stop(
                        "draw",
                        i,
                        j,
                        f"{loc(i, j)}: seat {seat} passes but can place {pending_tile},"
                        " the tile just drawn",
                    )
                pending = -1
                turn = next_seat[seat]
        if over:
            self.no_claims_after_target(i, hand)
            return None
        end = HandEnd(domino, bone_left, on_table, ports, masks if with_deal else None, counts)
        return self._check_end(i, hand, last, end)


_LOW: Final = tuple(t.low for t in TILES)
_HIGH: Final = tuple(t.high for t in TILES)


def verify_parsed(sheet: Sheet) -> Verdict:
    """Replay an already-parsed sheet (see :func:`scoring.sheet.parse_sheet`)."""
    r = _Replay(sheet)
    r.run()
    return Verdict(r.errors, r.scores, r.winner if r.finished else None, r.finished, r.warnings)


def verify(sheet: object) -> Verdict:
    """Verify a decoded ``fives-scoresheet/1`` sheet; never raises for bad input.

    >>> verify([]).as_dict()["errors"][0]["code"]
    'format'
    """
    try:
        parsed = parse_sheet(sheet)
    except FormatFault as exc:
        return Verdict([Fault("format", exc.hand, exc.move, exc.message)])
    except RecursionError:
        return Verdict([Fault("format", None, None, "the sheet is nested too deeply")])
    return verify_parsed(parsed)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode(text: str | bytes) -> Any:
    """Strict JSON: like ``json.loads`` but ``NaN`` and ``Infinity`` are refused."""
    return json.loads(text, parse_constant=_reject_constant)


def verify_json(text: str | bytes) -> Verdict:
    """Verify a sheet given as JSON text; text that is not JSON gets a ``format`` verdict.

    >>> verify_json("{").as_dict()["errors"][0]["code"]
    'format'
    """
    try:
        sheet = decode(text)
    except (ValueError, RecursionError) as exc:
        return Verdict([Fault("format", None, None, f"the sheet is not JSON ({exc})")])
    return verify(sheet)


def _locations(sheet: dict[str, Any]) -> list[Any]:
    hands = sheet.get("hands")
    return hands if isinstance(hands, list) else []


def first_divergence(
    sheet_a: dict[str, Any], sheet_b: dict[str, Any]
) -> tuple[int | None, int | None] | None:
    """Where two claimed sheets of one match first differ: ``(hand, move)`` (``move`` indexes the
    hand's ``moves`` or ``tally``; None when the hands differ elsewhere, e.g. in the deal, the
    settlement or the number of moves); ``(None, None)`` when they differ outside the hands;
    ``None`` when they are equal.

    >>> a = {"hands": [{"leader": 0, "moves": [{"seat": 0, "play": "1-4", "score": 5}]}]}
    >>> b = {"hands": [{"leader": 0, "moves": [{"seat": 0, "play": "1-4", "score": 0}]}]}
    >>> first_divergence(a, b), first_divergence(a, a)
    ((0, 0), None)
    """
    if sheet_a == sheet_b:
        return None
    ha, hb = _locations(sheet_a), _locations(sheet_b)
    for i in range(min(len(ha), len(hb))):
        x, y = ha[i], hb[i]
        if x == y:
            continue
        if isinstance(x, dict) and isinstance(y, dict):
            for key in ("moves", "tally"):
                mx, my = x.get(key), y.get(key)
                if isinstance(mx, list) and isinstance(my, list):
                    for j in range(min(len(mx), len(my))):
                        if mx[j] != my[j]:
                            return i, j
                    if len(mx) != len(my):
                        return i, min(len(mx), len(my))
        return i, None
    if len(ha) != len(hb):
        return min(len(ha), len(hb)), None
    return None, None
