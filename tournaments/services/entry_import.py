"""Importing entries from CSV: preview every line (what would be created, what is wrong), then
import them all in one transaction through the entries service, or none.

Error codes: ``import_invalid`` (``details["errors"]`` lists ``{line, message}``), and the
entries service's own (``tournaments.services.entries``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from tournaments import csv_safety
from tournaments.errors import ValidationFailed
from tournaments.import_headers import read_header
from tournaments.models import Entry, EntryPlayer, Event, Player
from tournaments.search_keys import name_key
from tournaments.services.audit import record
from tournaments.services.entries import (
    PlayerSpec,
    check_open_for_entries,
    clean,
    create_entry,
    lock_event,
)

PARTNERSHIP_COLUMNS = (
    "player_a",
    "club_a",
    "rating_a",
    "player_b",
    "club_b",
    "rating_b",
    "team",
    "seed",
)


SINGLE_COLUMNS = ("player", "club", "rating", "seed")


MAX_IMPORT_LINES = 2000


def import_columns(event: Event) -> tuple[str, ...]:
    """The CSV columns for this event's kind of entry, in their positional order."""
    if event.entry_kind == Event.EntryKind.PARTNERSHIP:
        return PARTNERSHIP_COLUMNS
    return SINGLE_COLUMNS


@dataclass
class ImportRow:
    """One valid CSV line: the entry it will create."""

    line: int
    players: list[PlayerSpec]
    team_name: str
    seed: int | None
    existing: list[bool] = field(default_factory=list)  # per player: reuses a known player
    # Per player: a known player whose name and club match once folded (accents, case and
    # spacing aside: "Jose Ramirez" and "José Ramírez"), offered instead of a new row.
    offers: list[Player | None] = field(default_factory=list)

    @property
    def people(self) -> list[tuple[PlayerSpec, bool]]:
        """Each player with whether a known player (same name and club) is reused."""
        return list(zip(self.players, self.existing, strict=True))

    @property
    def people_offers(self) -> list[tuple[PlayerSpec, bool, Player | None, str]]:
        """Each player, whether a known player is reused, the offered player and the key the
        director's acceptance carries (``reuse`` of :func:`import_entries`)."""
        offers = self.offers or [None] * len(self.players)
        return [
            (spec, known, offer, self.offer_key(i))
            for i, (spec, known, offer) in enumerate(
                zip(self.players, self.existing, offers, strict=True)
            )
        ]

    def offer_key(self, index: int) -> str:
        return f"{self.line}:{index}"


@dataclass
class ImportProblem:
    line: int
    message: str


@dataclass
class ImportPreview:
    """What an import would create, or why it cannot: nothing is written by ``preview_import``."""

    columns: tuple[str, ...]
    rows: list[ImportRow] = field(default_factory=list)
    errors: list[ImportProblem] = field(default_factory=list)
    # Lines importable as they are, but worth a look (cells that start like formulas).
    warnings: list[ImportProblem] = field(default_factory=list)
    # The header row as read: each cell typed and the column it was read as (None: none), and
    # its line; no header line when the first line named no column (then it is data).
    header: list[tuple[str, str | None]] = field(default_factory=list)
    header_line: int | None = None
    separator: str = ","

    @property
    def header_found(self) -> bool:
        return self.header_line is not None

    @property
    def separator_label(self) -> str:
        if self.separator == ";":
            return gettext("Separator: semicolon.")
        if self.separator == "\t":
            return gettext("Separator: tab.")
        return gettext("Separator: comma.")

    @property
    def ok(self) -> bool:
        return not self.errors and bool(self.rows)


def separator_of(text: str) -> str:
    """The separator of a CSV: whichever of comma, semicolon and tab its first filled line holds
    most (a comma on a tie): ``Player 1;Club 1`` and tab-separated pastes from a spreadsheet.

    >>> separator_of("Player 1;Club 1;Player 2"), separator_of("a\\tLeeds, West\\tb") == "\\t"
    (';', True)
    """
    first = next((line for line in text.lstrip("\ufeff").splitlines() if line.strip()), "")
    counts = {candidate: first.count(candidate) for candidate in (",", ";", "\t")}
    best = max(counts, key=lambda c: counts[c])
    return best if counts[best] > counts[","] else ","


