"""The replay's shared state and the end of a hand, for both forms of a hand.

:class:`HandReplay` holds what a replay of one sheet knows (the running scores, the faults, whether
the match is over) and the steps both forms share: recording a fault, the target rule, a hand still
being played, the settlement, and the checks of a claimed end (dominoed or blocked) against the
play. The tally form (:mod:`scoring.tally_form`) and the move form (:mod:`scoring.verify`) build on
it. Internal to :mod:`scoring`: the public entry points are in :mod:`scoring.verify`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from scoring.rules import MatchOptions, Score, target_winner, uniquely_highest
from scoring.sheet import Hand, Sheet
from scoring.tiles import VALUE_MASK, Tile, mask_of, mask_pips
from scoring.verdict import Fault, json_score


@dataclass(frozen=True, slots=True)
class HandEnd:
    """The state of a hand in move form after its last move, for the end checks."""

    domino: int | None  # the seat that placed its last tile
    bone_left: int  # tiles left to draw
    on_table: int  # mask of the tiles on the table
    ports: list[int]  # open ports per value
    masks: list[int] | None  # with a deal: every tile each seat has held
    counts: list[int]  # tiles each seat holds


class Stop(Exception):
    """Raised inside the replay after a fault that ends verification."""


def loc(i: int, j: int | None, kind: str = "move") -> str:
    return f"hand {i + 1}" if j is None else f"hand {i + 1}, {kind} {j + 1}"


def playable_mask(ports: list[int], on_table: int) -> int:
    """The bitmask of the tiles off the table that match an open port."""
    m = 0
    for v, n in enumerate(ports):
        if n:
            m |= VALUE_MASK[v]
    return m & ~on_table


class HandReplay:
    """The state of the replay of one parsed sheet, and the steps both forms of a hand share."""

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        o: MatchOptions = sheet.options
        self.o = o
        self.rules = o.rules
        self.players = o.players
        self.entity_of = o.entity_of
        self.target = o.target
        self.at_once = o.rules.ends_at_once
        self.scores: list[Score] = [0] * o.entities
        self.errors: list[Fault] = []
        self.warnings: list[Fault] = []  # possible but rare claims ("check this")
        self.over = False
        self.winner: int | None = None
        self.finished = False
        self.in_progress = False

    def fault(self, code: str, i: int | None, j: int | None, message: str) -> None:
        self.errors.append(Fault(code, i, j, message))

    def stop(self, code: str, i: int | None, j: int | None, message: str) -> None:
        self.fault(code, i, j, message)
        raise Stop

    def check_target(self) -> None:
        """The target rule: at least the target and uniquely highest ends the match."""
        win = target_winner(self.scores, self.target)
        if win is not None:
            self.over = True
            self.finished = True
            self.winner = win

    def end_by_time(self) -> None:
        self.over = True
        self.finished = True
        self.winner = uniquely_highest(self.scores)

    def no_claims_after_target(self, i: int, hand: Hand) -> None:
        for name, v in (
            ("end", hand.end),
            ("finisher", hand.finisher),
            ("remaining", hand.remaining),
            ("settlement", hand.settlement),
        ):
            if v is not None:
                self.stop(
                    "result",
                    i,
                    None,
                    f"hand {i + 1}: the match ended on the target during this hand, so it is not "
                    f'settled; "{name}" must not be given',
                )

    def missing_end(self, i: int, hand: Hand, last: bool, over: bool) -> None:
        if not last or over:
            why = "it is over" if over else "another hand follows it"
            self.stop("end", i, None, f'hand {i + 1} has no "end" but {why}')
        for name, v in (
            ("finisher", hand.finisher),
            ("remaining", hand.remaining),
            ("settlement", hand.settlement),
        ):
            if v is not None:
                self.stop(
                    "end",
                    i,
                    None,
                    f'hand {i + 1} is still being played (no "end") but gives "{name}"',
                )
        self.in_progress = True

    def settle(self, i: int, hand: Hand, pips: list[int], domino: int | None) -> None:
        change = self.rules.settle(pips, self.entity_of, self.o.entities, domino)
        claim = hand.settlement
        if claim is not None and list(claim) != change:
            said = ", ".join(str(json_score(v)) for v in claim)
            true = ", ".join(str(json_score(v)) for v in change)
            self.fault(
                "settlement",
                i,
                None,
                f"hand {i + 1}: the settlement says {said}; the rules give {true}",
            )
        scores = self.scores
        for e, v in enumerate(change):
            if v:
                scores[e] += v
                new = scores[e]
                if isinstance(new, Fraction) and new.denominator == 1:
                    scores[e] = int(new)

    def _check_deal(
        self, i: int, deal: tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]
    ) -> tuple[list[int], tuple[Tile, ...]]:
        """Check a hand's deal is one full set; return each seat's tiles as a mask, and the
        boneyard."""
        o = self.o
        hs = o.hand_size
        masks: list[int] = []
        seen = 0
        ok = len(deal[0]) == self.players and len(deal[1]) == o.boneyard_size
        for seat_tiles in deal[0]:
            sm = mask_of(seat_tiles)
            if seen & sm or len(seat_tiles) != hs or sm.bit_count() != hs:
                ok = False
            seen |= sm
            masks.append(sm)
        bm = mask_of(deal[1])
        if seen & bm or bm.bit_count() != len(deal[1]):
            ok = False
        if not ok:
            self.stop(
                "tile",
                i,
                None,
                f"hand {i + 1}: the deal is not one full set with {hs} tiles a seat"
                f" and {o.boneyard_size} in the boneyard",
            )
        return masks, deal[1]

    def _check_end(self, i: int, hand: Hand, last: bool, end: HandEnd) -> int | None:
        """After the last move of a hand in move form: check its claimed end against the play,
        then settle it; return the seat that dominoed (None if blocked or still being played)."""
        domino, bone_left, on_table, ports, masks = (
            end.domino, end.bone_left, end.on_table, end.ports, end.masks,
        )  # fmt: skip
        blocked = False
        if masks is not None and domino is None and bone_left == 0 and on_table:
            playable = playable_mask(ports, on_table)
            blocked = not any(mk & playable for mk in masks)
        if hand.end is None:
            self.missing_end(i, hand, last, over=domino is not None or blocked)
            return None
        if hand.end == "domino":
            self._check_domino(i, hand, domino)
        else:
            self._check_blocked(i, hand, end, blocked)
        pips = self._remaining_pips(i, hand, end)
        self.settle(i, hand, pips, domino)
        return domino

    def _check_domino(self, i: int, hand: Hand, domino: int | None) -> None:
        if domino is None:
            self.stop(
                "end",
                i,
                None,
                f"hand {i + 1} is claimed dominoed but no seat has placed its last tile",
            )
        if hand.finisher is not None and hand.finisher != domino:
            self.stop(
                "end",
                i,
                None,
                f"hand {i + 1}: seat {domino} dominoed, not seat {hand.finisher}",
            )

    def _check_blocked(self, i: int, hand: Hand, end: HandEnd, blocked: bool) -> None:
        if hand.finisher is not None:
            self.stop("end", i, None, f"hand {i + 1} is claimed blocked but names a finisher")
        if end.domino is not None:
            self.stop(
                "end", i, None, f"hand {i + 1} is claimed blocked but seat {end.domino} dominoed"
            )
        if end.bone_left > 0:
            self.stop(
                "end",
                i,
                None,
                f"hand {i + 1} is claimed blocked but {end.bone_left} tiles are left to draw",
            )
        if end.masks is not None and not blocked:
            playable = playable_mask(end.ports, end.on_table)
            s = next(s for s in range(self.players) if end.masks[s] & playable)
            self.stop(
                "end",
                i,
                None,
                f"hand {i + 1} is claimed blocked but seat {s} can still place a tile",
            )

    def _remaining_pips(self, i: int, hand: Hand, end: HandEnd) -> list[int]:
        """Each seat's pips left at the end, from the deal (checking the claimed remaining
        tiles against it) or from the claimed remaining tiles (checked against the play)."""
        rem = hand.remaining
        on_table = end.on_table
        if end.masks is not None:
            masks = [mk & ~on_table for mk in end.masks]
            pips = [mask_pips(mk) for mk in masks]
            if rem is not None:
                for s, r in enumerate(rem):
                    if isinstance(r, int):
                        bad = r != pips[s]
                    else:
                        rm = mask_of(r)
                        bad = rm != masks[s] or len(r) != rm.bit_count()
                    if bad:
                        self.fault(
                            "settlement",
                            i,
                            None,
                            f"hand {i + 1}: the remaining tiles of seat {s} do not match the deal",
                        )
                        break
            return pips
        assert rem is not None
        counts = end.counts
        pips = []
        bad_seat = -1
        for s, r in enumerate(rem):
            if isinstance(r, int):
                pips.append(r)
                if counts[s] == 0 and r != 0 and bad_seat < 0:
                    bad_seat = s
            else:
                pips.append(sum(t.pips for t in r))
                if bad_seat < 0 and (
                    len(r) != counts[s] or any(on_table >> t.index & 1 for t in r)
                ):
                    bad_seat = s
        if bad_seat >= 0:
            self.fault(
                "settlement",
                i,
                None,
                f"hand {i + 1}: the remaining tiles of seat {bad_seat} do not match the"
                f" play (seat {bad_seat} should hold {counts[bad_seat]} tiles, none on"
                " the table)",
            )
        return pips

    @staticmethod
    def _no_fit(i: int, j: int, tile: Tile, on: Tile, free: int, branch: int) -> str:
        if tile.low not in (on.low, on.high) and tile.high not in (on.low, on.high):
            why = f"{tile} does not match {on}"
        elif on.is_double:
            why = f"{on} has no open side left for {tile}"
        else:
            why = f"{tile} does not match any open end of {on}"
        return f"{loc(i, j)}: {why}"
