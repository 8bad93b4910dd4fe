"""The kinds of background job a director waits on (``BackgroundJob.kind``), named once for the
services that start and run them and the pages that list them."""

GENERATE_ROUND = "generate_round"
PROPOSE_TIEBREAK_ROUND = "propose_tiebreak_round"
SEED_PLAYOFF = "seed_playoff"
RERATE = "rerate"
"""Not a director's job: the coalesced mark that a rated event's ratings need re-rating from a
round (``services/ratings.py``)."""
