"""Standings of an event whose results are private reveal no match's outcome.

An event may publish its standings but not its results (``Event.public_results`` off). The
standings' totals are what the event chose to show; what they must not show is how each match
went: the match points after each round (``progress``, the team page's chart: its steps are the
rounds' outcomes) and the tiebreak rounds' match points (``settlement``). ``without_outcomes``
is the one place that removes them from a standings snapshot; every standings surface (the
page's table, the team page, the CSV, the API) reads through it.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.models import Event
from tournaments.permissions import can_see
from tournaments.selectors.standings import LiveStandings

#: Per-row fields of a snapshot that tell a match's outcome.
OUTCOME_ROW_FIELDS = ("settlement", "settlement_match_ids")
#: Per-entry extras that tell a round's outcome.
OUTCOME_EXTRA_FIELDS = ("progress",)


def hides_outcomes(user: AbstractBaseUser | AnonymousUser, event: Event) -> bool:
    """True when this visitor may see the standings but not the results."""
    return not can_see(user, event, "results")


def without_outcomes_document(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of a snapshot document without any per-match outcome."""
    if not document:
        return document
    clean = copy.deepcopy(document)
    for row in clean.get("standings", {}).get("rows", []):
        for name in OUTCOME_ROW_FIELDS:
            if name in row:
                row[name] = None if name == "settlement" else []
    for extra in clean.get("extra", {}).values():
        if isinstance(extra, dict):
            for name in OUTCOME_EXTRA_FIELDS:
                extra.pop(name, None)
    return clean


def without_outcomes(standings: LiveStandings) -> LiveStandings:
    """The same standings, without any per-match outcome."""
    return dataclasses.replace(standings, document=without_outcomes_document(standings.document))


def for_viewer(
    standings: LiveStandings, user: AbstractBaseUser | AnonymousUser, event: Event
) -> LiveStandings:
    """The standings as this visitor may see them."""
    return without_outcomes(standings) if hides_outcomes(user, event) else standings
