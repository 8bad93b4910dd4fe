"""Which network addresses a director's webhook may reach: public ones only (issue 28).

One question, one answer: :func:`refusal` says why an address is not public ("" when it is),
and everything that calls out on a director's behalf asks it (:func:`check_host` for a URL's
host, which resolves the name once and returns the addresses to connect to, so the connection
goes to an address that was checked; ``pinned_http`` makes it).

Refused, whatever the spelling: loopback, private networks, link-local (a cloud's metadata
service), unspecified, multicast, reserved, carrier-grade NAT (100.64.0.0/10), benchmarking and
documentation ranges, IPv6 unique-local and site-local, IPv4-mapped (``::ffff:0:0/96``) and
IPv4-compatible (``::/96``) IPv6, Teredo (``2001::/32``), and NAT64 (``64:ff9b::/96``,
``64:ff9b:1::/48``) or 6to4 (``2002::/16``) addresses whose embedded IPv4 address is not public.
An IPv6 address outside global unicast (``2000::/3``) is refused as reserved. Python's own
``is_global`` is asked too, as a second opinion: an address either table refuses is refused.

A URL's host that is an IPv4 address in any spelling but four decimal numbers (``2130706433``,
``0x7f.1``, ``0177.0.0.1``, ``127.1``) is refused before any lookup: resolvers read those as
addresses, and a check that reads them differently is a hole.

No Django here: plain functions over ``ipaddress`` values, tested without a database.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address

IPAddress = IPv4Address | IPv6Address
Resolver = Callable[[str, int], Sequence[str]]
"""A DNS lookup: ``(host, port)`` to the addresses it answers, as text."""

_V4 = IPv4Network
_V6 = IPv6Network

_IPV4_REFUSED: tuple[tuple[IPv4Network, str], ...] = (
    (_V4("0.0.0.0/8"), "unspecified"),
    (_V4("10.0.0.0/8"), "private"),
    (_V4("100.64.0.0/10"), "carrier-grade NAT"),
    (_V4("127.0.0.0/8"), "loopback"),
    (_V4("169.254.0.0/16"), "link-local"),
    (_V4("172.16.0.0/12"), "private"),
    (_V4("192.0.0.0/24"), "reserved"),
    (_V4("192.0.2.0/24"), "documentation"),
    (_V4("192.88.99.0/24"), "reserved"),  # the old 6to4 relays
    (_V4("192.168.0.0/16"), "private"),
    (_V4("198.18.0.0/15"), "benchmarking"),
    (_V4("198.51.100.0/24"), "documentation"),
    (_V4("203.0.113.0/24"), "documentation"),
    (_V4("224.0.0.0/4"), "multicast"),
    (_V4("240.0.0.0/4"), "reserved"),  # and 255.255.255.255, the broadcast
)

_IPV6_REFUSED: tuple[tuple[IPv6Network, str], ...] = (
    (_V6("::/128"), "unspecified"),
    (_V6("::1/128"), "loopback"),
    (_V6("::ffff:0:0/96"), "IPv4-mapped"),
    (_V6("::/96"), "IPv4-compatible"),
    (_V6("100::/64"), "discard"),
    (_V6("2001::/32"), "Teredo"),
    (_V6("2001::/23"), "reserved"),
    (_V6("2001:db8::/32"), "documentation"),
    (_V6("3fff::/20"), "documentation"),
    (_V6("5f00::/16"), "reserved"),
    (_V6("fc00::/7"), "private"),  # unique-local
    (_V6("fe80::/10"), "link-local"),
    (_V6("fec0::/10"), "site-local"),
    (_V6("ff00::/8"), "multicast"),
)

_GLOBAL_UNICAST = _V6("2000::/3")
_NAT64 = _V6("64:ff9b::/96")
_NAT64_LOCAL = _V6("64:ff9b:1::/48")
_SIX_TO_FOUR = _V6("2002::/16")

_NUMERIC_LABEL = re.compile(r"(0x[0-9a-f]*|[0-9]+)")


def parse(text: str) -> IPAddress | None:
    """The address ``text`` spells (an IPv6 zone such as ``%eth0`` dropped), or None."""
    try:
        return ip_address(text.split("%", 1)[0])
    except ValueError:
        return None


def refusal(address: IPAddress) -> str:
    """Why ``address`` is not public ("loopback", "private", "NAT64 of 127.0.0.1, loopback"...),
    or "" when it is.

    >>> refusal(ip_address("8.8.8.8")), refusal(ip_address("100.64.0.1"))
    ('', 'carrier-grade NAT')
    >>> refusal(ip_address("64:ff9b::7f00:1"))
    'NAT64 of 127.0.0.1, loopback'
    """
    if isinstance(address, IPv4Address):
        return _ipv4_refusal(address)
    embedded = _embedded_ipv4(address)
    if embedded is not None:
        form, inner = embedded
        why = _ipv4_refusal(inner)
        return f"{form} of {inner}, {why}" if why else ""
    for network, kind in _IPV6_REFUSED:
        if address in network:
            return kind
    if address not in _GLOBAL_UNICAST:
        return "reserved"
    return "" if _python_says_global(address) else "not public"


def is_public(address: IPAddress) -> bool:
    """True when a webhook may connect to ``address`` (see :func:`refusal`)."""
    return not refusal(address)


def _ipv4_refusal(address: IPv4Address) -> str:
    for network, kind in _IPV4_REFUSED:
        if address in network:
            return kind
    return "" if _python_says_global(address) else "not public"


def _python_says_global(address: IPAddress) -> bool:
    flags = (address.is_multicast, address.is_reserved, address.is_unspecified)
    return address.is_global and not any(flags)


def _embedded_ipv4(address: IPv6Address) -> tuple[str, IPv4Address] | None:
    """The IPv4 address a NAT64 (RFC 6052) or 6to4 (RFC 3056) address carries, with the form's
    name; None for any other address."""
    packed = address.packed
    if address in _NAT64:
        return "NAT64", IPv4Address(packed[12:16])
    if address in _NAT64_LOCAL:  # a /48 prefix: bits 48-63 and 72-87 (bits 64-71 are zero)
        return "NAT64", IPv4Address(packed[6:8] + packed[9:11])
    if address in _SIX_TO_FOUR:
        return "6to4", IPv4Address(packed[2:6])
    return None


def spelling_problem(host: str) -> str:
    """What is wrong with a URL's ``host`` that spells an IPv4 address other than as four
    decimal numbers (decimal ``2130706433``, hex ``0x7f.0.0.1``, octal ``0177.0.0.1``, short
    ``127.1``), or "". A name's last label is never all digits, so such a host is an address.

    >>> spelling_problem("2130706433"), spelling_problem("hooks.example.org")
    ('an IPv4 address must be written as four decimal numbers, such as 203.0.113.7', '')
    """
    host = host.lower()
    if ":" in host or not _NUMERIC_LABEL.fullmatch(host.rstrip(".").rsplit(".", 1)[-1]):
        return ""
    try:
        if str(IPv4Address(host)) == host:
            return ""
    except ValueError:
        pass
    return "an IPv4 address must be written as four decimal numbers, such as 203.0.113.7"


def system_resolver(host: str, port: int) -> list[str]:
    """The system's DNS lookup (``getaddrinfo``), its addresses in the order it gave them."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return list(dict.fromkeys(str(sockaddr[0]) for *_, sockaddr in found))


