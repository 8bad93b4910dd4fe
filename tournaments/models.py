"""Spinner's data: thin models whose constraints the database enforces.

Writes go through ``tournaments/services.py``; reads through ``tournaments/selectors.py``.
"""

from __future__ import annotations

from django.db import models


class BackgroundJob(models.Model):
    """A unit of background work a person waits for (generating a round, seeding a bracket...).

    The page that started it polls this row for ``status`` and ``progress``; the Celery task that
    does the work updates it. ``kind`` names the work, ``params`` holds its arguments.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    kind = models.CharField(max_length=64)
    params = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(default=0)
    message = models.TextField(blank=True)
    result = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(progress__lte=100), name="job_progress_at_most_100"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"
