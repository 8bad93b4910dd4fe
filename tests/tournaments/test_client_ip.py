"""The client's address behind a reverse proxy (issue 28, ``tournaments/client_ip.py``).

Behind nginx every request came from the proxy (``REMOTE_ADDR``): one stranger's wrong passwords
paused everybody's log in, and the rate limits counted the world as one client; the API's
throttles believed any ``X-Forwarded-For``, so a caller sending a new one each time was never
throttled. Now ``X-Forwarded-For`` is read only when the peer is a proxy named in
``SPINNER_TRUSTED_PROXIES``, from the right, up to the first address that is not a trusted proxy.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from tests.tournaments.api_support import private_cache
from tournaments.checks import trusted_proxies_valid
from tournaments.client_ip import axes_client_address, client_address
from tournaments.rate_limit import client_address as rate_limit_address

PASSWORD = "dominoes-2026-right"
PROXY = "127.0.0.1"


@pytest.mark.parametrize(
    ("trusted", "remote", "forwarded", "client"),
    [
        # No trusted proxy: the header is never believed.
        ([], "203.0.113.7", "198.51.100.1", "203.0.113.7"),
        # The proxy appends the peer it saw; what the client wrote is left of it.
        (["127.0.0.1"], "127.0.0.1", "6.6.6.6, 203.0.113.7", "203.0.113.7"),
        # Two proxies (a balancer, then nginx), both trusted by network.
        (["10.0.0.0/8"], "10.0.0.5", "6.6.6.6, 203.0.113.7, 10.1.2.3", "203.0.113.7"),
        # A peer that is not a trusted proxy: its header is ignored.
        (["10.0.0.0/8"], "192.0.2.9", "203.0.113.7", "192.0.2.9"),
        # The trusted proxy sent no header: the proxy is the client.
        (["127.0.0.1"], "127.0.0.1", "", "127.0.0.1"),
        # IPv6 networks, an IPv4-mapped peer, a hop with a port.
        (["::1", "2001:db8::/32"], "::1", "[2001:db9::7]:443, 2001:db8::2", "2001:db9::7"),
        (["127.0.0.0/8"], "::ffff:127.0.0.1", "203.0.113.7:5555", "203.0.113.7"),
        # Garbage handed on by a trusted proxy: stop at that proxy, never believe what is left.
        (["127.0.0.1"], "127.0.0.1", "203.0.113.7, not-an-address", "127.0.0.1"),
        # Every hop trusted: the leftmost (a client inside the trusted network).
        (["10.0.0.0/8"], "10.0.0.5", "10.9.9.9, 10.1.1.1", "10.9.9.9"),
    ],
)
def test_the_client_address_believes_forwarded_for_only_from_trusted_proxies(
    settings: Any, trusted: list[str], remote: str, forwarded: str, client: str
) -> None:
    settings.SPINNER_TRUSTED_PROXIES = trusted
    request = RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == client
    assert rate_limit_address(request) == client  # the rate limits ask the same function


@pytest.mark.django_db
def test_a_login_without_an_address_is_logged_with_none_not_unknown(settings: Any) -> None:
    """django-axes stores the address in an ``inet`` column on PostgreSQL: a request with no
    address (the test client's ``force_login``, a bare ``HttpRequest``) gives it ``None``, where
    "unknown" failed the insert and every such log in."""
    settings.SPINNER_TRUSTED_PROXIES = []
    bare = RequestFactory().get("/")
    del bare.META["REMOTE_ADDR"]
    assert client_address(bare) == "unknown"  # what the rate limits count under
    assert axes_client_address(bare) is None
    assert axes_client_address(RequestFactory().get("/", REMOTE_ADDR="203.0.113.7")) == (
        "203.0.113.7"
    )
    user = User.objects.create_user("no-address", password=PASSWORD)
    Client().force_login(user)  # axes logs it: no error on either database


def test_a_trusted_proxies_setting_that_names_no_network_is_refused(settings: Any) -> None:
    settings.SPINNER_TRUSTED_PROXIES = ["10.0.0.0/8", "nginx.internal"]
    with pytest.raises(ImproperlyConfigured, match=r"nginx\.internal"):
        client_address(RequestFactory().get("/", REMOTE_ADDR="10.0.0.1"))
    (error,) = trusted_proxies_valid()  # and manage.py check says so at start
    assert error.id == "spinner.E102" and "nginx.internal" in error.msg
    settings.SPINNER_TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert trusted_proxies_valid() == []


@pytest.fixture
def counters(settings: Any) -> Iterator[None]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with private_cache(settings):
        yield


def _login_through_proxy(client_ip: str, username: str, password: str) -> int:
    client = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=client_ip)
    response = client.post("/accounts/login/", {"username": username, "password": password})
    return int(response.status_code)


@pytest.mark.django_db
@pytest.mark.usefixtures("counters")
@pytest.mark.parametrize("trusted", [True, False])
def test_behind_a_trusted_proxy_a_strangers_guesses_pause_only_the_strangers_address(
    settings: Any, trusted: bool
) -> None:

    settings.SPINNER_TRUSTED_PROXIES = [PROXY] if trusted else []
    User.objects.create_user("dora", password=PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login_through_proxy("203.0.113.66", "dora", "wrong")
    assert _login_through_proxy("203.0.113.66", "dora", PASSWORD) == 429
    director = _login_through_proxy("198.51.100.2", "dora", PASSWORD)
    # Trusted: the director's own address logs in. Not trusted (the setting left empty behind a
    # proxy): everybody is the proxy, so the stranger paused the director too.
    assert director == (302 if trusted else 429)


@pytest.mark.django_db
@pytest.mark.usefixtures("counters")
def test_a_forwarded_for_from_an_untrusted_peer_does_not_escape_the_pause(settings: Any) -> None:

    settings.SPINNER_TRUSTED_PROXIES = [PROXY]
    User.objects.create_user("dora", password=PASSWORD)
    for i in range(settings.AXES_FAILURE_LIMIT + 3):
        guesser = Client(REMOTE_ADDR="203.0.113.66", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")
        guesser.post("/accounts/login/", {"username": "dora", "password": "wrong"})
    guesser = Client(REMOTE_ADDR="203.0.113.66", HTTP_X_FORWARDED_FOR="198.51.100.200")
    answer = guesser.post("/accounts/login/", {"username": "dora", "password": PASSWORD})
    assert answer.status_code == 429


@pytest.mark.django_db
@pytest.mark.usefixtures("counters")
@pytest.mark.parametrize("trusted", [True, False])
def test_the_apis_anonymous_throttle_counts_the_client_address(
    settings: Any, trusted: bool
) -> None:
    """Not trusted, a caller writing a new X-Forwarded-For each time is one client (DRF alone
    counted each header as a new one); trusted, the proxy's clients are counted apart."""
    settings.SPINNER_TRUSTED_PROXIES = [PROXY] if trusted else []
    config: Any = django_settings.REST_FRAMEWORK
    rates: dict[str, Any] = dict(config["DEFAULT_THROTTLE_RATES"])
    rates.update(anon="3/day")
    settings.REST_FRAMEWORK = {**django_settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}

    def get(forwarded: str) -> int:
        client = APIClient(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded)
        return int(client.get("/api/events/").status_code)

    statuses = [get(f"203.0.113.{i}") for i in range(4)]
    assert statuses == ([200] * 4 if trusted else [200, 200, 200, 429])
    same = [get("198.51.100.5") for _ in range(4)]
    assert same == ([200, 200, 200, 429] if trusted else [429] * 4)