def _read_csv(text: str) -> list[tuple[int, list[str]]]:
    """Lines with their 1-based line numbers: BOM dropped, cells trimmed, blank lines skipped."""
    text = text.lstrip("\ufeff")
    delimiter = separator_of(text)
    # newline=None: CR-only line ends (Excel for Mac) and CRLF read as line ends too.
    reader = csv.reader(io.StringIO(text, newline=None), delimiter=delimiter, skipinitialspace=True)
    lines: list[tuple[int, list[str]]] = []
    for cells in reader:
        cleaned = [c.strip() for c in cells]
        if not any(cleaned) or cleaned[0].startswith("#"):
            continue
        lines.append((reader.line_num, cleaned))
    return lines


def _int_cell(value: str, column: str, problems: list[str], *, minimum: int) -> int | None:
    if not value:
        return None
    try:
        number = int(value)
    except ValueError:
        problems.append(
            gettext("%(column)s must be a whole number, not %(value)r")
            % {"column": column, "value": value}
        )
        return None
    if number < minimum:
        problems.append(
            gettext("%(column)s must be at least %(minimum)s, not %(number)s")
            % {"column": column, "minimum": minimum, "number": number}
        )
        return None
    return number


def preview_import(*, event: Event, text: str) -> ImportPreview:
    """Parse and check a CSV of entries without writing anything.

    Format: one entry per line; ``import_columns(event)`` in that order, or any order under a
    header row naming them (``tournaments.import_headers``: "Player 1", "Jugador 2", "Club 1",
    any case; the preview says which header it read as what, or that it found none).
    Optional cells may be empty (club, rating, team, seed). Every line is checked: names present,
    numbers whole, partners different, no player twice in the file or already in the event, no
    seed twice. Each problem is reported with its line number and what to fix.
    """
    columns = import_columns(event)
    preview = ImportPreview(columns=columns, separator=separator_of(text))
    lines = _read_csv(text)
    preview.warnings = [ImportProblem(n, m) for n, m in csv_safety.formula_warnings(lines)]
    if _refuse_garbled(lines, preview):
        return preview
    order, lines = _column_order(lines, columns, preview)
    if order is None:
        return preview
    if not lines:
        preview.errors.append(
            ImportProblem(1, gettext("No entries found: paste at least one line."))
        )
        return preview
    if len(lines) > MAX_IMPORT_LINES:
        preview.errors.append(
            ImportProblem(
                1,
                gettext("Too many lines: import at most %(max)s at once.")
                % {"max": MAX_IMPORT_LINES},
            )
        )
        return preview
    context = _ImportContext.read(event, lines)
    for line, cells in lines:
        _check_line(line, cells, order, context, preview)
    return preview


def _refuse_garbled(lines: list[tuple[int, list[str]]], preview: ImportPreview) -> bool:
    """A NUL byte means the text is not the CSV it looks like (UTF-16 read as bytes, a binary
    file): say so per line (the first 20) instead of failing further down (PostgreSQL refuses
    NUL in text). True when the text was refused."""
    garbled = [line for line, cells in lines if any("\x00" in cell for cell in cells)]
    for line in garbled[:20]:
        preview.errors.append(
            ImportProblem(
                line,
                gettext(
                    "This line holds a NUL character: the file is not plain text CSV. Save it "
                    "as CSV (UTF-8) and upload it again, or paste the lines."
                ),
            )
        )
    return bool(garbled)


