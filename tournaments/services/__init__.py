"""Writes, one module per area: keyword-only, typed, ``@transaction.atomic``, verb-first.

Every change a director makes is recorded through ``tournaments.services.audit.record``.
"""
