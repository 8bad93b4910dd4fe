"""A league's season table: pure, over plain records (no Django).

Vocabulary:

- **placing**: where one entry finished in one finished event (``Event.placings``): its ``place``
  (1 = the champion) and its players (two for a partnership, one in a head-to-head event).
- **place points**: the league's points per place, ``points[place - 1]`` (e.g. 25, 18, 15...);
  a place beyond the list earns nothing.
- **shared places**: entries that share a place (the play-off's losers of one round share "5th")
  cover as many places as there are of them, and each earns the *average* of those places'
  points (as golf's and racing's points tables split a tie): three entries sharing 5th cover
  5th, 6th and 7th and each earns ``(points[4] + points[5] + points[6]) / 3``. Averages are
  exact (:class:`fractions.Fraction`), so no rounding decides a rank.
- **best N**: a competitor's total is the sum of their ``best_of`` highest event scores
  (``None``: every event); the others are listed as dropped.
- **competitor**: a player (every player of every placing), and, where the league ranks
  partnerships, a partnership: the same two players, whatever the team was called.

Ranking: by total, highest first; equal totals share a rank (1, 2, 2, 4) and are listed by name,
then by key. There is no further tiebreak (more wins, more events): a season that needs one
is decided by its director, and the shared rank says so plainly.

>>> results = [Placing(1, 1, (10, 11)), Placing(1, 2, (12, 13)), Placing(2, 1, (10, 12))]
>>> table = season_table(results, points=[25, 18], best_of=None, names={10: "Ann", 11: "Bo",
...     12: "Cy", 13: "Di"})
>>> [(r.rank, r.name, r.total) for r in table.players]
[(1, 'Ann', 50), (2, 'Cy', 43), (3, 'Bo', 25), (4, 'Di', 18)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tournaments.standings.records import Number, normalise


@dataclass(frozen=True)
class Placing:
    """One entry's final place in one finished event, with its players' ids (merged players
    already replaced by the survivor)."""

    event_id: int
    place: int
    players: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.place < 1:
            raise ValueError(f"a place starts at 1, not {self.place}")
        if not self.players:
            raise ValueError("a placing needs its players")


@dataclass(frozen=True)
class EventScore:
    """What one event gave a competitor: its place, its points, and whether they count."""

    event_id: int
    place: int
    points: Number
    counted: bool


@dataclass(frozen=True)
class SeasonRow:
    """One competitor's line of the table. ``key`` is the player's id, or the partnership's two
    ids joined by a dash (``"10-11"``, lower first)."""

    rank: int
    key: str
    name: str
    players: tuple[int, ...]
    total: Number
    scores: tuple[EventScore, ...] = field(default=())

    @property
    def played(self) -> int:
        return len(self.scores)

    @property
    def counted(self) -> int:
        return sum(1 for s in self.scores if s.counted)

    def score_in(self, event_id: int) -> EventScore | None:
        """The competitor's score in that event, if they played it."""
        return next((s for s in self.scores if s.event_id == event_id), None)


@dataclass(frozen=True)
class SeasonTable:
    """The players' table, and the partnerships' (empty unless the league ranks them)."""

    players: tuple[SeasonRow, ...]
    partnerships: tuple[SeasonRow, ...]


def place_points(points: Sequence[int], place: int, sharing: int = 1) -> Number:
    """The points for ``place`` shared by ``sharing`` entries: the average over the places
    they cover (nothing beyond the list).

    >>> place_points([25, 18, 15], 1), place_points([25, 18, 15], 2, sharing=2)
    (25, Fraction(33, 2))
    >>> place_points([25, 18, 15], 3, sharing=2), place_points([25, 18, 15], 4)
    (Fraction(15, 2), 0)
    """
    if sharing < 1:
        raise ValueError("a place is shared by one entry or more")
    covered = range(place - 1, place - 1 + sharing)
    return normalise(Fraction(sum(points[i] for i in covered if i < len(points)), sharing))