def _column_order(
    lines: list[tuple[int, list[str]]], columns: tuple[str, ...], preview: ImportPreview
) -> tuple[list[str] | None, list[tuple[int, list[str]]]]:
    """The columns' order: a header row's (then the lines after it), else ``columns``. None
    (with the problem in ``preview``) when the header names unknown columns, one column twice,
    or misses a player's name. The header as read goes to ``preview.header``."""
    mapped = read_header(lines[0][1], columns) if lines else None
    if mapped is None:
        return list(columns), lines
    header_line, header = lines[0]
    preview.header_line = header_line
    preview.header = list(zip(header, mapped, strict=True))
    unknown = [cell for cell, column in preview.header if cell and column is None]
    named = [column for column in mapped if column]
    twice = sorted({column for column in named if named.count(column) > 1})
    required = ("player_a", "player_b") if len(columns) > 4 else ("player",)
    missing = [c for c in required if c not in named]
    if unknown or missing or twice:
        what = []
        if unknown:
            what.append(gettext("unknown columns %(columns)s") % {"columns": ", ".join(unknown)})
        if twice:
            what.append(gettext("named twice: %(columns)s") % {"columns": ", ".join(twice)})
        if missing:
            what.append(gettext("missing columns %(columns)s") % {"columns": ", ".join(missing)})
        preview.errors.append(
            ImportProblem(
                header_line,
                gettext("Header: %(what)s. Use: %(columns)s.")
                % {"what": "; ".join(what), "columns": ", ".join(columns)},
            )
        )
        return None, lines
    return [column or "" for column in mapped], lines[1:]


@dataclass
class _ImportContext:
    """What the lines are checked against: the event's seeds and players, the players already
    known by name and club, what earlier lines used, and the player columns of one entry."""

    existing_seeds: set[int | None]
    entered: dict[tuple[str, str], str]
    known: set[tuple[str, str]]
    pairs: list[tuple[str, str, str]]
    similar: dict[str, list[Player]]
    seen_players: dict[tuple[str, str], int] = field(default_factory=dict)
    seen_seeds: dict[int, int] = field(default_factory=dict)

    @classmethod
    def read(cls, event: Event, lines: list[tuple[int, list[str]]]) -> _ImportContext:
        """Read the event's seeds and players, and the known players named in the lines."""
        existing_seeds = set(
            Entry.objects.filter(event=event, seed__isnull=False).values_list("seed", flat=True)
        )
        entered = {
            (name, club): entry
            for name, club, entry in EntryPlayer.objects.filter(event=event).values_list(
                "player__name", "player__club", "entry__name"
            )
        }
        typed_names = {clean(c) for _, cells in lines for c in cells}
        known = set(Player.objects.filter(name__in=typed_names).values_list("name", "club"))
        similar: dict[str, list[Player]] = {}
        in_event = EntryPlayer.objects.filter(event=event).values("player_id")
        for player in Player.objects.filter(
            name_key__in={name_key(c) for _, cells in lines for c in cells},
            merged_into__isnull=True,
        ).exclude(pk__in=in_event):
            similar.setdefault(player.name_key, []).append(player)
        pairs = [("player_a", "club_a", "rating_a"), ("player_b", "club_b", "rating_b")]
        if event.entry_kind != Event.EntryKind.PARTNERSHIP:
            pairs = [("player", "club", "rating")]
        return cls(existing_seeds, entered, known, pairs, similar)


