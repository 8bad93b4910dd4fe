"""The kinds of background job a director waits on (``BackgroundJob.kind``), named once for the
services that start and run them and the pages that list them."""

from django.utils.translation import gettext_lazy

GENERATE_ROUND = "generate_round"
PROPOSE_TIEBREAK_ROUND = "propose_tiebreak_round"
SEED_PLAYOFF = "seed_playoff"
RERATE = "rerate"
"""Not a director's job: the coalesced mark that a rated event's ratings need re-rating from a
round (``services/ratings.py``)."""

LABELS = {
    GENERATE_ROUND: gettext_lazy("Generating a round"),
    PROPOSE_TIEBREAK_ROUND: gettext_lazy("Proposing a tiebreak round"),
    SEED_PLAYOFF: gettext_lazy("Seeding the play-off"),
}
"""What the director's pages call each kind of job."""


def label(kind: str) -> str:
    """A job's kind in words (the kind itself for one not listed)."""
    found = LABELS.get(kind)
    return kind.replace("_", " ").capitalize() if found is None else str(found)