def _event_scores(
    placings: Iterable[Placing], points: Sequence[int], *, pairs: bool
) -> dict[tuple[int, ...], dict[int, tuple[int, Number]]]:
    """competitor -> event -> (place, points); a competitor placed twice in one event (two rows
    of one person, merged later) keeps the better place."""
    by_event: dict[int, list[Placing]] = defaultdict(list)
    for placing in placings:
        by_event[placing.event_id].append(placing)
    out: dict[tuple[int, ...], dict[int, tuple[int, Number]]] = defaultdict(dict)
    for event_id, rows in by_event.items():
        sharing: dict[int, int] = defaultdict(int)
        for row in rows:
            sharing[row.place] += 1
        for row in rows:
            earned = place_points(points, row.place, sharing[row.place])
            unique = tuple(sorted(set(row.players)))
            singles: list[tuple[int, ...]] = [(p,) for p in unique]
            keys = ([unique] if len(unique) == 2 else []) if pairs else singles
            for key in keys:
                before = out[key].get(event_id)
                if before is None or row.place < before[0]:
                    out[key][event_id] = (row.place, earned)
    return out


def _row(
    key: tuple[int, ...],
    events: Mapping[int, tuple[int, Number]],
    best_of: int | None,
    names: Mapping[int, str],
) -> SeasonRow:
    # Best first; equal points keep the better place then the earlier event (a fixed choice of
    # which equal score is dropped: the total is the same either way).
    order = sorted(events.items(), key=lambda kv: (-kv[1][1], kv[1][0], kv[0]))
    keep = {event_id for event_id, _ in order[: best_of if best_of is not None else len(order)]}
    scores = tuple(
        EventScore(event_id, place, pts, event_id in keep)
        for event_id, (place, pts) in sorted(events.items())
    )
    total = normalise(sum((Fraction(s.points) for s in scores if s.counted), Fraction(0)))
    name = " & ".join(sorted(names.get(p, f"#{p}") for p in key))
    return SeasonRow(0, "-".join(map(str, key)), name, key, total, scores)


def rank_rows(rows: Iterable[SeasonRow]) -> tuple[SeasonRow, ...]:
    """Highest total first; equal totals share a rank and are listed by name, then key."""
    ordered = sorted(rows, key=lambda r: (-r.total, r.name.casefold(), r.key))
    ranked: list[SeasonRow] = []
    for index, row in enumerate(ordered):
        tied = ranked and ranked[-1].total == row.total
        rank = ranked[-1].rank if tied else index + 1
        ranked.append(SeasonRow(rank, row.key, row.name, row.players, row.total, row.scores))
    return tuple(ranked)


def season_table(
    placings: Iterable[Placing],
    *,
    points: Sequence[int],
    best_of: int | None,
    names: Mapping[int, str],
    partnerships: bool = False,
) -> SeasonTable:
    """The season table of a league from every placing of its finished events.

    ``points`` are the league's points per place, ``best_of`` how many events count (``None``:
    all), ``names`` each player's display name; ``partnerships``: rank partnerships too.
    """
    if best_of is not None and best_of < 1:
        raise ValueError("best_of counts one event or more (None: all)")
    if any(type(p) is not int or p < 0 for p in points):
        raise ValueError("place points are whole numbers, 0 or more")
    placings = list(placings)
    players = _event_scores(placings, points, pairs=False)
    player_rows = rank_rows(_row(k, ev, best_of, names) for k, ev in players.items())
    pair_rows: tuple[SeasonRow, ...] = ()
    if partnerships:
        pairs = _event_scores(placings, points, pairs=True)
        pair_rows = rank_rows(_row(k, ev, best_of, names) for k, ev in pairs.items())
    return SeasonTable(player_rows, pair_rows)


def format_points(value: Number) -> str:
    """Points as a person reads them: whole, or to two decimals (an average of shared places).

    >>> format_points(25), format_points(Fraction(33, 2)), format_points(Fraction(43, 3))
    ('25', '16.5', '14.33')
    """
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):.2f}".rstrip("0").rstrip(".")
    return str(int(value))