def _check_line(
    line: int, cells: list[str], order: list[str], ctx: _ImportContext, preview: ImportPreview
) -> None:
    """Check one line: a row for the import when clean, else one problem naming every fault."""
    problems: list[str] = []
    if len(cells) > len(order):
        problems.append(
            gettext(
                "%(cells)s cells but only %(n)s columns (%(columns)s); quote a cell that "
                "contains a comma"
            )
            % {"cells": len(cells), "n": len(order), "columns": ", ".join(order)}
        )
    row = dict(zip(order, cells + [""] * (len(order) - len(cells)), strict=False))
    specs: list[PlayerSpec] = []
    for name_col, club_col, rating_col in ctx.pairs:
        name, club = clean(row.get(name_col, "")), clean(row.get(club_col, ""))
        rating = _int_cell(row.get(rating_col, ""), rating_col, problems, minimum=0)
        if not name:
            problems.append(
                gettext("%(column)s is empty: give the player's name") % {"column": name_col}
            )
            continue
        specs.append(PlayerSpec(name=name, club=club, rating=rating))
    keys = [s.key() for s in specs]
    if len(keys) == 2 and keys[0] == keys[1]:
        problems.append(
            gettext("%(name)s is named twice: the partners must be two players")
            % {"name": keys[0][0]}
        )
    for key in dict.fromkeys(keys):
        who = f"{key[0]} ({key[1]})" if key[1] else key[0]
        if key in ctx.entered:
            problems.append(
                gettext("%(who)s already plays for %(entry)s in this event")
                % {"who": who, "entry": ctx.entered[key]}
            )
        elif key in ctx.seen_players:
            problems.append(
                gettext("%(who)s is already on line %(line)s")
                % {"who": who, "line": ctx.seen_players[key]}
            )
    seed = _int_cell(row.get("seed", ""), "seed", problems, minimum=1)
    if seed is not None:
        if seed in ctx.existing_seeds:
            problems.append(
                gettext("seed %(seed)s is already taken in this event") % {"seed": seed}
            )
        elif seed in ctx.seen_seeds:
            problems.append(
                gettext("seed %(seed)s is already on line %(line)s")
                % {"seed": seed, "line": ctx.seen_seeds[seed]}
            )
    if problems:
        preview.errors.append(ImportProblem(line, "; ".join(problems) + "."))
    for key in keys:
        ctx.seen_players.setdefault(key, line)
    if seed is not None:
        ctx.seen_seeds.setdefault(seed, line)
    if not problems:
        preview.rows.append(
            ImportRow(
                line=line,
                players=specs,
                team_name=clean(row.get("team", "")),
                seed=seed,
                existing=[s.key() in ctx.known for s in specs],
                offers=[None if s.key() in ctx.known else _offer(s, ctx) for s in specs],
            )
        )


def _offer(spec: PlayerSpec, ctx: _ImportContext) -> Player | None:
    """The known player whose folded name and club are this player's, if any (the oldest)."""
    club = name_key(spec.club)
    for player in ctx.similar.get(name_key(spec.name), []):
        if name_key(player.club) == club:
            return player
    return None


def _players_of(row: ImportRow, reuse: Collection[str]) -> list[Player | PlayerSpec]:
    """The row's players, with each accepted offer's known player in place of a new one."""
    offers = row.offers or [None] * len(row.players)
    return [
        offer if offer is not None and row.offer_key(i) in reuse else spec
        for i, (spec, offer) in enumerate(zip(row.players, offers, strict=True))
    ]


@transaction.atomic
def import_entries(
    *, actor: User | None, event: Event, text: str, reuse: Collection[str] = ()
) -> list[Entry]:
    """Create every entry of a CSV (see ``preview_import``) in one transaction, or none.

    Raises ``ValidationFailed(code="import_invalid")`` with ``details["errors"]`` as a list of
    ``{"line": n, "message": ...}`` when any line is wrong; nothing is saved then. Also refused
    once rounds exist (``rounds_started``): add late entries one by one. ``reuse`` holds the
    offers the director accepted (``ImportRow.offer_key``: "line:index"): those players are the
    known players offered on the preview, not new rows.
    """
    locked = lock_event(event)
    check_open_for_entries(locked, late=False)
    preview = preview_import(event=locked, text=text)
    if not preview.ok:
        raise ValidationFailed(
            gettext("Nothing was imported: fix the lines listed and try again."),
            code="import_invalid",
            details={"errors": [{"line": p.line, "message": p.message} for p in preview.errors]},
        )
    entries = [
        create_entry(
            actor=actor,
            event=locked,
            players=_players_of(row, reuse),
            team_name=row.team_name,
            seed=row.seed,
            late=False,
        )
        for row in preview.rows
    ]
    record(
        event=locked,
        actor=actor,
        action="entries.import",
        object_type="event",
        object_id=str(locked.pk),
        after={"entries": [e.pk for e in entries], "lines": len(preview.rows)},
    )
    return entries
