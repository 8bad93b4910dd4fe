"""Which addresses a webhook may reach (``tournaments.public_addresses``, issue 28): every form
of a non-public address refused, table by table, the public ones let through, the IPv4
spellings resolvers read as addresses refused, and a host's answers checked all at once. No
database: plain functions over addresses (the lookup is a test double for DNS)."""

from __future__ import annotations

import doctest
from ipaddress import ip_address

import pytest

from tournaments import public_addresses
from tournaments.public_addresses import check_host, is_public, parse, refusal, spelling_problem

REFUSED = [
    # IPv4
    ("127.0.0.1", "loopback"),
    ("127.255.255.254", "loopback"),
    ("10.1.2.3", "private"),
    ("172.16.0.1", "private"),
    ("172.31.255.255", "private"),
    ("192.168.1.1", "private"),
    ("169.254.169.254", "link-local"),  # a cloud's metadata service
    ("0.0.0.0", "unspecified"),
    ("0.1.2.3", "unspecified"),
    ("100.64.0.1", "carrier-grade NAT"),
    ("100.127.255.254", "carrier-grade NAT"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast"),
    ("240.0.0.1", "reserved"),
    ("255.255.255.255", "reserved"),
    ("192.0.0.8", "reserved"),
    ("192.88.99.1", "reserved"),
    ("198.18.0.1", "benchmarking"),
    ("192.0.2.7", "documentation"),
    ("198.51.100.7", "documentation"),
    ("203.0.113.7", "documentation"),
    # IPv6
    ("::1", "loopback"),
    ("::", "unspecified"),
    ("fe80::1", "link-local"),
    ("fe80::1%eth0", "link-local"),
    ("fc00::1", "private"),
    ("fd12:3456::1", "private"),
    ("fec0::1", "site-local"),
    ("ff02::1", "multicast"),
    ("ff0e::1", "multicast"),
    ("100::1", "discard"),
    ("2001:db8::1", "documentation"),
    ("3fff::1", "documentation"),
    ("5f00::1", "reserved"),
    ("4000::1", "reserved"),  # outside global unicast
    ("::ffff:127.0.0.1", "IPv4-mapped"),
    ("::ffff:8.8.8.8", "IPv4-mapped"),  # refused whatever it maps
    ("::ffff:0:0", "IPv4-mapped"),
    ("::127.0.0.1", "IPv4-compatible"),
    ("::8.8.8.8", "IPv4-compatible"),
    ("2001::1", "Teredo"),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"),
    ("2001:2::1", "reserved"),  # benchmarking, in the IETF's 2001::/23
    # NAT64, the well-known /96 and the local-use /48, carrying a non-public IPv4 address
    ("64:ff9b::7f00:1", "NAT64 of 127.0.0.1, loopback"),
    ("64:ff9b::127.0.0.1", "NAT64 of 127.0.0.1, loopback"),
    ("64:ff9b::a9fe:a9fe", "NAT64 of 169.254.169.254, link-local"),
    ("64:ff9b::a00:1", "NAT64 of 10.0.0.1, private"),
    ("64:ff9b::6440:1", "NAT64 of 100.64.0.1, carrier-grade NAT"),
    ("64:ff9b:1:7f00:0:100::", "NAT64 of 127.0.0.1, loopback"),
    ("64:ff9b:1:c0a8:1:100::", "NAT64 of 192.168.1.1, private"),
    # 6to4 carrying a non-public IPv4 address
    ("2002:7f00:1::1", "6to4 of 127.0.0.1, loopback"),
    ("2002:a00:1::", "6to4 of 10.0.0.1, private"),
    ("2002:a9fe:a9fe::1", "6to4 of 169.254.169.254, link-local"),
    ("2002:c0a8:101::1", "6to4 of 192.168.1.1, private"),
]

PUBLIC = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "100.63.255.255",  # just below carrier-grade NAT
    "100.128.0.0",  # just above
    "172.32.0.1",  # just above 172.16.0.0/12
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "2620:fe::fe",
    "64:ff9b::808:808",  # NAT64 of 8.8.8.8
    "64:ff9b:1:808:8:800::",  # local-use NAT64 of 8.8.8.8
    "2002:808:808::1",  # 6to4 of 8.8.8.8
]


@pytest.mark.parametrize(("text", "why"), REFUSED)
def test_each_form_of_a_non_public_address_is_refused(text: str, why: str) -> None:
    address = parse(text)
    assert address is not None, text
    assert refusal(address) == why
    assert not is_public(address)


