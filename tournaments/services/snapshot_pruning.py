"""Standings snapshots pruned (issue 28): the last of each round, the latest, and those a
pending webhook delivery names.

Every recompute that changes the standings stores a whole new snapshot
(``services/standings.py``); with eager tasks (the embedded default: SQLite, no worker) that is
one per confirmed result, and a 1,000-entry event's database reached 1.0 GB. Nothing reads an
older snapshot than the latest: the pages, the API, the export and the pairing read the latest
one only. What is kept, per event:

- the latest snapshot (what everything reads; an export and the standings CSV name its
  generation, so what an export names is always kept);
- the last snapshot of each round (``StandingsSnapshot.round_number``: the last round with a
  counted result): the standings as they stood when each round's last result was in, for a
  director or an auditor comparing rounds;
- every snapshot a ``standings.updated`` webhook delivery still being delivered names
  (``pending``): its receiver may yet ask about that generation. A delivered or failed one is
  history and keeps nothing.

Everything else is deleted. :func:`prune_after_new_snapshot` runs after each new snapshot is
stored (in the recompute's lock on PostgreSQL, so two recomputes of one event never prune at
once); the previous snapshots of the round are all it finds to delete, so it costs one small
query and one delete. ``manage.py prune_standings_snapshots`` prunes every event (a database
from before this module). On SQLite the freed pages are reused by the next snapshots: the file
stops growing rather than shrinks (``VACUUM`` shrinks it).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable

from django.db import transaction

from tournaments.models import StandingsSnapshot, WebhookDelivery
from tournaments.selectors.standings_records import covered_round
from tournaments.services.webhooks import WebhookKind

logger = logging.getLogger(__name__)

DEDUP_PREFIX = "standings.updated:generation:"
"""How a ``standings.updated`` delivery names its generation (``webhooks.standings_updated``)."""


def generations_to_keep(rows: Iterable[tuple[int, int]], named: set[int]) -> set[int]:
    """Of an event's snapshots, ``(generation, round_number)`` each, the generations to keep:
    the latest, the last of each round, and the ``named`` ones that exist."""
    last_of_round: dict[int, int] = {}
    generations: set[int] = set()
    for generation, round_number in rows:
        generations.add(generation)
        if generation > last_of_round.get(round_number, 0):
            last_of_round[round_number] = generation
    keep = set(last_of_round.values()) | (named & generations)
    if generations:
        keep.add(max(generations))
    return keep


def webhook_named_generations(event_id: int) -> set[int]:
    """The generations the event's pending ``standings.updated`` deliveries name."""
    keys = WebhookDelivery.objects.filter(
        endpoint__event_id=event_id,
        kind=WebhookKind.STANDINGS_UPDATED,
        status=WebhookDelivery.Status.PENDING,
        dedup_key__startswith=DEDUP_PREFIX,
    ).values_list("dedup_key", flat=True)
    return {int(key[len(DEDUP_PREFIX) :]) for key in keys if key[len(DEDUP_PREFIX) :].isdigit()}


def _fill_unknown_rounds(event_id: int) -> None:
    """Snapshots stored before ``round_number`` existed: read their round from their data."""
    unknown = StandingsSnapshot.objects.filter(event_id=event_id, round_number__isnull=True)
    for pk, data in unknown.values_list("pk", "data").iterator(chunk_size=4):
        number = covered_round(json.loads(data))
        StandingsSnapshot.objects.filter(pk=pk).update(round_number=number)


def prune_event_snapshots(*, event_id: int) -> int:
    """Delete the event's snapshots that :func:`generations_to_keep` does not keep; how many."""
    with transaction.atomic():
        _fill_unknown_rounds(event_id)
        rows = list(
            StandingsSnapshot.objects.filter(event_id=event_id).values_list(
                "pk", "generation", "round_number"
            )
        )
        keep = generations_to_keep(
            ((generation, number or 0) for _, generation, number in rows),
            webhook_named_generations(event_id),
        )
        doomed = [pk for pk, generation, _ in rows if generation not in keep]
        if doomed:
            StandingsSnapshot.objects.filter(pk__in=doomed).delete()
    return len(doomed)


def prune_after_new_snapshot(*, event_id: int) -> int:
    """After a recompute stored a new snapshot: prune the event's (never fails the recompute:
    a failure is logged, and the next new snapshot prunes again)."""
    try:
        return prune_event_snapshots(event_id=event_id)
    except Exception:  # the standings are stored and served; pruning can wait
        logger.exception("could not prune the standings snapshots of event %s", event_id)
        return 0


def prune_all_snapshots() -> dict[int, int]:
    """Prune every event's snapshots; how many each event lost."""
    events = (
        StandingsSnapshot.objects.values_list("event_id", flat=True).order_by("event_id").distinct()
    )
    return {event_id: prune_event_snapshots(event_id=event_id) for event_id in list(events)}
