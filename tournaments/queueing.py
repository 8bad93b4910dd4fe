"""Enqueue Celery tasks by name after the surrounding transaction commits, never failing a caller.

Layers: a task (``tournaments/tasks.py``) is the top of the house: it takes ids and calls one
service. Services therefore never import the tasks module; they enqueue a task by its registered
NAME through this module (``enqueue_after_commit("tournaments.generate_round", job.pk)``), and
:func:`task_named` finds the task object at call time.

A result saved by a player must never turn into an error because the broker is down: the task is
sent only once the data it needs is committed (so a worker cannot read a row that is not there
yet), and a failure to publish is logged, not raised. Anything such a lost message would have done
is caught up by the periodic reconcile jobs (see ``tournaments/tasks.py``).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import Any

from celery import Task
from django.db import transaction

from spinner.celery import app

logger = logging.getLogger(__name__)

TASKS_MODULE = "tournaments.tasks"
"""Registers every task name; loaded by name (it sits above services, so it is never imported)."""


def task_named(name: str) -> Task[Any, Any]:
    """The registered task called ``name`` (``tournaments.recompute_event_standings``...)."""
    importlib.import_module(TASKS_MODULE)  # registers the names once; a no-op afterwards
    task: Task[Any, Any] = app.tasks[name]
    return task


def send_task_safely(
    name: str | Task[Any, Any], *args: Any, countdown: float | None = None, **kwargs: Any
) -> bool:
    """Publish the task ``name`` now (after ``countdown`` seconds if given); return False (and
    log) instead of raising when the broker fails."""
    options: dict[str, Any] = {} if not countdown else {"countdown": countdown}
    try:
        task = task_named(name) if isinstance(name, str) else name
        task.apply_async(args=args, kwargs=kwargs, **options)
    except Exception:
        logger.exception(
            "could not enqueue %s%r; the reconcile job will catch up",
            name if isinstance(name, str) else name.name,
            args,
        )
        return False
    return True


def enqueue_after_commit(
    name: str | Task[Any, Any],
    *args: Any,
    on_failure: Callable[[], None] | None = None,
    **kwargs: Any,
) -> None:
    """Send the task ``name`` (or a task object) once the current transaction commits.

    ``on_failure`` runs when the broker cannot take the message (for example, to mark a job a
    person is waiting for as failed, so the page says so instead of waiting forever).
    """

    def send() -> None:
        if not send_task_safely(name, *args, **kwargs) and on_failure is not None:
            on_failure()

    transaction.on_commit(send, robust=True)
