"""Enqueue Celery tasks after the surrounding transaction commits, never failing the caller.

A result saved by a player must never turn into an error because the broker is down: the task is
sent only once the data it needs is committed (so a worker cannot read a row that is not there
yet), and a failure to publish is logged, not raised. Anything such a lost message would have done
is caught up by the periodic reconcile jobs (see ``tournaments/tasks.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery import Task
from django.db import transaction

logger = logging.getLogger(__name__)


def send_task_safely(task: Task[Any, Any], *args: Any, **kwargs: Any) -> bool:
    """Publish ``task`` now; return False (and log) instead of raising when the broker fails."""
    try:
        task.apply_async(args=args, kwargs=kwargs)
    except Exception:
        logger.exception("could not enqueue %s%r; the reconcile job will catch up", task.name, args)
        return False
    return True


def enqueue_after_commit(
    task: Task[Any, Any],
    *args: Any,
    on_failure: Callable[[], None] | None = None,
    **kwargs: Any,
) -> None:
    """Send ``task`` once the current transaction commits (at once outside a transaction).

    ``on_failure`` runs when the broker cannot take the message (for example, to mark a job a
    person is waiting for as failed, so the page says so instead of waiting forever).
    """

    def send() -> None:
        if not send_task_safely(task, *args, **kwargs) and on_failure is not None:
            on_failure()

    transaction.on_commit(send, robust=True)
