"""Server-rendered pages, one module per area. Views are thin: selectors to read, services to
write, and the application errors of ``tournaments.errors`` shown as messages."""
