"""The Celery app.

Configured from Django settings under the ``CELERY_`` namespace (see ``spinner/settings.py``).
Without ``REDIS_URL`` tasks run eagerly in the calling process, so the app needs nothing else
installed; with it, Redis is the broker and workers run the tasks.
"""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_init

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


@worker_init.connect
def _remember_recent_standings(**_: Any) -> None:
    """In the worker's main process, before it starts its pool: compute the standings of the
    events recomputed lately (within ``SPINNER_WORKER_WARM_STANDINGS_HOURS``; 0 for none), so
    that every pool process forked from it starts with them and its first recompute of such an
    event reuses that computation instead of starting from scratch
    (``tournaments.selectors.standings_records.remember_recent_events``). Then close the database
    connections (a forked process must not share them) and move every object made so far out of
    the cyclic garbage collector's sight (``gc.freeze``, as the ``gc`` documentation advises
    before forking: the pool processes share those pages rather than copying them when a
    collection would walk them). A failure is logged and the worker starts all the same."""
    import gc
    import logging
    import time
    from datetime import timedelta

    import django
    from django.apps import apps

    if not apps.ready:  # set up already in a worker (Celery's Django fixup): not again
        django.setup()
    from django.conf import settings
    from django.db import connections

    logger = logging.getLogger(__name__)
    hours = float(getattr(settings, "SPINNER_WORKER_WARM_STANDINGS_HOURS", 0))
    try:
        if hours > 0:
            from tournaments.selectors import standings_records

            started = time.process_time()
            events = standings_records.remember_recent_events(within=timedelta(hours=hours))
            logger.info(
                "standings of events %s computed before the pool starts (%.0f ms of CPU)",
                events,
                (time.process_time() - started) * 1000,
            )
    except Exception:
        logger.exception("the standings of recent events could not be computed at start")
    finally:
        connections.close_all()
        gc.freeze()
