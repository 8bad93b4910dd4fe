"""The app's bookkeeping rows: the background jobs a director waits on, the answers kept for
idempotency keys, whether standings lag their results, the recompute's state and the
snapshots pages read; users' API keys (stored hashed); the workers' heartbeat.

Thin models like those of ``tournaments.models``, which re-exports them (import them from there).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.fast_json import FastJSONEncoder


class BackgroundJob(models.Model):
    """A unit of background work a person waits for (generating a round, seeding a bracket...).

    The page that started it polls this row for ``status`` and ``progress``; the Celery task that
    does the work updates it. ``kind`` names the work, ``params`` holds its arguments.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    event = models.ForeignKey(
        "tournaments.Event", null=True, blank=True, on_delete=models.CASCADE, related_name="jobs"
    )
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


class IdempotencyRecord(models.Model):
    """The answer given to one idempotency key of one client, replayed on a retry.

    ``scope`` names the client (a table link or a user), ``request_digest`` the request (method,
    path, body): the same key with another request is refused.
    """

    scope = models.CharField(max_length=120)
    key = models.CharField(max_length=200)
    request_digest = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField(default=0)
    response_body = models.JSONField(null=True, blank=True, encoder=FastJSONEncoder)
    response_headers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotency_key_once_per_scope"),
        ]
        indexes = [models.Index(fields=["created_at"])]

    def __str__(self) -> str:
        return f"{self.scope} {self.key} -> {self.status_code}"


class StandingsState(models.Model):
    """Whether an event's standings lag its results (issue 8 builds the recompute on it).

    ``results_generation`` goes up, in the same transaction, with every change to a confirmed
    result; ``dirty`` says a recompute is wanted. A recompute that read generation g may clear
    ``dirty`` only if the generation is still g.
    """

    event = models.OneToOneField(
        "tournaments.Event",
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="standings_state",
    )
    dirty = models.BooleanField(default=False)
    results_generation = models.PositiveIntegerField(default=0)
    dirty_since = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"standings of {self.event_id}: {'dirty' if self.dirty else 'clean'}"


# --- Live standings (issue 8, area ``live``): snapshots and the recompute's bookkeeping --------


class StandingsRecompute(models.Model):
    """The recompute side of an event's standings (its writer is the recompute alone, so results
    confirmed meanwhile never wait on this row).

    ``computed_generation`` is the ``StandingsState.results_generation`` the latest recompute read
    *before* loading the results: the latest snapshot covers at least that generation.
    ``last_started_at`` spaces recomputes (at most one every 2 s).
    """

    event = models.OneToOneField(
        "tournaments.Event",
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="standings_recompute",
    )
    computed_generation = models.PositiveIntegerField(default=0)
    last_started_at = models.DateTimeField(null=True, blank=True)
    last_finished_at = models.DateTimeField(null=True, blank=True)
    last_duration_ms = models.PositiveIntegerField(null=True, blank=True)
    last_status = models.CharField(max_length=16, blank=True)
    recomputes = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"recompute of {self.event_id}: generation {self.computed_generation}"


class StandingsSnapshot(models.Model):
    """One computed standings table of an event (area ``live``): pages read the latest one.

    ``data`` is the canonical serialisation (the same results give the same bytes), ``digest``
    its SHA-256: a recompute that yields the same bytes adds no generation. ``computed_from`` is
    the SHA-256 of the input records (entries, results, points, tiebreaks); ``results_generation``
    the ``StandingsState.results_generation`` it covers.
    """

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="standings_snapshots"
    )
    generation = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    results_generation = models.PositiveIntegerField(default=0)
    computed_from = models.CharField(max_length=64)
    digest = models.CharField(max_length=64)
    data = models.TextField()
    # the last round with a counted result (0: none; null: stored before issue 28, read from
    # data when needed); older snapshots are pruned to the last of each round
    # (services/snapshot_pruning.py)
    round_number = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["event", "-generation"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "generation"], name="standings_generation_per_event"
            ),
            models.CheckConstraint(
                condition=Q(generation__gte=1), name="standings_generation_gte_1"
            ),
        ]

    def __str__(self) -> str:
        return f"standings of {self.event_id} #{self.generation}"


class ApiToken(models.Model):
    """An API key of a user (``Authorization: Token <key>``), stored as its SHA-256 only.

    The key itself is shown once, when it is made (``manage.py api_token USER``); a database
    dump or a stolen backup holds no usable key. ``prefix`` (the key's first characters) lets a
    person tell their keys apart.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )

    class Scope(models.TextChoices):
        READ = "read", "Read"
        WRITE = "write", "Read and write"

    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    name = models.CharField(max_length=100, blank=True)
    # What the key may do: read only, or also write; on which events (none listed: every event
    # its user directs); until when (null: no expiry); revoked keys are kept for the audit.
    scope = models.CharField(max_length=8, choices=Scope.choices, default=Scope.WRITE)
    events = models.ManyToManyField("tournaments.Event", related_name="+", blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"API key {self.prefix}… of {self.user_id}"


# --- Operations (issue 15): the workers' heartbeat --------------------------------------------


class WorkerHeartbeat(models.Model):
    """The last time a Celery worker ran the periodic heartbeat task (one row per worker).

    Written by ``tournaments.services.heartbeat``, read by ``tournaments.selectors.health``.
    Kept in the database, not the cache, so that it survives a Redis outage and says since when
    no worker has answered.
    """

    worker = models.CharField(max_length=200, primary_key=True)
    beat_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.worker} at {self.beat_at:%H:%M:%S}"