@dataclass(frozen=True)
class Checked:
    """A host looked up once: the addresses to connect to (every one checked), or why not."""

    addresses: tuple[str, ...] = ()
    refused: str = ""


def check_host(
    host: str,
    port: int,
    *,
    resolve: Resolver = system_resolver,
    trusted: bool = False,
    allow: Collection[str] = (),
) -> Checked:
    """Look ``host`` up once and check every address it answers: all must be public (one private
    answer refuses the host: a client could pick it). ``trusted`` (an operator's allow-listed
    host) skips the check but still pins the addresses; ``allow`` names addresses to take as
    public, for tests only (a test cannot reach the internet, so a loopback address plays the
    public receiver). The error texts go to the delivery log."""
    problem = spelling_problem(host)
    if problem:
        return Checked(refused=f"Refused: the endpoint's host {host!r}: {problem}.")
    literal = parse(host)
    try:
        answers = [host] if literal is not None else list(resolve(host, port))
    except (OSError, UnicodeError) as exc:
        return Checked(refused=f"The endpoint's host {host!r} was not found: {exc}")
    parsed = [parse(answer) for answer in answers]
    addresses = [address for address in parsed if address is not None]
    if not addresses or len(addresses) != len(parsed):
        return Checked(refused=f"The endpoint's host {host!r} gave no usable address: {answers}")
    for address in addresses:
        why = "" if trusted or str(address) in allow else refusal(address)
        if why:
            return Checked(
                refused=f"Refused: the endpoint's host resolves to {address}, which is not a "
                f"public address ({why}); deliveries go only to public addresses."
            )
    return Checked(addresses=tuple(str(a) for a in addresses))
