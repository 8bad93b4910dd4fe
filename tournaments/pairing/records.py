"""The vocabulary of pairing: plain, frozen records in, plain, frozen records out.

Terms used throughout the package:

entry
    What is paired: a team (a partnership of players) or a single player, identified by
    ``entry_id``. Its ``player_ids`` are the players who play for it *this* round.
player history
    Opponent history is kept per player, not per entry: two entries *have met* when any player
    of one has sat opposite any player of the other in a past match, whatever entries they played
    for then. A re-formed partnership therefore still avoids the players it has met. Partners of
    one entry are not opponents of each other.
match points, spread
    The ranking inputs: match points (an event setting decides how many a win is worth) and
    spread (points for minus points against). Either may be an ``int`` or a ``Fraction``.
bye
    An entry that sits out a round (an odd field) and is credited by the event's bye setting,
    which the caller applies; the algorithms only decide *who* gets it.
round, table
    Rounds are numbered from 1. Tables are numbered from 1; table 1 hosts the top match.
seat order
    ``Pairing.entry_a`` is listed first at the table. In Swiss rounds this is the higher-ranked
    entry of the two; in a round robin the circle method alternates it (see ``round_robin``).

Nothing here imports Django: the service layer reads the models into these records, calls the
algorithms, and writes their results back.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from .reasons import Reason

Number = int | Fraction
"""Match points and spread: exact numbers only (no floats, so ranking is reproducible)."""

RoundKind = Literal["swiss", "round_robin", "bracket"]

CONSTRAINT_UNTIL = 3
"""The last round in which the director's constraints (``club``, ``avoid``) rank above score
groups, by default (``SwissOptions`` / ``TablesOptions``, and the checker)."""


def constraint_between(a: EntryRecord, b: EntryRecord) -> str | None:
    """Why the director asked to keep ``a`` and ``b`` apart: ``"club:NAME"`` when both are of
    club NAME, ``"avoid"`` when either names the other in ``avoid``; None when nothing does."""
    if a.club is not None and a.club == b.club:
        return f"club:{a.club}"
    if b.entry_id in a.avoid or a.entry_id in b.avoid:
        return "avoid"
    return None


@dataclass(frozen=True, slots=True)
class EntryRecord:
    """One entry as the pairing algorithms see it, as it stands *before* the round is paired.

    ``byes_received`` counts byes already given to this entry. ``rating`` and ``seed`` are only
    used by seeded first rounds and brackets (``seed`` 1 is the strongest). ``pinned_table`` asks
    for a fixed table (accessibility). Inactive entries (withdrawn, sitting out) are never paired.
    ``club`` and ``avoid`` are the director's constraints: entries of one club, and an entry and
    the entry ids in its ``avoid`` (a family, a couple; either side naming the other is enough),
    are kept apart while possible (see ``swiss`` and ``tables_of_many`` for the tier and rounds).
    """

    entry_id: int
    player_ids: frozenset[int]
    match_points: Number = 0
    spread: Number = 0
    byes_received: int = 0
    rating: Number | None = None
    seed: int | None = None
    pinned_table: int | None = None
    active: bool = True
    club: str | None = None
    avoid: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if not isinstance(self.player_ids, frozenset):
            raise TypeError("player_ids must be a frozenset")
        for name in ("match_points", "spread", "rating"):
            value = getattr(self, name)
            if isinstance(value, float):
                raise TypeError(f"{name} must be an int or a Fraction, not a float")
        if self.byes_received < 0:
            raise ValueError("byes_received must be >= 0")
        if self.pinned_table is not None and self.pinned_table < 1:
            raise ValueError("pinned_table must be >= 1")
        if not isinstance(self.avoid, frozenset):
            raise TypeError("avoid must be a frozenset of entry ids")


@dataclass(frozen=True, slots=True)
class PastMatch:
    """A match (or a bye) already played.

    For a bye, ``entry_b`` is ``None`` and ``players_b`` is empty. The player sets are the players
    who actually sat at the table that round; they feed the per-player opponent history.
    """

    round_no: int
    entry_a: int
    players_a: frozenset[int]
    entry_b: int | None = None
    players_b: frozenset[int] = frozenset()

    @property
    def is_bye(self) -> bool:
        return self.entry_b is None


@dataclass(frozen=True, slots=True)
class DrawRecord:
    """One salted random choice, recorded so that anyone can recompute it.

    ``method`` states the rule in words; ``inputs`` are the candidates in the order given to the
    rule and ``outcome`` is what the rule produced (an order, or a single chosen value first).
    ``draw.verify(record, salt)`` recomputes it.
    """

    purpose: str
    round_no: int
    method: str
    inputs: tuple[int, ...]
    outcome: tuple[int, ...]
    context: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why a pairing (or a bye) was made.

    ``score_group`` is the match points of the higher-ranked entry; ``float_points`` is how many
    match points the lower-ranked entry was paired *up* (so the higher one was paired down) - zero
    inside a score group. ``ranks`` are the two entries' positions (1-based) in the ranking used.
    ``window`` is the rank distance of the candidate graph that produced the round (``None`` for
    rounds not made by matching). ``reason`` is a sentence for people, in English (what the export
    keeps); ``reason_parts`` are the same sentence as templates and arguments (``reasons.Reason``,
    joined with ``"; "``), which a page shows in its reader's language (empty: only ``reason``).
    ``constraint`` names the director's constraint the pairing could not keep (``"club:NAME"`` or
    ``"avoid"``), if any.
    """

    method: str
    reason: str
    score_group: Number | None = None
    float_points: Number = 0
    rematch: bool = False
    ranks: tuple[int, ...] = ()
    window: int | None = None
    constraint: str | None = None
    reason_parts: tuple[Reason, ...] = ()


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two entries at a table, in seat order. ``override`` holds a director's reason, if edited."""

    table: int
    entry_a: int
    entry_b: int
    explanation: Explanation
    override: str | None = None


