"""The work of each director job, by kind, run through the one runner (``services.jobs``).

This module sits above the domain services that do the work (round generation, tiebreak
rounds, play-off seeding) and below the tasks: ``tasks.run_director_job`` calls
:func:`run_director_job` with the job's id.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext

from tournaments import job_kinds
from tournaments.errors import ValidationFailed
from tournaments.models import BackgroundJob, Event
from tournaments.services import jobs, playoffs, round_generation, tiebreak_rounds


def _propose(job: BackgroundJob, event: Event, actor: User | None) -> tuple[str, dict[str, Any]]:
    rnd = tiebreak_rounds.propose_tiebreak_round(event=event, actor=actor)
    return f"Tiebreak round {rnd.number} proposed.", {"round": rnd.number}


def _seed(job: BackgroundJob, event: Event, actor: User | None) -> tuple[str, dict[str, Any]]:
    rnd = playoffs.seed_playoff(event=event, actor=actor)
    return f"Play-off round {rnd.number} seeded.", {"round": rnd.number}


def _unknown(job: BackgroundJob, event: Event, actor: User | None) -> tuple[str, dict[str, Any]]:
    raise ValidationFailed(
        gettext("Unknown job kind %(kind)r.") % {"kind": job.kind}, code="unknown_job"
    )


WORK: dict[str, jobs.Work] = {
    job_kinds.GENERATE_ROUND: round_generation.generation_work,
    job_kinds.PROPOSE_TIEBREAK_ROUND: _propose,
    job_kinds.SEED_PLAYOFF: _seed,
}


def run_director_job(*, job_id: int) -> BackgroundJob:
    """Run the director job ``job_id`` by its kind; safe to run twice (see ``services.jobs``)."""
    job = BackgroundJob.objects.get(pk=job_id)
    running = ""
    if job.kind == job_kinds.GENERATE_ROUND:
        running = round_generation.generation_running_message(job)
    return jobs.run_job(job_id=job_id, work=WORK.get(job.kind, _unknown), running=running)
