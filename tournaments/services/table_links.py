"""Table links: the private link that lets one side of a table enter its match's result with
no account.

Each partnership (or player) at a table holds its own link, so that one phone can never both
claim a result and confirm it for the other side. A link is ``/t/<token>/`` with::

    token = "<round id>.<table number>.<side>.<mac>"

``side`` is ``0`` (side A, the match's first entry) or ``1`` (side B, its second); at a table of
many (``Match.table_entries`` 3 or 4: individual players at tables of three or four) it is the
seat, ``0`` to ``3``, and each player holds the link of their own seat. A seat the table does not
have (seat 3 at a table of three, seat 2 head to head) is refused as invalid. The numbers
only say where to look; the ``mac`` is the secret part: ``HMAC-SHA256`` (keyed with the project's
``SECRET_KEY`` and the round's ``link_secret``) over the round id, the table id AND the side, 256
bits in base64url. Changing the side digit of a link therefore gives an invalid link, not the
other side's. Nothing about a token is stored: it is derived again on every request and compared
in constant time, so printing a table's card again gives the same links, and a database dump
alone (without ``SECRET_KEY``) gives no link.

A side's link claims only as its side and confirms only the other side's claim
(``not_your_side``, 403, otherwise); a seat's link claims only as its seat and confirms only
another seat's claim. Idempotency keys and throttles count per side (seat) link. The
table-wide links of earlier versions (``<round id>.<table number>.<mac>``) are refused as
invalid: cards printed before the upgrade for a round still open must be printed again.

A link is revoked by rotating its round's ``link_secret`` (every link of that round dies at
once), is valid only while the round is published or in play (it expires when the round
closes), and can act only on its own table's match in that round. Once the round is closed, the
phone's page may still read its table's final result through the link (``closed_ok``): a
play-off round closes itself the moment its last result is confirmed, and that table's phones
must show the result, not a dead link.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext

from tournaments import game
from tournaments.errors import NotAllowed, NotFound, ValidationFailed
from tournaments.models import Entry, Match, Round, RoundSeat, Table, new_salt
from tournaments.services import audit

LINK_ACTIVE_STATUSES = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)
# "<round id>.<table number>.<side>.<mac>": ASCII digits only (``str.isdigit`` also takes "²", which
# ``int`` refuses, and an unbounded run of digits trips Python's int-from-string limit), and the
# mac is exactly what ``_mac`` makes: 32 bytes in unpadded base64url, 43 characters.
_TOKEN = re.compile(r"([0-9]{1,12})\.([0-9]{1,6})\.([0-3])\.([A-Za-z0-9_-]{43})")
SIDES = (0, 1, 2, 3)  # a side, or a seat at a table of many (``Match.table_entries`` 3 or 4)


class TableLinkInvalid(NotAllowed):
    """The token is malformed, forged or revoked (one code for all: a guesser learns nothing)."""

    code = "table_link_invalid"
    status = 401


class TableLinkExpired(NotAllowed):
    """The token was good but its round is not open for entry (closed, or still a draft)."""

    code = "table_link_expired"
    status = 401


class NotYourSide(NotAllowed):
    """A side's link tried to act as the other side (claim as it, or confirm its own claim)."""

    code = "not_your_side"
    status = 403


@dataclass(frozen=True)
class TableAccess:
    """What a valid table link grants: entry for one side of one table of one round.

    ``side`` is 0 (side A) or 1 (side B), or at a table of many the seat (0 to 3); ``match`` is
    the table's match in that round as the token read it, with its round (and event), table and
    entries, so that a table's request on its own match needs no other read of it (None if the
    round has none there); ``seats``: how many sides or seats the table has (2, or 3 and 4 at a
    table of many).
    """

    round: Round
    table: Table
    side: int
    match: Match | None = field(repr=False)
    seats: int = 2

    @property
    def match_id(self) -> int | None:
        return self.match.pk if self.match is not None else None

    @property
    def scope(self) -> str:
        """A stable name for this client (idempotency keys and throttles are per side link)."""
        return f"table:{self.round.pk}:{self.table.pk}:{self.side}"

    @property
    def side_letter(self) -> str:
        return game.side_letter(self.side)

    def check_side(self, side: int) -> None:
        """Raise ``not_your_side`` unless ``side`` is this link's own side."""
        if side == self.side:
            return
        if self.seats > 2:
            message = gettext(
                "This is seat %(seat)s's link: it acts only for the player in seat %(seat)s. "
                "Each player at the table uses their own link."
            ) % {"seat": self.side_letter}
        else:
            message = gettext(
                "This is side %(side)s's link: it acts only for side %(side)s. The other side "
                "uses its own link."
            ) % {"side": self.side_letter}
        raise NotYourSide(message, details={"link_side": self.side, "side": side})

    @property
    def closed(self) -> bool:
        """The link's round is closed: its page shows the result, nothing more is entered."""
        return self.round.status == Round.Status.CLOSED

    def may_act_on(self, match: Match) -> bool:
        """True only for the table's own match in the link's round."""
        return match.round_id == self.round.pk and match.table_id == self.table.pk


def _mac(round_: Round, table: Table, side: int) -> str:
    digest = salted_hmac(
        f"spinner.table-link.{round_.link_secret}",
        f"{round_.pk}:{table.pk}:side{side}",
        algorithm="sha256",
    ).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def table_token(*, round_: Round, table: Table, side: int) -> str:
    """A side's token for this table and round (the same every time until the round's secret
    rotates)."""
    if table.event_id != round_.event_id:
        raise ValueError("the table and the round belong to different events")
    if side not in SIDES:
        raise ValueError(f"a side is 0 or 1 (a seat 0 to 3), not {side!r}")
    return f"{round_.pk}.{table.number}.{side}.{_mac(round_, table, side)}"


