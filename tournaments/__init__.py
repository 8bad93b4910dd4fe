"""Events, entries, pairings, results and standings: the Django side of Spinner."""
