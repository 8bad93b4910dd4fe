"""Presenters: what a page or a printed card shows, built from plain reads (selectors) and the
game (:mod:`tournaments.game`). No writes, no requests: views pass them rows and render them.

- :mod:`.scores` -- a score as a person reads it (displayed points, with its unit).
- :mod:`.cards` -- the director's printed table cards and pairings sheet (rows, QR SVG).
- :mod:`.table` -- the table's page (``/t/<token>/``): its config, the hand replay and drawing.
- :mod:`.standings` -- the team page (with its progression chart) and the standings CSV.
"""
