"""The Celery app.

Configured from Django settings under the ``CELERY_`` namespace (see ``spinner/settings.py``).
Without ``REDIS_URL`` tasks run eagerly in the calling process, so the app needs nothing else
installed; with it, Redis is the broker and workers run the tasks.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spinner.settings")

app = Celery("spinner")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
