"""Race-freedom on the real PostgreSQL: many clients at once, one claim, one confirmed result.

Each thread is one client with its own database connection, all released together by a barrier;
every request goes through the whole API (authentication, idempotency, services, constraints).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from tests.tournaments.api_support import private_cache, table_client
from tests.tournaments.results_support import make_event, make_round, match_at, sheet
from tournaments.models import Claim, IdempotencyRecord, MatchResult

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CLIENTS = 50
SUBMISSIONS = 200


@pytest.fixture(autouse=True)
def _roomy_throttles(settings: Any) -> Iterator[None]:
    rates = {"table_token": "100000/min", "anon": "100000/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    with private_cache(settings):
        yield


def run_together(jobs: list[Callable[[], Any]], workers: int) -> list[Any]:
    """Run ``jobs`` on ``workers`` threads, started together; each thread closes its connection."""
    barrier = threading.Barrier(min(workers, len(jobs)))

    def run(job: Callable[[], Any], index: int) -> Any:
        try:
            if index < workers:
                barrier.wait(timeout=30)
            return job()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run, job, i) for i, job in enumerate(jobs)]
        return [f.result(timeout=120) for f in futures]


def test_200_identical_submissions_from_50_clients_make_one_claim(postgres: None) -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    body = {"side": 0, "sheet": sheet("tally")}
    url = f"/api/matches/{match.pk}/claims/"

    def submit() -> tuple[int, Any]:
        response = table_client(rnd, 1).post(
            url, body, format="json", HTTP_IDEMPOTENCY_KEY="phone-retry-1"
        )
        return response.status_code, response.json()

    answers = run_together([submit] * SUBMISSIONS, CLIENTS)
    statuses = [status for status, _ in answers]
    assert all(status < 500 for status in statuses), statuses
    assert set(statuses) == {201}
    first = answers[0][1]
    assert all(answer == first for _, answer in answers)  # the same answer for the same key
    assert Claim.objects.filter(match=match).count() == 1
    assert IdempotencyRecord.objects.count() == 1


def test_identical_sheets_under_different_keys_still_make_one_claim(postgres: None) -> None:
    rnd = make_round(make_event())
    match = match_at(rnd, 1)
    url = f"/api/matches/{match.pk}/claims/"

    def submit(n: int) -> Callable[[], int]:
        def go() -> int:
            response = table_client(rnd, 1).post(
                url,
                {"side": 0, "sheet": sheet("tally")},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"client-{n}",
            )
            return response.status_code

        return go

    statuses = run_together([submit(n) for n in range(SUBMISSIONS)], CLIENTS)
    assert sorted(set(statuses)) == [200, 201], statuses
    assert statuses.count(201) == 1  # one stored it; the others found the same claim there
    assert Claim.objects.filter(match=match).count() == 1


def test_both_sides_at_once_give_one_confirmed_result(postgres: None) -> None:
    rnd = make_round(make_event(), tables=4)
    url = "/api/matches/{}/claims/"

    def submit(table: int, side: int, n: int) -> Callable[[], int]:
        def go() -> int:
            match_id = match_at(rnd, table).pk
            response = table_client(rnd, table, side=side).post(
                url.format(match_id),
                {"side": side, "sheet": sheet("tally")},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"t{table}-s{side}-{n}",
            )
            return response.status_code

        return go

    jobs = [submit(t, s, n) for n in range(6) for t in range(1, 5) for s in (0, 1)]
    statuses = run_together(jobs, 48)
    assert all(status in (200, 201) for status in statuses), statuses
    for table in range(1, 5):
        match = match_at(rnd, table)
        assert MatchResult.objects.filter(match=match).count() == 1
        assert MatchResult.objects.filter(match=match, is_current=True).count() == 1
        assert Claim.objects.filter(match=match).count() == 2  # one per side
