"""Spinner's standings: a pure computation over plain records (no Django, no Celery).

The Django side reads its models into :class:`Entry` and :class:`Result` records, calls
:func:`compute_standings` with the event's :class:`PointsConfig` and ordered tiebreak list, and
stores :meth:`Standings.to_json_bytes` as a snapshot (byte-identical for the same inputs).
:func:`unbroken_ties` names the groups a tiebreak round should settle (the play-off cut, the
podium); once those rounds' results come in (``kind="tiebreak"``) the same call settles them.

The Django side, in outline (its service reads the models; nothing here touches them)::

    entries = [Entry(pk, name) for pk, name in ...]            # the event's entries
    results = [Result(pk, round_no, kind, a, b, sa, sb, winner, forfeit) for ... in ...]
    standings = compute_standings(entries, results, points=PointsConfig(win=2, loss=0, bye=2),
                                  tiebreaks=event.tiebreaks)   # e.g. ["match_points", "buchholz"]
    snapshot_bytes = standings.to_json_bytes()                  # same results -> same bytes
    to_settle = unbroken_ties(standings, places=[8])            # e.g. the play-off cut at 8
    later = Standings.from_json_bytes(snapshot_bytes)           # a page reads a snapshot back

Every input is checked (a :class:`ValueError` names the bad value: an unknown tiebreak name, an
unknown entry in a result, a float score...). Ranks are shared by entries still tied after the whole
list (1, 2, 2, 4). Row ``values`` follow the order of ``standings.tiebreaks``.

Modules:

- :mod:`~tournaments.standings.records`: the input records and the points setting;
- :mod:`~tournaments.standings.tallying`: one pass over the results into each entry's record;
- :mod:`~tournaments.standings.tiebreaks`: every tiebreak, named and documented;
- :mod:`~tournaments.standings.compute`: the ordering, ranks, ties and snapshots;
- :mod:`~tournaments.standings.incremental`: the standings again after a few results changed,
  reusing the previous computation of the event (exactly what :func:`compute_standings` gives);
- :mod:`~tournaments.standings.progression`: each entry's results round by round (forfeits
  marked), for the progression the pages draw;
- :mod:`~tournaments.standings.serialise`: exact numbers as text;
- :mod:`~tournaments.standings.multiplayer`: tables of three or four: placings, match points by
  placing or in proportion to score, and the record the tiebreaks read (pass
  :class:`TableResult` records to :func:`compute_standings`, with ``placing=PlacingPoints(...)``).
"""

from tournaments.standings.compute import (
    FORMAT,
    StandingRow,
    Standings,
    Value,
    compute_standings,
    resolve_tiebreaks,
    standings_from_tally,
    unbroken_ties,
)
from tournaments.standings.multiplayer import (
    PlacingPoints,
    TableResult,
    TableTally,
    placings,
    table_points,
    table_tally,
)
from tournaments.standings.progression import Outcome, RoundLine, outcome, progression
from tournaments.standings.records import (
    Entry,
    EntryId,
    MatchId,
    Number,
    PointsConfig,
    Result,
    RoundKind,
)
from tournaments.standings.serialise import format_number, parse_number
from tournaments.standings.tallying import EntryTally, Tally, result_points, tally
from tournaments.standings.tiebreaks import (
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    Tiebreak,
    applied_tiebreaks,
    default_tiebreaks,
    find_tiebreak,
    tiebreak_label,
    tiebreak_short,
)

__all__ = [
    "DEFAULT_TIEBREAKS",
    "FORMAT",
    "TIEBREAKS",
    "Entry",
    "EntryId",
    "EntryTally",
    "MatchId",
    "Number",
    "Outcome",
    "PlacingPoints",
    "PointsConfig",
    "Result",
    "RoundKind",
    "RoundLine",
    "StandingRow",
    "Standings",
    "TableResult",
    "TableTally",
    "Tally",
    "Tiebreak",
    "Value",
    "applied_tiebreaks",
    "compute_standings",
    "default_tiebreaks",
    "find_tiebreak",
    "format_number",
    "outcome",
    "parse_number",
    "placings",
    "progression",
    "resolve_tiebreaks",
    "result_points",
    "standings_from_tally",
    "table_points",
    "table_tally",
    "tally",
    "tiebreak_label",
    "tiebreak_short",
    "unbroken_ties",
]
