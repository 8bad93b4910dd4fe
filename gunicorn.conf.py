"""gunicorn's settings, read from the working directory (``gunicorn spinner.wsgi``).

Table links and API keys are credentials: the access and error logs go through a logger that
redacts them (``tournaments.log_redaction``).
"""

logger_class = "tournaments.log_redaction.RedactingGunicornLogger"
