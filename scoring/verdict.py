"""The verdict's vocabulary: the fault codes, one :class:`Fault`, and the :class:`Verdict` a
verification returns (``shared/spec/scoresheet.md``, "The verdict")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from scoring.rules import Score

__all__ = ["CODES", "Fault", "Verdict", "json_score"]

CODES: Final = (
    "format",
    "tile",
    "turn",
    "draw",
    "placement",
    "score",
    "end",
    "settlement",
    "result",
)
"""Every fault code."""


@dataclass(frozen=True, slots=True)
class Fault:
    """One fault: its code, where it is (0-based hand and move/tally indexes, or None), and a
    message in a player's words (which counts hands and moves from 1)."""

    code: str
    hand: int | None
    move: int | None
    message: str

    def as_dict(self) -> dict[str, Any]:
        """The fault as the verdict's JSON shape."""
        return {"code": self.code, "hand": self.hand, "move": self.move, "message": self.message}


def json_score(v: Score) -> int | float:
    """A score as the verdict's JSON writes it: an int unless a half is involved."""
    if isinstance(v, int):
        return v
    return v.numerator if v.denominator == 1 else float(v)


@dataclass(slots=True)
class Verdict:
    """The outcome of verifying one sheet: the faults in the order met, and the true figures
    (``scores`` per entity, ``winner``, ``finished``) as far as verification got."""

    errors: list[Fault] = field(default_factory=list)
    scores: list[Score] = field(default_factory=list)
    winner: int | None = None
    finished: bool = False
    warnings: list[Fault] = field(default_factory=list)
    """Claims that are possible but rare ("check this"), in the order met: not faults, so they
    leave ``valid`` alone and stay out of :meth:`as_dict` (the spec's verdict has no place for
    them); a caller that shows them asks :meth:`warnings_as_list`."""

    @property
    def valid(self) -> bool:
        """True when no fault was found."""
        return not self.errors

    def as_dict(self) -> dict[str, Any]:
        """Exactly the spec's verdict shape; scores are ints unless a half is involved."""
        return {
            "valid": not self.errors,
            "errors": [f.as_dict() for f in self.errors],
            "scores": [json_score(s) for s in self.scores],
            "winner": self.winner,
            "finished": self.finished,
        }

    def warnings_as_list(self) -> list[dict[str, Any]]:
        """The warnings in a fault's JSON shape (``code``, ``hand``, ``move``, ``message``)."""
        return [w.as_dict() for w in self.warnings]
