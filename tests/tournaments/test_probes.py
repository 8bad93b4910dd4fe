"""/healthz and /readyz asked as curl and a load balancer ask them: real HTTP requests to a live
server (``http.client``, sending exactly the headers given, nothing added), for every Accept a
probe sends; and /readyz with a real dependency down (a Redis address nobody listens on) is a
503 for every one of them.

Before issue 28 /readyz answered 500 ``TemplateDoesNotExist: health_check/index.html`` to curl's
``Accept: */*``, to no Accept at all and to ``text/html``: a balancer would have taken every
healthy web process out of service."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.conftest import free_port
from tournaments import replica

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

# (what sends it, its headers): curl 8's own, a balancer's probe (AWS's, HAProxy's
# ``option httpchk``: no Accept), a browser, a JSON client, and headers no negotiation knows.
PROBES: list[tuple[str, dict[str, str]]] = [
    ("curl", {"User-Agent": "curl/8.5.0", "Accept": "*/*"}),
    ("balancer, no Accept", {"User-Agent": "ELB-HealthChecker/2.0"}),
    ("browser", {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}),
    ("json", {"Accept": "application/json"}),
    ("unknown type", {"Accept": "application/x-nothing"}),
    ("malformed", {"Accept": "not a media type;;q=abc"}),
]


def _get(live_server: Any, path: str, headers: dict[str, str]) -> tuple[int, str, str]:
    """A GET with exactly these headers (and Host): status, Content-Type, body."""
    where = urlsplit(live_server.url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
    try:
        connection.putrequest("GET", path, skip_accept_encoding=True)
        for name, value in headers.items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read().decode()
    finally:
        connection.close()


def _states(content_type: str, body: str) -> dict[str, str]:
    """Each check's state, from the JSON or the plain text answer."""
    if content_type.startswith("application/json"):
        return dict(json.loads(body))
    lines = [line.split(": ", 1) for line in body.splitlines() if line]
    return {name: state for name, state in lines}


def _database_states() -> dict[str, str]:
    """The database checks this configuration makes /readyz run, all healthy: the primary, and
    where a streaming replica is configured (CI runs one) the replica and its lag."""
    states = {"Database(alias='default')": "OK"}
    if replica.has_replica():
        states |= {f"Database(alias='{replica.REPLICA}')": "OK", "ReplicaLag()": "OK"}
    return states


@pytest.fixture
def no_broker(settings: Any) -> None:
    settings.REDIS_URL = ""
    settings.CELERY_TASK_ALWAYS_EAGER = True  # no broker: no worker's heartbeat to wait for


@pytest.mark.parametrize(("who", "headers"), PROBES, ids=[who for who, _ in PROBES])
def test_healthz_and_readyz_answer_200_to_every_probe(
    live_server: Any, no_broker: None, who: str, headers: dict[str, str]
) -> None:
    status, content_type, body = _get(live_server, "/healthz", headers)
    assert (status, body) == (200, "ok\n"), who
    status, content_type, body = _get(live_server, "/readyz", headers)
    assert status == 200, (who, body)
    states = _states(content_type, body)
    assert states == _database_states(), (who, body)
    expected = "application/json" if who == "json" else "text/plain"
    assert content_type.startswith(expected), (who, content_type)


@pytest.mark.parametrize(("who", "headers"), PROBES, ids=[who for who, _ in PROBES])
def test_readyz_answers_503_naming_redis_when_redis_is_down(
    live_server: Any, no_broker: None, settings: Any, who: str, headers: dict[str, str]
) -> None:
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"  # nobody listens there
    status, content_type, body = _get(live_server, "/readyz", headers)
    assert status == 503, (who, body)
    states = _states(content_type, body)
    assert states["Database(alias='default')"] == "OK", body
    (redis_state,) = [state for name, state in states.items() if name.startswith("Redis")]
    assert redis_state != "OK" and redis_state, body
    # alive all the same: /healthz asks nothing of Redis
    assert _get(live_server, "/healthz", headers)[0] == 200


def test_readyz_answers_200_with_a_live_redis_and_head_as_a_probe_may_send(
    live_server: Any, no_broker: None, settings: Any, redis_url: str
) -> None:
    settings.REDIS_URL = redis_url
    status, content_type, body = _get(live_server, "/readyz", {"Accept": "*/*"})
    assert status == 200, body
    states = _states(content_type, body)
    assert set(states.values()) == {"OK"}, body
    others = [name for name in states if name not in _database_states()]
    assert set(_database_states()) <= set(states) and len(others) == 1, body
    assert others[0].startswith("Redis"), body
    where = urlsplit(live_server.url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
    try:
        connection.request("HEAD", "/readyz")
        assert connection.getresponse().status == 200
    finally:
        connection.close()


def test_the_balancers_probe_asks_only_the_database_so_a_redis_outage_drains_nothing(
    live_server: Any, no_broker: None, settings: Any
) -> None:
    """Redis down (the cache fails open, results wait for a worker): the monitor's /readyz is
    503, the balancer's stays 200, or every web process would be taken out at once."""
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"
    settings.CELERY_TASK_ALWAYS_EAGER = False  # a broker, and no worker has ever beaten
    curl = {"User-Agent": "curl/8.5.0", "Accept": "*/*"}
    status, content_type, body = _get(live_server, "/readyz", curl)
    assert status == 503, body
    assert {name.split("(")[0] for name in _states(content_type, body)} == {
        name.split("(")[0] for name in _database_states()
    } | {"Redis", "WorkerHeartbeat"}
    status, content_type, body = _get(live_server, "/readyz?scope=balancer", curl)
    assert status == 200, body
    assert _states(content_type, body) == {"Database(alias='default')": "OK"}
