"""The Celery app.

Configured from Django settings under the ``CELERY_`` namespace (see ``spinner/settings.py``).
Without ``REDIS_URL`` tasks run eagerly in the calling process, so the app needs nothing else
installed; with it, Redis is the broker and workers run the tasks.
"""

import os
from typing import Any

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spinner.settings")


def _survive_restore_after_close() -> None:
    """Work around kombu's Redis transport killing the worker when Redis goes away.

    With ``acks_late`` a worker holds unacknowledged messages. When the broker connection is
    lost, Celery closes the connection; closing its default channel restores the unacknowledged
    messages, which needs a Redis client, which the channel builds from the connection's
    ``client``, by then already ``None``: ``AttributeError: 'NoneType' object has no attribute
    'hostname'`` escapes as an "Unrecoverable error" and the worker exits (kombu 5.7.0, the
    newest release; tests/tournaments/test_worker_outage.py reproduces it).

    Patched: a channel whose connection is gone raises the transport's own connection error,
    the error kombu already expects there (the close ignores it and the consumer reconnects).
    The message stays in Redis's ``unacked`` index and is delivered again after the visibility
    timeout; our tasks are safe to run twice, and the reconcile job repairs standings sooner.
    Remove when kombu fixes ``Channel._connparams`` (the test then passes without it).
    """
    try:
        from kombu.transport import redis as kombu_redis
        from redis.exceptions import ConnectionError as RedisConnectionError
    except ImportError:  # pragma: no cover - no Redis support installed: nothing to patch
        return
    channel: Any = kombu_redis.Channel
    original = channel._connparams
    if getattr(original, "_spinner_patched", False):
        return

    def _connparams(self: Any, asynchronous: bool = False) -> Any:
        if self.connection is None or self.connection.client is None:
            raise RedisConnectionError("the broker connection was closed")
        return original(self, asynchronous=asynchronous)

    _connparams._spinner_patched = True  # type: ignore[attr-defined]
    channel._connparams = _connparams


_survive_restore_after_close()

app = Celery("spinner")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
