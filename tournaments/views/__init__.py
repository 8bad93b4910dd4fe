"""Server-rendered pages, one module per topic (events, entries, entry_import, rounds, results,
standings, table, cards, public). Views are thin: selectors to read, services to write,
presenters to shape what a page shows, and the application errors of ``tournaments.errors``
shown by ``views.errors.show_error``.
"""
