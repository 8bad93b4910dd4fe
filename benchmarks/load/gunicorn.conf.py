"""Gunicorn settings for the load harness (and a starting point for production).

Every value can be overridden on gunicorn's command line (the harness passes ``--bind`` and its
``--gunicorn-*`` flags). Sync workers by default: the shape issue 17 measured; compare others with
``--gunicorn-worker-class gthread --gunicorn-threads 4``.
"""

import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "sync")
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
timeout = 30
graceful_timeout = 10
keepalive = 2
# No access log: table tokens travel in the Authorization header, but table links carry them in
# the path (/t/<token>/), and a log of paths would keep them.
accesslog = None
errorlog = "-"
loglevel = "warning"
