"""Writes for registration: entries, check-in, withdrawal, seeds, pinned tables, CSV import.

Every function is keyword-only, runs in one transaction and records the change in the audit log.
Registration writes lock the event row first, so registrations of one event are serialised and
the checks below see every committed entry; the database constraints (one entry per player per
event, one seed per event) stand behind them.

Players are matched by exact name and club (after trimming and collapsing spaces): an existing
player with the same name and club is reused, so a player keeps one record (and one opponent
history) across events. Error codes (``tournaments.errors``):

    wrong_player_count      a partnership needs two players, a head-to-head entry one
    same_player_twice       the two partners are the same person
    player_required         a player without a name
    player_already_entered  a player already plays for another entry of the event (Conflict)
    seed_taken              another entry has this seed (Conflict)
    invalid_seed / invalid_table / invalid_rating
    rounds_started          a normal registration once rounds exist: register a late entry
    no_rounds_yet           a late entry before any round exists: register normally
    event_finished          the event is over
    already_checked_in / not_checked_in / entry_withdrawn / already_withdrawn / not_withdrawn
    import_invalid          CSV import: ``details["errors"]`` lists ``{line, message}``
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from tournaments import csv_safety
from tournaments.errors import Conflict, ValidationFailed
from tournaments.models import Entry, EntryPlayer, Event, Partnership, Player
from tournaments.services import results as results_service
from tournaments.services.audit import record, snapshot

ENTRY_FIELDS = ["status", "seed", "late", "pinned_table", "checked_in_at", "withdrawn_at"]


@dataclass(frozen=True)
class PlayerSpec:
    """A player as typed by a director or read from a CSV line (matched by name and club)."""

    name: str
    club: str = ""
    rating: int | None = None
    email: str = ""
    phone: str = ""

    def key(self) -> tuple[str, str]:
        return (clean(self.name), clean(self.club))


def clean(text: str) -> str:
    """Trim and collapse inner whitespace (how names and clubs are compared and stored)."""
    return " ".join(text.split())


def find_or_create_player(spec: PlayerSpec) -> Player:
    """The existing player with exactly this name and club (the oldest, if several), else a new one.

    A reused player's rating is updated when the spec gives one and the player has none.
    """
    name, club = spec.key()
    if not name:
        raise ValidationFailed("Every player needs a name.", code="player_required")
    player = Player.objects.filter(name=name, club=club).order_by("pk").first()
    if player is None:
        return Player.objects.create(
            name=name, club=club, rating=spec.rating, email=spec.email, phone=spec.phone
        )
    if spec.rating is not None and player.rating is None:
        player.rating = spec.rating
        player.save(update_fields=["rating"])
    return player


def _lock_event(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _check_seed(event: Event, seed: int | None, *, exclude: int | None = None) -> None:
    if seed is None:
        return
    if seed < 1:
        raise ValidationFailed("A seed is a whole number from 1.", code="invalid_seed")
    others = Entry.objects.filter(event=event, seed=seed)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    taken = others.first()
    if taken is not None:
        raise Conflict(
            f"Seed {seed} is already {taken.name}'s: choose another seed.",
            code="seed_taken",
            details={"seed": seed, "entry": taken.pk},
        )


def _already_entered(event: Event, players: Sequence[Player]) -> Conflict | None:
    clash = (
        EntryPlayer.objects.filter(event=event, player__in=players)
        .select_related("player", "entry")
        .first()
    )
    if clash is None:
        return None
    return Conflict(
        f"{clash.player} already plays for {clash.entry.name} in this event: withdraw or edit "
        "that entry first.",
        code="player_already_entered",
        details={"player": clash.player.pk, "entry": clash.entry.pk},
    )


def _resolve(players: Sequence[Player | PlayerSpec]) -> list[Player]:
    return [p if isinstance(p, Player) else find_or_create_player(p) for p in players]


def _check_open(event: Event, *, late: bool) -> None:
    if event.status == Event.Status.FINISHED:
        raise Conflict("The event is finished: no more entries.", code="event_finished")
    has_rounds = event.rounds.exists()
    if has_rounds and not late:
        raise Conflict(
            "Rounds have been made: register this entry as a late entry.", code="rounds_started"
        )
    if late and not has_rounds:
        raise Conflict("No round exists yet: register the entry normally.", code="no_rounds_yet")


def _create_entry(
    *,
    actor: User | None,
    event: Event,
    players: Sequence[Player | PlayerSpec],
    team_name: str,
    seed: int | None,
    late: bool,
) -> Entry:
    """Create one entry of a locked, open event (the shared core of every registration)."""
    wanted = 2 if event.entry_kind == Event.EntryKind.PARTNERSHIP else 1
    if len(players) != wanted:
        kind = "a partnership needs two players" if wanted == 2 else "head to head: one player"
        raise ValidationFailed(
            f"Wrong number of players ({kind}).",
            code="wrong_player_count",
            details={"expected": wanted, "given": len(players)},
        )
    specs = [p for p in players if isinstance(p, PlayerSpec)]
    if len(specs) == 2 and specs[0].key() == specs[1].key():
        raise ValidationFailed(
            "The two partners are the same player: give two different players.",
            code="same_player_twice",
        )
    _check_seed(event, seed)
    resolved = _resolve(players)
    if len(resolved) == 2 and resolved[0].pk == resolved[1].pk:
        raise ValidationFailed(
            "The two partners are the same player: give two different players.",
            code="same_player_twice",
        )
    clash = _already_entered(event, resolved)
    if clash is not None:
        raise clash
    team_name = clean(team_name)
    try:
        with transaction.atomic():
            if len(resolved) == 2:
                a, b = resolved
                partnership = (
                    Partnership.objects.filter(
                        Q(player_a=a, player_b=b) | Q(player_a=b, player_b=a), name=team_name
                    )
                    .exclude(entries__event=event)
                    .order_by("pk")
                    .first()
                ) or Partnership.objects.create(player_a=a, player_b=b, name=team_name)
                entry = Entry.objects.create(
                    event=event,
                    partnership=partnership,
                    name=team_name or f"{a.name} & {b.name}",
                    seed=seed,
                    late=late,
                )
            else:
                entry = Entry.objects.create(
                    event=event, player=resolved[0], name=resolved[0].name, seed=seed, late=late
                )
            EntryPlayer.objects.bulk_create(
                [EntryPlayer(event=event, entry=entry, player=p) for p in resolved]
            )
    except IntegrityError as exc:  # a concurrent registration got there first
        clash = _already_entered(event, resolved)
        if clash is not None:
            raise clash from exc
        _check_seed(event, seed)
        raise
    record(
        event=event,
        actor=actor,
        action="entry.register_late" if late else "entry.register",
        obj=entry,
        after={
            "name": entry.name,
            "players": [p.pk for p in resolved],
            "seed": seed,
            "late": late,
        },
    )
    return entry


@transaction.atomic
def register_entry(
    *,
    actor: User | None,
    event: Event,
    players: Sequence[Player | PlayerSpec],
    team_name: str = "",
    seed: int | None = None,
) -> Entry:
    """Register an entry before the first round: two players in a partnership event (in seat
    order: the first is player A), one in a head-to-head event.

    ``players`` are existing ``Player`` rows or ``PlayerSpec`` (matched by name and club, else
    created). Writes the ``Entry`` and its ``EntryPlayer`` rows; refuses a player already in
    another entry of the event (``player_already_entered``). ``actor`` None means the system.
    """
    locked = _lock_event(event)
    _check_open(locked, late=False)
    return _create_entry(
        actor=actor, event=locked, players=players, team_name=team_name, seed=seed, late=False
    )


@transaction.atomic
def register_late_entry(
    *,
    actor: User | None,
    event: Event,
    players: Sequence[Player | PlayerSpec],
    team_name: str = "",
    seed: int | None = None,
) -> Entry:
    """Register an entry after rounds exist (``late=True``); it plays from the next round.

    Same rules as ``register_entry``; refused before any round exists (``no_rounds_yet``).
    Marks the event's standings dirty and asks for a recompute after commit (a new row).
    """
    locked = _lock_event(event)
    _check_open(locked, late=True)
    entry = _create_entry(
        actor=actor, event=locked, players=players, team_name=team_name, seed=seed, late=True
    )
    _standings_changed(locked.pk)
    return entry


def _standings_changed(event_id: int) -> None:
    """The entries the standings list changed (a withdrawal, a reinstatement, a late entry):
    mark the event's standings dirty and ask for a coalesced recompute after commit, exactly as
    a confirmed result does (``results.note_results_changed``)."""
    results_service.note_results_changed(event_id=event_id)


def _lock_entry(entry: Entry) -> Entry:
    return Entry.objects.select_for_update().select_related("event").get(pk=entry.pk)


def _set_status(
    *, actor: User | None, entry: Entry, status: str, action: str, reason: str = ""
) -> Entry:
    before = snapshot(entry, ENTRY_FIELDS)
    now = timezone.now()
    entry.status = status
    if status == Entry.Status.CHECKED_IN:
        entry.checked_in_at = now
    elif status == Entry.Status.WITHDRAWN:
        entry.withdrawn_at = now
    else:
        entry.checked_in_at = None
        entry.withdrawn_at = None
    entry.save(update_fields=["status", "checked_in_at", "withdrawn_at"])
    record(
        event=entry.event,
        actor=actor,
        action=action,
        obj=entry,
        before=before,
        after=snapshot(entry, ENTRY_FIELDS),
        reason=reason,
    )
    return entry


@transaction.atomic
def check_in_entry(*, actor: User | None, entry: Entry) -> Entry:
    """Mark a registered entry present (``already_checked_in``, ``entry_withdrawn``)."""
    locked = _lock_entry(entry)
    if locked.status == Entry.Status.CHECKED_IN:
        raise Conflict(f"{locked.name} is already checked in.", code="already_checked_in")
    if locked.status == Entry.Status.WITHDRAWN:
        raise Conflict(
            f"{locked.name} has withdrawn: reinstate the entry first.", code="entry_withdrawn"
        )
    return _set_status(
        actor=actor, entry=locked, status=Entry.Status.CHECKED_IN, action="entry.check_in"
    )


@transaction.atomic
def undo_check_in(*, actor: User | None, entry: Entry) -> Entry:
    """Back to registered, for a check-in made by mistake (``not_checked_in``)."""
    locked = _lock_entry(entry)
    if locked.status != Entry.Status.CHECKED_IN:
        raise Conflict(f"{locked.name} is not checked in.", code="not_checked_in")
    return _set_status(
        actor=actor, entry=locked, status=Entry.Status.REGISTERED, action="entry.undo_check_in"
    )


@transaction.atomic
def withdraw_entry(*, actor: User | None, entry: Entry, reason: str = "") -> Entry:
    """Withdraw an entry: it is paired in no later round (``already_withdrawn``).

    Marks the event's standings dirty and asks for a recompute after commit (they show it).
    """
    locked = _lock_entry(entry)
    if locked.status == Entry.Status.WITHDRAWN:
        raise Conflict(f"{locked.name} has already withdrawn.", code="already_withdrawn")
    changed = _set_status(
        actor=actor,
        entry=locked,
        status=Entry.Status.WITHDRAWN,
        action="entry.withdraw",
        reason=reason,
    )
    _standings_changed(locked.event_id)
    return changed


@transaction.atomic
def reinstate_entry(*, actor: User | None, entry: Entry, reason: str = "") -> Entry:
    """Undo a withdrawal: the entry is registered again, not checked in (``not_withdrawn``).

    Marks the event's standings dirty and asks for a recompute after commit.
    """
    locked = _lock_entry(entry)
    if locked.status != Entry.Status.WITHDRAWN:
        raise Conflict(f"{locked.name} has not withdrawn.", code="not_withdrawn")
    changed = _set_status(
        actor=actor,
        entry=locked,
        status=Entry.Status.REGISTERED,
        action="entry.reinstate",
        reason=reason,
    )
    _standings_changed(locked.event_id)
    return changed


@transaction.atomic
def set_seed(*, actor: User | None, entry: Entry, seed: int | None) -> Entry:
    """Give an entry a seed (unique in its event; None clears it): ``seed_taken``,
    ``invalid_seed``."""
    locked = _lock_entry(entry)
    if locked.seed == seed:
        return locked
    _check_seed(locked.event, seed, exclude=locked.pk)
    before = snapshot(locked, ["seed"])
    locked.seed = seed
    try:
        with transaction.atomic():
            locked.save(update_fields=["seed"])
    except IntegrityError as exc:
        _check_seed(locked.event, seed, exclude=locked.pk)
        raise Conflict(f"Seed {seed} was just taken.", code="seed_taken") from exc
    record(
        event=locked.event,
        actor=actor,
        action="entry.set_seed",
        obj=locked,
        before=before,
        after=snapshot(locked, ["seed"]),
    )
    return locked


@transaction.atomic
def pin_table(*, actor: User | None, entry: Entry, table: int | None, reason: str = "") -> Entry:
    """Always seat ``entry`` at table number ``table`` (None unpins): ``invalid_table``.

    The pairing service keeps pins when it assigns tables (issue 5).
    """
    if table is not None and table < 1:
        raise ValidationFailed("Table numbers start at 1.", code="invalid_table")
    locked = _lock_entry(entry)
    if locked.pinned_table == table:
        return locked
    before = snapshot(locked, ["pinned_table"])
    locked.pinned_table = table
    locked.save(update_fields=["pinned_table"])
    record(
        event=locked.event,
        actor=actor,
        action="entry.pin_table",
        obj=locked,
        before=before,
        after=snapshot(locked, ["pinned_table"]),
        reason=reason,
    )
    return locked


# --- CSV import --------------------------------------------------------------------------------

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

    @property
    def people(self) -> list[tuple[PlayerSpec, bool]]:
        """Each player with whether a known player (same name and club) is reused."""
        return list(zip(self.players, self.existing, strict=True))


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

    @property
    def ok(self) -> bool:
        return not self.errors and bool(self.rows)


def _read_csv(text: str) -> list[tuple[int, list[str]]]:
    """Lines with their 1-based line numbers: BOM dropped, cells trimmed, blank lines skipped."""
    text = text.lstrip("\ufeff")
    sample = text[:2048]
    delimiter = ","
    first = sample.splitlines()[0] if sample.strip() else ""
    if "," not in first:
        for candidate in (";", "\t"):
            if candidate in first:
                delimiter = candidate
                break
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
        problems.append(f"{column} must be a whole number, not {value!r}")
        return None
    if number < minimum:
        problems.append(f"{column} must be at least {minimum}, not {number}")
        return None
    return number


def preview_import(*, event: Event, text: str) -> ImportPreview:
    """Parse and check a CSV of entries without writing anything.

    Format: one entry per line; ``import_columns(event)`` in that order, or any order under a
    header row naming them (a header is recognised by its first cell being a column name).
    Optional cells may be empty (club, rating, team, seed). Every line is checked: names present,
    numbers whole, partners different, no player twice in the file or already in the event, no
    seed twice. Each problem is reported with its line number and what to fix.
    """
    columns = import_columns(event)
    preview = ImportPreview(columns=columns)
    lines = _read_csv(text)
    preview.warnings = [ImportProblem(n, m) for n, m in csv_safety.formula_warnings(lines)]
    # A NUL byte means the text is not the CSV it looks like (UTF-16 read as bytes, a binary
    # file): say so per line instead of failing further down (PostgreSQL refuses NUL in text).
    garbled = [line for line, cells in lines if any("\x00" in cell for cell in cells)]
    if garbled:
        for line in garbled[:20]:
            preview.errors.append(
                ImportProblem(
                    line,
                    "This line holds a NUL character: the file is not plain text CSV. Save it "
                    "as CSV (UTF-8) and upload it again, or paste the lines.",
                )
            )
        return preview
    if lines and lines[0][1] and lines[0][1][0].lower() in columns:
        header_line, header = lines[0]
        names = [h.lower() for h in header]
        unknown = [h for h in names if h and h not in columns]
        required = ("player_a", "player_b") if len(columns) > 4 else ("player",)
        missing = [c for c in required if c not in names]
        if unknown or missing:
            what = []
            if unknown:
                what.append(f"unknown columns {', '.join(unknown)}")
            if missing:
                what.append(f"missing columns {', '.join(missing)}")
            preview.errors.append(
                ImportProblem(header_line, f"Header: {'; '.join(what)}. Use: {', '.join(columns)}.")
            )
            return preview
        order = names
        lines = lines[1:]
    else:
        order = list(columns)
    if not lines:
        preview.errors.append(ImportProblem(1, "No entries found: paste at least one line."))
        return preview
    if len(lines) > MAX_IMPORT_LINES:
        preview.errors.append(
            ImportProblem(1, f"Too many lines: import at most {MAX_IMPORT_LINES} at once.")
        )
        return preview

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
    seen_players: dict[tuple[str, str], int] = {}
    seen_seeds: dict[int, int] = {}
    pairs = [("player_a", "club_a", "rating_a"), ("player_b", "club_b", "rating_b")]
    if event.entry_kind != Event.EntryKind.PARTNERSHIP:
        pairs = [("player", "club", "rating")]

    for line, cells in lines:
        problems: list[str] = []
        if len(cells) > len(order):
            problems.append(
                f"{len(cells)} cells but only {len(order)} columns ({', '.join(order)}); "
                "quote a cell that contains a comma"
            )
        row = dict(zip(order, cells + [""] * (len(order) - len(cells)), strict=False))
        specs: list[PlayerSpec] = []
        for name_col, club_col, rating_col in pairs:
            name, club = clean(row.get(name_col, "")), clean(row.get(club_col, ""))
            rating = _int_cell(row.get(rating_col, ""), rating_col, problems, minimum=0)
            if not name:
                problems.append(f"{name_col} is empty: give the player's name")
                continue
            specs.append(PlayerSpec(name=name, club=club, rating=rating))
        keys = [s.key() for s in specs]
        if len(keys) == 2 and keys[0] == keys[1]:
            problems.append(f"{keys[0][0]} is named twice: the partners must be two players")
        for key in dict.fromkeys(keys):
            who = f"{key[0]} ({key[1]})" if key[1] else key[0]
            if key in entered:
                problems.append(f"{who} already plays for {entered[key]} in this event")
            elif key in seen_players:
                problems.append(f"{who} is already on line {seen_players[key]}")
        seed = _int_cell(row.get("seed", ""), "seed", problems, minimum=1)
        if seed is not None:
            if seed in existing_seeds:
                problems.append(f"seed {seed} is already taken in this event")
            elif seed in seen_seeds:
                problems.append(f"seed {seed} is already on line {seen_seeds[seed]}")
        if problems:
            preview.errors.append(ImportProblem(line, "; ".join(problems) + "."))
        for key in keys:
            seen_players.setdefault(key, line)
        if seed is not None:
            seen_seeds.setdefault(seed, line)
        if not problems:
            preview.rows.append(
                ImportRow(
                    line=line,
                    players=specs,
                    team_name=clean(row.get("team", "")),
                    seed=seed,
                    existing=[s.key() in known for s in specs],
                )
            )
    return preview


@transaction.atomic
def import_entries(*, actor: User | None, event: Event, text: str) -> list[Entry]:
    """Create every entry of a CSV (see ``preview_import``) in one transaction, or none.

    Raises ``ValidationFailed(code="import_invalid")`` with ``details["errors"]`` as a list of
    ``{"line": n, "message": ...}`` when any line is wrong; nothing is saved then. Also refused
    once rounds exist (``rounds_started``): add late entries one by one.
    """
    locked = _lock_event(event)
    _check_open(locked, late=False)
    preview = preview_import(event=locked, text=text)
    if not preview.ok:
        raise ValidationFailed(
            "Nothing was imported: fix the lines listed and try again.",
            code="import_invalid",
            details={"errors": [{"line": p.line, "message": p.message} for p in preview.errors]},
        )
    entries = [
        _create_entry(
            actor=actor,
            event=locked,
            players=row.players,
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
