"""The tally form of a hand: placement scores listed without the moves, then the claimed end.

Each tally entry must be a placement score: a positive multiple of five, at most the rule set's
bound, at most what the tiles and pips the hand leaves on the table allow, and no more scoring
placements for an entity than tiles it can have placed (:mod:`scoring.bounds`); a possible but
rare score is a warning. The claimed end (who dominoed, or blocked, and the tiles left) is
checked for consistency, then settled as in the move form (:class:`scoring.hand_end.HandReplay`).
"""

from __future__ import annotations

from scoring.bounds import (
    HandRoom,
    entity_plays,
    hand_room,
    placement_bound,
    placement_cap,
    rare_above,
)
from scoring.hand_end import HandReplay, loc
from scoring.sheet import Hand, TallyEntry
from scoring.tiles import Tile
from scoring.verdict import Fault


class TallyFormReplay(HandReplay):
    """The replay, able to replay a hand in tally form."""

    def tally_hand(self, i: int, hand: Hand, last: bool) -> int | None:
        """Replay one hand in tally form; return the seat that dominoed (None if blocked, still
        being played, or ended on the target)."""
        assert hand.tally is not None
        entity_of = self.entity_of
        room = hand_room(self.o, hand)
        plays = [0] * (self.o.entities + self.players)  # by entity, then by seat
        for j, e in enumerate(hand.tally):
            if self.over:
                self.stop("result", i, j, f"{loc(i, j, 'tally entry')}: the match was already over")
            ent = entity_of[e.seat] if e.seat is not None else e.entity
            assert ent is not None
            plays[ent] += 1
            if e.seat is not None:
                plays[self.o.entities + e.seat] += 1
            why = self.impossible(e, len(hand.tally) - 1 - j, room, plays)
            if why:
                self.fault("score", i, j, f"{loc(i, j, 'tally entry')}: {e.score} {why}")
                continue
            if e.score > rare_above(self.rules):
                self.warnings.append(
                    Fault(
                        "score",
                        i,
                        j,
                        f"{loc(i, j, 'tally entry')}: {e.score} is possible but rare (more"
                        f" than the {rare_above(self.rules)} a layout with two doubles in the"
                        " line can make): check it",
                    )
                )
            self.scores[ent] += e.score
            if self.at_once:
                self.check_target()
        if self.over:
            self.no_claims_after_target(i, hand)
            return None
        if hand.end is None:
            self.missing_end(i, hand, last, over=False)
            return None
        rem = hand.remaining
        assert rem is not None
        self.check_claimed_end(i, hand, rem)
        pips = [r if isinstance(r, int) else sum(t.pips for t in r) for r in rem]
        domino = hand.finisher if hand.end == "domino" else None
        self.settle(i, hand, pips, domino)
        return domino

    def check_claimed_end(
        self, i: int, hand: Hand, rem: tuple[tuple[Tile, ...] | int, ...]
    ) -> None:
        """Stop on a claimed end that contradicts itself: a domino by a seat still holding
        tiles, or a block that names a finisher or leaves a seat with no tiles."""
        if hand.end == "domino":
            f = hand.finisher
            assert f is not None
            if rem[f] != () and rem[f] != 0:
                self.stop(
                    "end",
                    i,
                    None,
                    f"hand {i + 1} is claimed dominoed by seat {f}, who still holds tiles",
                )
        else:
            if hand.finisher is not None:
                self.stop("end", i, None, f"hand {i + 1} is claimed blocked but names a finisher")
            for s, r in enumerate(rem):
                if r == ():
                    self.stop(
                        "end",
                        i,
                        None,
                        f"hand {i + 1} is claimed blocked but seat {s} has no tiles left",
                    )

    def impossible(self, e: TallyEntry, later: int, room: HandRoom, plays: list[int]) -> str:
        """Why a tally score no placement could make is impossible, or "" (``later``: the
        scoring placements after it in the hand; ``plays``: the scoring placements so far by
        entity, then by seat)."""
        score = e.score
        if score <= 0 or score % 5:
            return "is not a placement score (a positive multiple of five)"
        bound = placement_bound(self.rules)
        if score > bound:
            return f"is more than any placement can score in {self.rules.name} (at most {bound})"
        o = self.o
        ent = o.entity_of[e.seat] if e.seat is not None else e.entity
        assert ent is not None
        most = entity_plays(o, room, ent)
        who = f"entity {ent}"
        if e.seat is not None and plays[o.entities + e.seat] > room.plays[e.seat]:
            most, who = room.plays[e.seat], f"seat {e.seat}"
        elif plays[ent] <= most:
            most = -1
        if most >= 0:
            return (
                f"is one scoring placement more than {who} can have made in this hand (at most"
                f" {most} tiles placed, with the tiles dealt, the boneyard and those left at"
                " the end)"
            )
        tiles = room.tiles - later
        cap = placement_cap(self.rules, tiles, room.pips)
        if score > cap:
            return (
                f"is more than a placement can score with at most {tiles} tiles and"
                f" {room.pips} pips on the table (at most {cap}; the tiles left at the end and"
                f" the {later} scoring placements after it leave no more)"
            )
        return ""
