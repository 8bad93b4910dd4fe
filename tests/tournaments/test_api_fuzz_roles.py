"""schemathesis ``--checks all`` against the running API, as the director, a table and an
anonymous caller: no failure (issue 15).

The CLI runs against a live server on the test database holding an event in play with a claim
(``tests/tournaments/data/schemathesis.toml`` records what the schema cannot say), a few
examples per operation (the coverage phase takes every case the schema defines: the three
roles take about eight minutes). The in-process test
``test_api_schema`` sends bodies to that event's own match, round, entry and player.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tournaments.api_support import private_cache
from tests.tournaments.results_support import make_director, make_event, make_round, match_at, sheet
from tournaments.models import Table
from tournaments.services import claims
from tournaments.services.api_tokens import create_api_token
from tournaments.services.table_links import table_token

CONFIG = Path(__file__).parent / "data" / "schemathesis.toml"
CLI = Path(sys.executable).with_name("schemathesis")
EXAMPLES = "4"


@pytest.fixture
def world(settings: Any, live_server: Any) -> Iterator[dict[str, str]]:
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]}
    rates.update({"table_token": "100000/min", "anon": "100000/min", "user": "100000/min"})
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    event = make_event("fuzz-roles", allow_final_score_only=True)
    director = make_director(event, "fuzz-roles-director")
    rnd = make_round(event)
    match = match_at(rnd, 1)
    claims.submit_claim(match=match, side=0, sheet=sheet("tally"))
    table = Table.objects.get(event=event, number=1)
    with private_cache(settings):
        yield {
            "url": live_server.url,
            "director": f"Token {create_api_token(user=director)[1]}",
            "table": f"Table {table_token(round_=rnd, table=table, side=0)}",
        }


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ["director", "table", "anonymous"])
def test_schemathesis_checks_all_find_nothing(
    role: str, world: dict[str, str], tmp_path: Path
) -> None:
    command = [
        str(CLI),
        "--config-file",
        str(CONFIG),
        "run",
        f"{world['url']}/api/schema/?format=json",
        "--checks",
        "all",
        "--max-examples",
        EXAMPLES,
        "--workers",
        "1",
        "--phases",
        "examples,coverage,fuzzing",
        "--seed",
        "15",
        "--no-color",
    ]
    if role != "anonymous":
        command += ["--header", f"Authorization: {world[role]}"]
    # About 2.5 minutes a role on a quiet machine with the events API's 32 operations (their
    # settings bodies alone take half of the coverage phase's cases): room for a busy one.
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=480)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    generated = re.search(r"(\d+) generated", done.stdout)
    assert generated is not None and int(generated.group(1)) >= 100, done.stdout[-3000:]
    assert "failure" not in done.stdout.splitlines()[-1], done.stdout[-3000:]
