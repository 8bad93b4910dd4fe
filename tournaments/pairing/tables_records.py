"""The records of tables of many (three or more entries at a table): a past table, a seated
table and why it was made, a bye, the generated round, and the options of the seating
(:func:`tournaments.pairing.tables_of_many.pair_tables`)."""

from __future__ import annotations

from dataclasses import dataclass

from .records import CONSTRAINT_UNTIL, DrawRecord, Number


@dataclass(frozen=True, slots=True)
class PastTable:
    """A table of any size already played: one seat per entry, with the players who sat there.

    A table of one seat is a bye. Two entries *have met* when any player of one has shared a
    table with any player of the other (players of one entry are partners, not opponents).
    """

    round_no: int
    entries: tuple[int, ...]
    players: tuple[frozenset[int], ...]

    def __post_init__(self) -> None:
        if len(self.entries) != len(self.players) or not self.entries:
            raise ValueError("a past table needs one player set per entry")

    @property
    def is_bye(self) -> bool:
        return len(self.entries) == 1


@dataclass(frozen=True, slots=True)
class TableExplanation:
    """Why a table (or a bye) was made.

    ``score_groups`` are the match points at the table (best first); ``ranks`` the entries'
    positions in the ranking used (1-based, seat order); ``repeats`` the pairs of entries at the
    table who have met before; ``constraints`` the pairs the director asked to keep apart who
    sit together anyway, as ``"club:NAME a-b"`` / ``"avoid a-b"``; ``reason`` is for people.
    """

    method: str
    reason: str
    score_groups: tuple[Number, ...] = ()
    ranks: tuple[int, ...] = ()
    repeats: tuple[tuple[int, int], ...] = ()
    constraints: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Table:
    """Entries at one table, in the drawn seat order. ``override`` holds a director's reason."""

    table: int
    entries: tuple[int, ...]
    explanation: TableExplanation
    override: str | None = None


@dataclass(frozen=True, slots=True)
class TableBye:
    """An entry sitting out the round, and why it was this entry."""

    entry_id: int
    explanation: TableExplanation
    override: str | None = None


@dataclass(frozen=True, slots=True)
class TablesRound:
    """A generated round at tables of many: tables by number, byes, the ranking used, every draw
    (rank ties, seat orders, first leaders), notes, the repeat meetings and their lower bound,
    the total cost (tiers 3 to 7, see the module docstring) and the table sizes allowed."""

    round_no: int
    tables: tuple[Table, ...]
    byes: tuple[TableBye, ...] = ()
    ranking: tuple[int, ...] = ()
    draws: tuple[DrawRecord, ...] = ()
    notes: tuple[str, ...] = ()
    repeats: int = 0
    repeat_lower_bound: int = 0
    constraint_pairs: int = 0
    total_cost: int = 0
    table_sizes: tuple[int, ...] = ()
    kind: str = "swiss_tables"


@dataclass(frozen=True, slots=True)
class TablesOptions:
    """Tuning: ``table_sizes`` allowed (the rule set's; the largest is preferred),
    ``constraint_until`` the last round where the director's constraints rank above score
    groups, ``mp_scale`` turns fractional match points into integers, ``initial_window`` the
    first swap window (tables), ``exact_limit`` the largest field searched exhaustively,
    ``draw_leaders`` adds a first-leader draw per table."""

    table_sizes: tuple[int, ...] = (4, 3)
    constraint_until: int = CONSTRAINT_UNTIL
    mp_scale: int = 1
    initial_window: int = 4
    exact_limit: int = 12
    bound_limit: int = 40
    bound_budget: int = 300_000
    walk_steps: int = 20_000
    draw_leaders: bool = True
