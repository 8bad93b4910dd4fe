"""The kinds of background job a director waits on (``BackgroundJob.kind``), named once for the
services that start and run them and the pages that list them."""

GENERATE_ROUND = "generate_round"
PROPOSE_TIEBREAK_ROUND = "propose_tiebreak_round"
SEED_PLAYOFF = "seed_playoff"
RERATE = "rerate"
"""Not a director's job: the coalesced mark that a rated event's ratings need re-rating from a
round (``services/ratings.py``)."""

LABELS = {
    GENERATE_ROUND: "Generating a round",
    PROPOSE_TIEBREAK_ROUND: "Proposing a tiebreak round",
    SEED_PLAYOFF: "Seeding the play-off",
}
"""What the director's pages call each kind of job."""


def label(kind: str) -> str:
    """A job's kind in words (the kind itself for one not listed)."""
    return LABELS.get(kind, kind.replace("_", " ").capitalize())
