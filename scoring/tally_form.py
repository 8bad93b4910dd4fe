"""The tally form of a hand: placement scores listed without the moves, then the claimed end.

Each tally entry must be a placement score (a positive multiple of five); the claimed end (who
dominoed, or blocked, and the tiles left) is checked for consistency, then settled as in the move
form (:class:`scoring.hand_end.HandReplay`).
"""

from __future__ import annotations

from scoring.hand_end import HandReplay, loc
from scoring.sheet import Hand


class TallyFormReplay(HandReplay):
    """The replay, able to replay a hand in tally form."""

    def tally_hand(self, i: int, hand: Hand, last: bool) -> int | None:
        """Replay one hand in tally form; return the seat that dominoed (None if blocked, still
        being played, or ended on the target)."""
        assert hand.tally is not None
        entity_of = self.entity_of
        for j, e in enumerate(hand.tally):
            if self.over:
                self.stop("result", i, j, f"{loc(i, j, 'tally entry')}: the match was already over")
            if e.score <= 0 or e.score % 5:
                self.fault(
                    "score",
                    i,
                    j,
                    f"{loc(i, j, 'tally entry')}: {e.score} is not a placement score"
                    " (a positive multiple of five)",
                )
                continue
            ent = entity_of[e.seat] if e.seat is not None else e.entity
            assert ent is not None
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
        pips = [r if isinstance(r, int) else sum(t.pips for t in r) for r in rem]
        domino = hand.finisher if hand.end == "domino" else None
        self.settle(i, hand, pips, domino)
        return domino
