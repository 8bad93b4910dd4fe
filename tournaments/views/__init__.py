"""Server-rendered pages, one module per topic (registration, rounds, results, standings, table,
cards). Views are thin: selectors to read, services to write, presenters to shape what a page
shows, and the application errors of ``tournaments.errors`` shown by ``views.errors.show_error``.
"""
