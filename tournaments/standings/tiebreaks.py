"""The tiebreaks, FIDE C.07 style, adapted to match points; each is a named, documented function.

An event publishes an ordered list of tiebreak names before it starts (usually ``match_points``
first). Entries are ordered by the first; those still equal by the second; and so on.

Two shapes of tiebreak:

- **entry tiebreaks** give each entry a value from its own record and its opponents' records:
  ``f(tally, entry) -> Number``. All are "higher is better" except ``points_against``.
- **group tiebreaks** give values that depend on which entries are still tied at that point of the
  list: ``f(tally, group) -> {entry_id: Number | None}``. Only ``head_to_head``; ``None`` means
  "does not separate this group".

Every value is exact (``int`` or ``Fraction``). Only the counted rounds (Swiss, round robin) feed
them; see :mod:`tournaments.standings.tallying` for *played*, *unplayed round*, *opponents* and
*meetings*.

**Byes and forfeits in Buchholz** (FIDE-style rules count an unplayed round either against a
virtual opponent or at the participant's own score; Spinner takes the own score, simpler to check
by hand and independent of round order): every unplayed round of an entry (a bye, a
forfeit won or lost) counts in that entry's Buchholz and median Buchholz as one opponent whose score
is the entry's *own* final match points. So a bye neither lifts nor sinks an entry's Buchholz
against its peers, and a no-show opponent's low score does not punish the entry that was stood up.
Opponents' scores are taken as they are (FIDE's adjustment of opponents' own unplayed rounds is not
applied).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from tournaments.standings.records import EntryId, Number, normalise
from tournaments.standings.tallying import EntryTally, Tally


def gettext_noop(text: str) -> str:
    """Marks a label for translation (``makemessages`` collects it) with no Django import: the
    page translates it (``tournaments.selectors.standings.tiebreak_columns``)."""
    return text


EntryFunction = Callable[[Tally, EntryTally], Number]
GroupFunction = Callable[[Tally, Sequence[EntryId]], Mapping[EntryId, Number | None]]


def match_points(tally: Tally, entry: EntryTally) -> Number:
    """Match points: the sum over the entry's counted results of what each is worth.

    A win is worth ``win`` (plus the margin bonus when earned), a draw ``draw``, a loss ``loss``,
    a bye ``bye`` (all from the event's :class:`~tournaments.standings.records.PointsConfig`).
    """
    return entry.match_points


def wins(tally: Tally, entry: EntryTally) -> Number:
    """Wins: matches won, forfeit wins included; a bye is not a win.

    (Between FIDE's WIN, which counts byes worth a win, and WON, which excludes forfeits.)
    """
    return entry.wins


def points_for(tally: Tally, entry: EntryTally) -> Number:
    """Points for: raw points the entry scored over its matches (byes add nothing)."""
    return entry.points_for


def points_against(tally: Tally, entry: EntryTally) -> Number:
    """Points against: raw points scored against the entry (byes add nothing). Lower is better."""
    return entry.points_against


def spread(tally: Tally, entry: EntryTally) -> Number:
    """Spread: points for minus points against (byes add nothing)."""
    value = entry.points_for - entry.points_against
    return value if type(value) is int else normalise(value)


def buchholz(tally: Tally, entry: EntryTally) -> Number:
    """Buchholz: the sum of the match points of every opponent the entry met.

    Each unplayed round (bye or forfeit) adds the entry's own match points instead (see the module
    docstring).
    """
    # sum(map(...)) runs in C: this is computed for every entry on every recompute
    total = sum(map(tally.match_points_of.__getitem__, entry.opponents))
    total += (entry.byes + entry.forfeits) * entry.match_points  # its unplayed rounds
    return total if type(total) is int else normalise(total)


def median_buchholz(tally: Tally, entry: EntryTally) -> Number:
    """Median Buchholz: Buchholz without the highest and the lowest opponent score.

    The opponent scores are those Buchholz sums, one per counted round (unplayed rounds count the
    entry's own match points). With fewer than three of them nothing is dropped, so it equals
    Buchholz (dropping two of two would leave every entry at 0 and separate nobody).
    """
    scores = list(map(tally.match_points_of.__getitem__, entry.opponents))
    unplayed = entry.byes + entry.forfeits
    if unplayed:
        scores.extend([entry.match_points] * unplayed)
    total: Number = sum(scores)
    if len(scores) >= 3:
        total = total - max(scores) - min(scores)
    return total if type(total) is int else normalise(total)


def opponents_win_rate(tally: Tally, entry: EntryTally) -> Number:
    """Opponents' win rate: the mean of the win rates of the opponents met over the board.

    An opponent's win rate is ``(wins + draws / 2) / played`` over its counted matches (see
    :attr:`EntryTally.win_rate`). Byes and forfeits bring no opponent, so they are left out; no
    floor is applied (unlike Magic's 1/3). An entry with no opponent has 0. Exact (a ``Fraction``).
    """
    opponents = entry.opponents
    if not opponents:
        return 0
    # win rates over one common denominator: one exact division
    total = sum(map(tally.scaled_win_rates.__getitem__, opponents))
    return exact_ratio(total, tally.win_rate_scale * len(opponents))


@lru_cache(maxsize=4096)
def exact_ratio(numerator: int, denominator: int) -> Number:
    """``numerator / denominator`` exactly (an ``int`` when whole). Remembered: the opponents' win
    rates of an event take a few hundred distinct values, and a ``Fraction`` costs a microsecond.
    """
    return normalise(Fraction(numerator, denominator))


def head_to_head(tally: Tally, group: Sequence[EntryId]) -> Mapping[EntryId, Number | None]:
    """Head-to-head among the entries still tied at this point of the list (a mini-table).

    When every two entries of the group have a counted result against each other (forfeits count;
    several meetings add up), each entry's value is the match points it earned in those results
    only, and the group is ordered by them: this works for a three-way (or larger) tie. When some
    two of them have not met, head-to-head does not separate the group: every value is ``None``
    and the next tiebreak decides. A group of one gets ``None`` (nothing to separate).

    It is applied once, to each group tied at its place in the list. To apply it again among
    entries it left tied (a sub-group of a three-way tie), list ``head_to_head`` again.
    """
    size = len(group)
    entries = tally.entries
    none: dict[EntryId, Number | None] = dict.fromkeys(group)
    if size < 2:
        return none
    if any(entries[e].played < size - 1 for e in group):
        return none  # someone played fewer matches than the group has other members: not all met
    values: dict[EntryId, Number | None] = {}
    for entry_id in group:
        meetings = tally.meetings(entry_id)
        total: Number = 0
        for other in group:
            if other == entry_id:
                continue
            earned = meetings.get(other)
            if earned is None:
                return none
            total += earned
        values[entry_id] = normalise(total)
    return values


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """A tiebreak found by name: exactly one of ``entry`` and ``group`` is set.

    ``higher_is_better`` is ``False`` only for ``points_against``.
    """

    name: str
    higher_is_better: bool
    entry: EntryFunction | None = None
    group: GroupFunction | None = None
    field: str = ""
    """The :class:`EntryTally` field ``entry`` returns, when that is all it does (so a whole
    column is read at once)."""
    reach: int = 1
    """How far an entry tiebreak looks: 0, only the entry's own record; 1, its opponents'
    records too (their match points, their win rates). A recompute after a few results changed
    computes again the values of the entries that far from those results
    (:mod:`~tournaments.standings.incremental`)."""
    label: str = ""
    """How a page names it (a column heading, "Median Buchholz"); the name when empty."""
    short: str = ""
    """Its short column heading ("MBh"); the name when empty."""

    @property
    def description(self) -> str:
        """The first line of the tiebreak function's docstring (for pages and exports)."""
        function = self.entry or self.group
        doc = (function.__doc__ or "") if function is not None else ""
        return doc.strip().splitlines()[0] if doc.strip() else self.name


TIEBREAKS: Mapping[str, Tiebreak] = {
    t.name: t
    for t in (
        Tiebreak(
            "match_points",
            True,
            entry=match_points,
            field="match_points",
            reach=0,
            label=gettext_noop("Match points"),
            short=gettext_noop("MP"),
        ),
        Tiebreak(
            "wins",
            True,
            entry=wins,
            field="wins",
            reach=0,
            label=gettext_noop("Wins"),
            short=gettext_noop("W"),
        ),
        Tiebreak(
            "points_for",
            True,
            entry=points_for,
            field="points_for",
            reach=0,
            label=gettext_noop("Points for"),
            short=gettext_noop("PF"),
        ),
        Tiebreak(
            "points_against",
            False,
            entry=points_against,
            field="points_against",
            reach=0,
            label=gettext_noop("Points against"),
            short=gettext_noop("PA"),
        ),
        Tiebreak("spread", True, entry=spread, reach=0, label=gettext_noop("Spread"), short="+/-"),
        Tiebreak("buchholz", True, entry=buchholz, label="Buchholz", short=gettext_noop("Bh")),
        Tiebreak(
            "median_buchholz",
            True,
            entry=median_buchholz,
            label=gettext_noop("Median Buchholz"),
            short=gettext_noop("MBh"),
        ),
        Tiebreak(
            "head_to_head",
            True,
            group=head_to_head,
            label=gettext_noop("Head to head"),
            short=gettext_noop("H2H"),
        ),
        Tiebreak(
            "opponents_win_rate",
            True,
            entry=opponents_win_rate,
            label=gettext_noop("Opponents' win rate"),
            short=gettext_noop("OWR"),
        ),
    )
}
"""Every tiebreak by name."""


DEFAULT_TIEBREAKS: Mapping[str, tuple[str, ...]] = {
    "swiss": ("buchholz", "spread", "points_for"),
    "round_robin": ("head_to_head", "wins", "spread", "points_for"),
}
"""The tiebreaks a new event gets, after match points, by its format (the director's help page
says why; ``templates/tournaments/help/director.html``):

- **Swiss**: entries meet different opponents, so the strength of those met (Buchholz) is the
  fairest first separator; then the margin of the games (spread: points for minus against, at
  a table of many the own score against the tablemates' mean), then the points scored. Head to
  head is left out: in a Swiss round most tied groups have not all met, so it rarely applies.
- **Round robin**: everyone meets everyone, so Buchholz only counts the others' points (it
  rewards losing to them); head to head is complete among any tied group, then wins, spread and
  points for.
"""


def default_tiebreaks(format_name: str) -> list[str]:
    """The tiebreaks (after match points) a new event of this format gets; an unknown format
    gets the Swiss ones (the default format).

    >>> default_tiebreaks("swiss")
    ['buchholz', 'spread', 'points_for']
    >>> default_tiebreaks("round_robin")
    ['head_to_head', 'wins', 'spread', 'points_for']
    """
    return list(DEFAULT_TIEBREAKS.get(format_name, DEFAULT_TIEBREAKS["swiss"]))


def applied_tiebreaks(listed: Sequence[str] | None) -> list[str]:
    """The ordered list the standings apply for an event's listed tiebreaks: match points
    first, then the event's list (which may start with match points itself).

    >>> applied_tiebreaks(["buchholz", "spread"])
    ['match_points', 'buchholz', 'spread']
    >>> applied_tiebreaks(["match_points"])
    ['match_points']
    >>> applied_tiebreaks([])
    ['match_points']
    """
    names = [str(name) for name in (listed or [])]
    return names if names[:1] == ["match_points"] else ["match_points", *names]


def tiebreak_label(name: str) -> str:
    """A tiebreak's label for pages ("Median Buchholz"); an unknown name comes back as it is."""
    found = TIEBREAKS.get(name)
    return (found.label or found.name) if found is not None else name


def tiebreak_short(name: str) -> str:
    """A tiebreak's short column heading ("MBh"); an unknown name comes back as it is."""
    found = TIEBREAKS.get(name)
    return (found.short or found.name) if found is not None else name


def find_tiebreak(name: str) -> Tiebreak:
    """The tiebreak called ``name``; an unknown name raises :class:`ValueError` naming it.

    >>> find_tiebreak("buchholz").higher_is_better
    True
    >>> find_tiebreak("sonneborn")
    Traceback (most recent call last):
    ...
    ValueError: unknown tiebreak 'sonneborn' (known: buchholz, head_to_head, match_points, \
median_buchholz, opponents_win_rate, points_against, points_for, spread, wins)
    """
    try:
        return TIEBREAKS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(TIEBREAKS))
        raise ValueError(f"unknown tiebreak {name!r} (known: {known})") from None