@dataclass(frozen=True, slots=True)
class Bye:
    """An entry sitting out the round, and why it was this entry."""

    entry_id: int
    explanation: Explanation
    override: str | None = None


@dataclass(frozen=True, slots=True)
class BracketTable:
    """A bracket match as it was tabled, for the checker: the event's round number, the table,
    the bracket match id (``W1-2``, ``L3-1``, ``3P``, ``GF``...), the two entries in seat order,
    and, once decided, the winner (a forfeit still has a winner: the side that turned up). A
    best-of match is one record, with the winner of the match. ``override`` holds a director's
    reason when the table was edited."""

    round_no: int
    table: int
    match_id: str
    entry_a: int
    entry_b: int
    winner: int | None = None
    forfeit: bool = False
    override: str | None = None


@dataclass(frozen=True, slots=True)
class RoundPairing:
    """A generated round: pairings by table, byes, the draws it used, and round-level notes.

    ``ranking`` is the order (entry ids, best first) the round was paired from. ``total_weight``
    is the matching's total weight (Swiss only; see ``swiss.edge_cost``) and ``rematches`` the
    number of pairings that are rematches (only ever non-zero when unavoidable). ``note_parts``
    are the ``notes`` as templates and arguments (one per note, in order), for the pages.
    """

    round_no: int
    kind: RoundKind
    pairings: tuple[Pairing, ...]
    byes: tuple[Bye, ...] = ()
    ranking: tuple[int, ...] = ()
    draws: tuple[DrawRecord, ...] = ()
    notes: tuple[str, ...] = ()
    total_weight: int | None = None
    rematches: int = 0
    window: int | None = None
    note_parts: tuple[Reason, ...] = ()


@dataclass(frozen=True, slots=True)
class Violation:
    """A problem the checker found. ``code`` is stable; ``message`` is for people.

    Codes: ``rematch`` (avoidable), ``second_bye`` (avoidable), ``club`` and ``avoid`` (a
    director's constraint not kept though the field could keep it, early rounds), ``bye_count``,
    ``missing``, ``duplicate``, ``inactive``, ``unknown_entry``, ``self_pairing``, ``pin``,
    ``table``; for brackets (``check_bracket``) also ``unknown_match``, ``feeder``,
    ``not_ready``, ``bye``, ``winner``, ``reset_not_needed``, ``eliminated_twice``,
    ``loss_count``; for tables of many (``check_tables_round``) also ``table_size``, ``repeat``,
    ``seating`` (a better seating in the lower tiers, small fields) and ``seat_draw``. A pairing
    a director edited with a reason reports its problems with code ``override`` instead
    (``is_violation`` is then false).
    """

    round_no: int
    table: int | None
    code: str
    message: str
    detail: Reason | None = None
    """The rule's message as a template and arguments, for a page in the reader's language
    (``message`` is its English, wrapped by ``override`` for an overridden one); None for a
    violation made without one, which a page shows as its English ``message``."""
    override: Reason | None = None
    """For code ``override``: the wrapper, a template with ``%(rule)s`` (the code of the rule),
    ``%(reason)s`` (the director's words) in its arguments and ``%(message)s`` (the detail)."""

    @property
    def is_violation(self) -> bool:
        return self.code != "override"

    def __str__(self) -> str:
        where = f" table {self.table}" if self.table is not None else ""
        return f"round {self.round_no}{where}: {self.code} {self.message}"
