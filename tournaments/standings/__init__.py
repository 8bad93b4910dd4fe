"""Spinner's standings: a pure computation over plain records (no Django, no Celery).

The Django side reads its models into :class:`Entry` and :class:`Result` records, calls
:func:`compute_standings` with the event's :class:`PointsConfig` and ordered tiebreak list, and
stores :meth:`Standings.to_json_bytes` as a snapshot (byte-identical for the same inputs).
:func:`unbroken_ties` names the groups a tiebreak round should settle (the play-off cut, the
podium); once those rounds' results come in (``kind="tiebreak"``) the same call settles them.

Modules:

- :mod:`~tournaments.standings.records`: the input records and the points setting;
- :mod:`~tournaments.standings.tallying`: one pass over the results into each entry's record;
- :mod:`~tournaments.standings.tiebreaks`: every tiebreak, named and documented;
- :mod:`~tournaments.standings.compute`: the ordering, ranks, ties and snapshots;
- :mod:`~tournaments.standings.serialise`: exact numbers as text.
"""

from tournaments.standings.compute import (
    FORMAT,
    StandingRow,
    Standings,
    Value,
    compute_standings,
    resolve_tiebreaks,
    unbroken_ties,
)
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
from tournaments.standings.tallying import EntryTally, Tally, tally
from tournaments.standings.tiebreaks import TIEBREAKS, Tiebreak, find_tiebreak

__all__ = [
    "FORMAT",
    "TIEBREAKS",
    "Entry",
    "EntryId",
    "EntryTally",
    "MatchId",
    "Number",
    "PointsConfig",
    "Result",
    "RoundKind",
    "StandingRow",
    "Standings",
    "Tally",
    "Tiebreak",
    "Value",
    "compute_standings",
    "find_tiebreak",
    "format_number",
    "parse_number",
    "resolve_tiebreaks",
    "tally",
    "unbroken_ties",
]