@pytest.mark.parametrize("text", PUBLIC)
def test_public_addresses_are_let_through(text: str) -> None:
    address = ip_address(text)
    assert refusal(address) == "" and is_public(address)


@pytest.mark.parametrize(
    "host",
    [
        "2130706433",  # 127.0.0.1 in decimal
        "0x7f000001",  # in hex
        "0x7F.0.0.1",
        "0x7f.1",
        "0177.0.0.1",  # in octal
        "017700000001",
        "127.1",  # the short form
        "127.0.1",
        "010.0.0.1",
        "134744072",  # 8.8.8.8 in decimal: refused too, whatever it means
        "1.2.3.0x4",
        "127.0.0.1.",  # a trailing dot
        "08.8.8.8",
    ],
)
def test_an_ipv4_address_spelled_otherwise_than_four_decimals_is_refused(host: str) -> None:
    assert spelling_problem(host) != ""
    checked = check_host(host, 80, resolve=lambda h, p: pytest.fail("no lookup for a spelling"))
    assert checked.addresses == () and "four decimal numbers" in checked.refused


@pytest.mark.parametrize(
    "host",
    ["8.8.8.8", "hooks.example.org", "1password.com", "a.b.c-1", "::ffff:127.0.0.1", "x.0y"],
)
def test_names_and_canonical_addresses_are_no_spelling_problem(host: str) -> None:
    assert spelling_problem(host) == ""


def test_every_answer_of_a_lookup_is_checked_and_the_host_is_looked_up_once() -> None:
    asked: list[tuple[str, int]] = []

    def dns(answers: list[str]) -> public_addresses.Resolver:
        def resolve(host: str, port: int) -> list[str]:
            asked.append((host, port))
            return answers

        return resolve

    good = check_host("hooks.example.org", 443, resolve=dns(["93.184.215.14", "2620:fe::fe"]))
    assert good.addresses == ("93.184.215.14", "2620:fe::fe") and good.refused == ""
    assert asked == [("hooks.example.org", 443)]
    # One private answer among public ones refuses the host: a client could pick it.
    mixed = check_host("hooks.example.org", 443, resolve=dns(["93.184.215.14", "127.0.0.1"]))
    assert mixed.addresses == ()
    assert "resolves to 127.0.0.1, which is not a public address (loopback)" in mixed.refused
    nat64 = check_host("hooks.example.org", 443, resolve=dns(["64:ff9b::7f00:1"]))
    assert "NAT64 of 127.0.0.1, loopback" in nat64.refused
    assert check_host("x.example", 443, resolve=dns([])).refused.startswith(
        "The endpoint's host 'x.example' gave no usable address"
    )


def test_a_literal_address_is_not_looked_up_and_is_checked() -> None:
    def no_lookup(host: str, port: int) -> list[str]:
        raise AssertionError("an address is not looked up")

    assert check_host("8.8.8.8", 443, resolve=no_lookup).addresses == ("8.8.8.8",)
    assert check_host("::ffff:127.0.0.1", 443, resolve=no_lookup).refused.endswith(
        "not a public address (IPv4-mapped); deliveries go only to public addresses."
    )


def test_a_host_not_found_says_so() -> None:
    def not_found(host: str, port: int) -> list[str]:
        raise OSError(-2, "Name or service not known")

    checked = check_host("nowhere.example", 443, resolve=not_found)
    assert checked.addresses == ()
    assert checked.refused == (
        "The endpoint's host 'nowhere.example' was not found: [Errno -2] Name or service not known"
    )


def test_trusted_hosts_and_test_allowances_are_still_pinned() -> None:
    loopback = lambda host, port: ["127.0.0.1"]  # noqa: E731
    assert check_host("localhost", 80, resolve=loopback, trusted=True).addresses == ("127.0.0.1",)
    allowed = check_host("rebind.example", 80, resolve=loopback, allow={"127.0.0.1"})
    assert allowed.addresses == ("127.0.0.1",)
    assert check_host("rebind.example", 80, resolve=loopback, allow={"127.0.0.2"}).refused


def test_the_system_resolver_answers_addresses_once_each() -> None:
    found = public_addresses.system_resolver("localhost", 80)
    assert found and len(found) == len(set(found))
    assert all(parse(a) is not None and parse(a).is_loopback for a in found)  # type: ignore[union-attr]


def test_the_documented_examples_hold() -> None:
    result = doctest.testmod(public_addresses)
    assert result.attempted >= 3 and result.failed == 0