def table_link_path(*, round_: Round, table: Table, side: int) -> str:
    """A side's entry page path: ``/t/<token>/``."""
    return f"/t/{table_token(round_=round_, table=table, side=side)}/"


def table_link_url(*, round_: Round, table: Table, side: int) -> str:
    """A side's full entry URL, on ``settings.SPINNER_BASE_URL`` (default
    http://127.0.0.1:8000)."""
    base = getattr(settings, "SPINNER_BASE_URL", "http://127.0.0.1:8000").rstrip("/")
    return base + table_link_path(round_=round_, table=table, side=side)


def side_actor(match: Match, side: int) -> str:
    """How the audit log names a side that acted through its link: "table 7, side A (Team)"
    (at a table of many, the seat's letter: A to D)."""
    entry = match.entry_a if side == 0 else match.entry_b
    if side > 1:
        seat = RoundSeat.objects.filter(match=match, side=side).select_related("entry").first()
        entry = seat.entry if seat is not None else None
    where = f"table {match.table.number}" if match.table is not None else "no table"
    who = f" ({entry.name})" if entry is not None else ""
    return f"{where}, side {game.side_letter(side)}{who}"


def _invalid() -> str:
    """The one refusal of a bad link (malformed, forged, revoked, a seat the table lacks)."""
    return gettext("This table link is not valid; ask the director for a new one.")


def resolve_table_token(token: str, *, closed_ok: bool = False) -> TableAccess:
    """Check a token and say what it grants (its round, table and side).

    Raises ``TableLinkInvalid`` (malformed, unknown round or table, wrong mac, revoked) or
    ``TableLinkExpired`` (the round is not published or in play; ``closed_ok``: a closed round
    is let through, for reading its result only). Runs in a fixed two queries (round with
    event; the table's match with its table and entries), three for a table the round has no
    match at.
    """
    parsed = _TOKEN.fullmatch(token) if isinstance(token, str) else None
    if parsed is None:
        raise TableLinkInvalid(_invalid())
    round_id, number, side_digit, mac = parsed.groups()
    side = int(side_digit)
    # by key: the models' default orderings would join the event only to sort one row
    # ``explanation`` (how the round was paired: 200+ KB of JSON at 500 tables) is never read here
    round_ = (
        Round.objects.select_related("event")
        .defer("explanation")
        .filter(pk=int(round_id))
        .order_by("pk")
        .first()
    )
    if round_ is None:
        raise TableLinkInvalid(_invalid())
    # the table's match in the round, with its table and entries (a best-of match: the game
    # being played, the highest at the table); the table alone when the round has no match there
    match = (
        Match.objects.filter(round=round_, table__number=int(number))
        .select_related("table", "entry_a", "entry_b")
        .order_by("-game_no")
        .first()
    )
    if match is not None:
        match.round = round_  # read above, with its event
    table = (
        match.table
        if match is not None
        else Table.objects.filter(event_id=round_.event_id, number=int(number))
        .order_by("pk")
        .first()
    )
    if table is None or not constant_time_compare(_mac(round_, table, side), mac):
        raise TableLinkInvalid(_invalid())
    readable = closed_ok and round_.status == Round.Status.CLOSED
    if round_.status not in LINK_ACTIVE_STATUSES and not readable:
        raise TableLinkExpired(
            gettext("This round is not open for entry: table links work only while it is in play."),
            details={"round_status": round_.status},
        )
    seats = match.table_entries if match is not None else 2
    if side >= seats:  # seat 3 of a table of three (the mac was right for a seat it lacks)
        raise TableLinkInvalid(_invalid())
    return TableAccess(round=round_, table=table, side=side, match=match, seats=seats)


@transaction.atomic
def revoke_table_links(*, round_: Round, actor: User | AnonymousUser | None, reason: str) -> Round:
    """Rotate the round's link secret: every link of the round stops working at once.

    New links (``table_link_url``) work straight away. Recorded in the audit log.
    """
    if not reason.strip():
        raise ValidationFailed(gettext("Say why the links are revoked."), code="reason_required")
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    locked.link_secret = new_salt()
    locked.save(update_fields=["link_secret"])
    audit.record(
        event=locked.event,
        actor=actor,
        action="table_links.revoke",
        obj=locked,
        reason=reason,
    )
    round_.link_secret = locked.link_secret
    return locked


def find_table(*, round_: Round, number: int) -> Table:
    """The event's table by number (``NotFound`` if it has none)."""
    table = Table.objects.filter(event_id=round_.event_id, number=number).first()
    if table is None:
        raise NotFound(
            gettext("Table %(number)s does not exist in this event.") % {"number": number},
            code="table_not_found",
        )
    return table


def link_seats(matches: list[Match]) -> dict[int, list[tuple[int, Entry]]]:
    """Who holds each link of these matches: by match id, ``(side, entry)`` per side, side A
    first; at a table of many ``(seat, entry)`` per seat, seat order (its ``RoundSeat`` rows).
    The matches come with ``entry_a`` and ``entry_b`` selected; one query for the seats of the
    tables of many among them, none without one. A bye has no links."""
    many = [m.pk for m in matches if m.table_entries > 2]
    seated: dict[int, list[tuple[int, Entry]]] = {}
    if many:
        rows = RoundSeat.objects.filter(match_id__in=many).select_related("entry")
        for row in rows.order_by("match_id", "side"):
            seated.setdefault(row.match_id, []).append((row.side, row.entry))
    found: dict[int, list[tuple[int, Entry]]] = {}
    for match in matches:
        if match.table_entries > 2:
            found[match.pk] = seated.get(match.pk, [])
        elif match.entry_b is not None:
            found[match.pk] = [(0, match.entry_a), (1, match.entry_b)]
    return found
