"""Table cards and the pairings sheet of a round: what the director prints and lays on the tables.

A *table card* is one sheet per table per round: the event, the round, the table, the match (side
A against side B), the seats (seats 0 and 2 are side A's players, 1 and 3 side B's; head to head,
seat 0 is side A, seat 1 side B), and two QR codes, one per side, each named by its team ("Scan
if you are <team>"): each side's private entry link, with the link in text under it. A side's
link claims only for that side and confirms only the other side's claim, so each partnership
scans its own. The *pairings sheet* lists every match of the round (byes last), with both links
when the director asks for them.

Reading only: nothing here writes. ``table_cards`` and ``pairings_rows`` run a fixed number of
queries whatever the round's size. QR codes are SVG (the ``qrcode`` package's path factory), so
they print sharp at any size and need no image files.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import qrcode
import qrcode.constants
import qrcode.image.svg
from django.utils.html import escape
from django.utils.translation import gettext

from tournaments import game
from tournaments.models import Entry, EntryPlayer, Event, Match, Round
from tournaments.services.table_links import link_seats


@dataclass(frozen=True)
class Seat:
    """One chair at a table: its number (0..3, clockwise), its side (``"A"`` or ``"B"``) and who
    sits there (empty when the entry's players are not known; ``player_id`` None then)."""

    number: int
    side: str
    player: str
    player_id: int | None = None


Players = dict[int, list[tuple[int, str]]]
"""An entry id -> its players as ``(player id, name)``, in the entry's own order."""


@dataclass(frozen=True)
class SideLink:
    """One side's entry link: ``side`` is ``"A"`` or ``"B"``, ``team`` its entry's name, ``url``
    the absolute link and ``qr_svg`` (on a card) the QR code of exactly that link."""

    side: str
    team: str
    url: str
    qr_svg: str = ""


UrlFor = Callable[[Match, int], str]
"""``url_for(match, side)``: the absolute entry link of that side of the match's table."""


@dataclass(frozen=True)
class TableCard:
    """Everything printed on one table card; ``links`` holds side A's link then side B's (at a
    table of many, ``many``: every seat's link, seat order, named by its player)."""

    event: str
    round_number: int
    table_number: int
    side_a: str
    side_b: str
    seats: tuple[Seat, ...]
    links: tuple[SideLink, ...]
    first_leader: Seat | None = None
    # a table of many (3 or 4 individual players): a link per seat, named by its player
    many: bool = False


@dataclass(frozen=True)
class PairingRow:
    """One line of the pairings sheet: a match at a table, or a bye (``table_number`` None)."""

    table_number: int | None
    side_a: str
    side_b: str
    seats: tuple[Seat, ...] = field(default=())
    is_bye: bool = False
    links: tuple[SideLink, ...] = field(default=())
    many: bool = False

    @property
    def seats_a(self) -> tuple[Seat, ...]:
        """Side A's seats (0 and 2; head to head, 0)."""
        return tuple(s for s in self.seats if s.side == "A")

    @property
    def seats_b(self) -> tuple[Seat, ...]:
        """Side B's seats (1 and 3; head to head, 1)."""
        return tuple(s for s in self.seats if s.side == "B")


def qr_svg(data: str) -> str:
    """The QR code of ``data`` as an inline SVG element (one unit per module, a 4-module quiet
    zone, medium error correction), sized by CSS (``width``/``height`` attributes removed), with
    no element id (a sheet prints many codes: no id may repeat).

    >>> svg = qr_svg("https://example.org/t/abc/")
    >>> svg.startswith("<svg") and 'viewBox="0 0 ' in svg and " id=" not in svg
    True
    """
    code = qrcode.QRCode(
        error_correction=qrcode.constants.ERROR_CORRECT_M,
        border=4,
        image_factory=qrcode.image.svg.SvgPathImage,
    )
    code.add_data(data)
    code.make(fit=True)
    image = code.make_image()
    text = image.to_string(encoding="unicode")
    assert isinstance(text, str)
    # Drop the fixed millimetre size: the print CSS sizes the code; the viewBox keeps its shape.
    text = re.sub(r'\s(width|height)="[^"]*mm"', "", text, count=2)
    # The package names its path ``id="qr-path"``: a page of many codes would repeat that id.
    text = text.replace(' id="qr-path"', "")
    label = escape(gettext("QR code of the link"))
    return text.replace("<svg ", f'<svg role="img" class="qr" aria-label="{label}" ', 1)


def seats_for(
    match: Match,
    players: Players,
    *,
    head_to_head: bool,
    seated: list[tuple[int, Entry]] | None = None,
) -> tuple[Seat, ...]:
    """The seats of a match in clockwise order (see ``Players``).

    Partnerships: seat 0 = side A's first player, 1 = side B's first, 2 = side A's second,
    3 = side B's second. Head to head: seat 0 = side A, seat 1 = side B. A table of many
    (``Match.table_entries`` 3 or 4): ``seated``, each seat's entry (``table_links.link_seats``),
    one player each, the seat's letter (A to D) as its side.
    """
    if match.table_entries > 2:
        found = []
        for number, entry in seated or []:
            names = players.get(entry.pk, [])
            player, player_id = (names[0][1], names[0][0]) if names else (entry.name, None)
            found.append(Seat(number, game.side_letter(number), player, player_id))
        return tuple(found)
    a = players.get(match.entry_a_id, [])
    b = players.get(match.entry_b_id, []) if match.entry_b_id else []

    def seat(number: int, side: str, names: list[tuple[int, str]], i: int, fallback: str) -> Seat:
        if i < len(names):
            return Seat(number, side, names[i][1], names[i][0])
        return Seat(number, side, fallback)

    if head_to_head:
        return (
            seat(0, "A", a, 0, match.entry_a.name),
            seat(1, "B", b, 0, match.entry_b.name if match.entry_b else ""),
        )
    return (
        seat(0, "A", a, 0, ""),
        seat(1, "B", b, 0, ""),
        seat(2, "A", a, 1, ""),
        seat(3, "B", b, 1, ""),
    )


def first_leader(match: Match, seats: tuple[Seat, ...]) -> Seat | None:
    """The seat of the first hand's leader, as the round's draw chose it by lot (recorded in
    the match's explanation by the rounds service), or None where no draw is recorded."""
    drawn = match.explanation.get("first_leader") if isinstance(match.explanation, dict) else None
    player = drawn.get("player") if isinstance(drawn, dict) else None
    for seat in seats:
        if player is not None and seat.player_id == player:
            return seat
    return None


def players_by_entry(event: Event, entry_ids: set[int]) -> Players:
    """Each entry's players in the entry's order: the partnership's player A then B, or the
    single player; falls back to the EntryPlayer rows. One query for entries, one for rows."""
    found: Players = {}
    entries = Entry.objects.filter(pk__in=entry_ids).select_related(
        "partnership__player_a", "partnership__player_b", "player"
    )
    for entry in entries:
        if entry.partnership_id is not None and entry.partnership is not None:
            pa, pb = entry.partnership.player_a, entry.partnership.player_b
            found[entry.pk] = [(pa.pk, pa.name), (pb.pk, pb.name)]
        elif entry.player is not None:
            found[entry.pk] = [(entry.player.pk, entry.player.name)]
    missing = entry_ids - set(found)
    if missing:
        for row in (
            EntryPlayer.objects.filter(event=event, entry_id__in=missing)
            .select_related("player")
            .order_by("pk")
        ):
            found.setdefault(row.entry_id, []).append((row.player.pk, row.player.name))
    return found


def _matches(round_: Round) -> list[Match]:
    # a best-of match's table has one card: game 1 (its links open whichever game is in play)
    return list(
        Match.objects.filter(round=round_, game_no=1)
        .select_related("table", "entry_a", "entry_b")
        .order_by("is_bye", "table__number", "pk")
    )


def side_links(
    match: Match,
    url_for: UrlFor,
    *,
    with_qr: bool,
    seated: list[tuple[int, Entry]] | None = None,
) -> tuple[SideLink, ...]:
    """Side A's and side B's entry links of a match at a table (with their QR codes if asked);
    at a table of many, one per seat (``seated``: each seat's entry), named by its player."""
    holders = seated if match.table_entries > 2 else None
    if holders is None:
        assert match.entry_b is not None
        holders = [(0, match.entry_a), (1, match.entry_b)]
    found = []
    for side, entry in holders:
        url = url_for(match, side)
        found.append(
            SideLink(game.side_letter(side), entry.name, url, qr_svg(url) if with_qr else "")
        )
    return tuple(found)


def table_cards(round_: Round, *, url_for: UrlFor) -> list[TableCard]:
    """One card per table of the round, in table order (byes get no card).

    ``url_for(match, side)`` gives the absolute entry link of that side of the match's table (the
    table links service derives the token; the view makes it absolute for the request's host).
    """
    event = round_.event
    matches = [m for m in _matches(round_) if not m.is_bye and m.table is not None]
    seated = link_seats(matches)
    players = players_by_entry(event, _entry_ids(matches, seated))
    h2h = event.entry_kind == Event.EntryKind.SINGLE
    cards = []
    for match in matches:
        assert match.table is not None and match.entry_b is not None
        here = seated.get(match.pk, [])
        seats = seats_for(match, players, head_to_head=h2h, seated=here)
        cards.append(
            TableCard(
                event=event.name,
                round_number=round_.number,
                table_number=match.table.number,
                side_a=match.entry_a.name,
                side_b=match.entry_b.name,
                seats=seats,
                links=side_links(match, url_for, with_qr=True, seated=here),
                first_leader=first_leader(match, seats),
                many=match.table_entries > 2,
            )
        )
    return cards


CARDS_PER_PAGE = 4
"""Table cards on one printed A4 page (two columns of two: each card an A6-like quarter)."""


def pages(found: list[TableCard], size: int = CARDS_PER_PAGE) -> list[list[TableCard]]:
    """The cards in printed pages of ``size``, in table order.

    >>> pages(list("abcde"), 4)
    [['a', 'b', 'c', 'd'], ['e']]
    """
    return [found[i : i + size] for i in range(0, len(found), size)]


def _entry_ids(matches: list[Match], seated: dict[int, list[tuple[int, Entry]]]) -> set[int]:
    """Every entry at these matches' tables (every seat of a table of many)."""
    ids = {m.entry_a_id for m in matches} | {m.entry_b_id for m in matches if m.entry_b_id}
    return ids | {entry.pk for seats in seated.values() for _, entry in seats}


def pairings_rows(round_: Round, *, url_for: UrlFor | None = None) -> list[PairingRow]:
    """Every match of the round for the pairings sheet: tables in order, then the byes; with
    ``url_for`` each table's row carries both sides' links."""
    event = round_.event
    matches = _matches(round_)
    seated = link_seats([m for m in matches if not m.is_bye])
    players = players_by_entry(event, _entry_ids(matches, seated))
    h2h = event.entry_kind == Event.EntryKind.SINGLE
    rows = []
    for match in matches:
        if match.is_bye or match.table is None or match.entry_b is None:
            rows.append(PairingRow(None, match.entry_a.name, "", is_bye=True))
            continue
        here = seated.get(match.pk, [])
        links = (
            side_links(match, url_for, with_qr=False, seated=here) if url_for is not None else ()
        )
        rows.append(
            PairingRow(
                match.table.number,
                match.entry_a.name,
                match.entry_b.name,
                seats_for(match, players, head_to_head=h2h, seated=here),
                links=links,
                many=match.table_entries > 2,
            )
        )
    return rows
