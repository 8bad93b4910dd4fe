"""Reads for the play-off: whether it may be seeded now, and the seeding order from the final
standings.
"""

from __future__ import annotations

from django.db.models import Max
from django.utils.translation import gettext

from tournaments.errors import Conflict, ValidationFailed
from tournaments.models import (
    Event,
    Round,
)
from tournaments.pairing import EntryRecord, rank
from tournaments.selectors.standings import final_standings


def seeding_order(event: Event) -> list[int]:
    """Entry ids best first from the final standings, withdrawn entries left out.

    Refuses (``tied_at_cut``) while entries share a rank across the play-off cut: propose a
    tiebreak round first. Entries tied *inside* the qualifiers (their seeds differ but both
    qualify) are ordered by the pairing package's salted lot (``pairing.rank``), which anyone can
    recompute from the event's salt.
    """

    standings = final_standings(event)
    cut = event.playoff_qualifiers
    rows = [row for row in standings.rows if not row["withdrawn"]]
    if len(rows) > cut and rows[cut - 1]["rank"] == rows[cut]["rank"]:
        tied = [row["name"] for row in rows if row["rank"] == rows[cut - 1]["rank"]]
        raise Conflict(
            gettext(
                "Entries are still tied across the play-off cut: propose a tiebreak round first."
            ),
            code="tied_at_cut",
            details={"tied": tied},
        )
    place = {int(row["entry_id"]): int(row["rank"]) for row in rows}
    records = [EntryRecord(entry_id, frozenset({entry_id})) for entry_id in place]
    last = event.rounds.aggregate(n=Max("number"))["n"] or 0
    return rank(records, salt=event.salt, round_no=last + 1, key=lambda e: place[e.entry_id])


def check_can_seed(event: Event) -> list[int]:
    if event.playoff == Event.Playoff.NONE:
        raise ValidationFailed(gettext("This event has no play-off."), code="no_playoff")
    if Round.objects.filter(event=event, kind=Round.Kind.PLAYOFF).exists():
        raise Conflict(gettext("The play-off bracket is already seeded."), code="playoff_started")
    return seeding_order(event)
