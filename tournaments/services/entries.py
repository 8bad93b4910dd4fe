"""Entries: register (on time or late), check in, withdraw, reinstate, seed, pin a table.

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
    name_required           an entry renamed to nothing
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from tournaments import check_in_codes, search_keys
from tournaments.errors import Conflict, ValidationFailed
from tournaments.models import Entry, EntryPlayer, Event, Partnership, Player
from tournaments.services import results as results_service
from tournaments.services.audit import record, snapshot

ENTRY_FIELDS = [
    "status",
    "seed",
    "late",
    "pinned_table",
    "checked_in_at",
    "checked_in_by_self",
    "withdrawn_at",
]

#: What a director edits on an entry (its name, seed and pinned table): its version for
#: ``If-Match`` (``services.versions``).
EDITABLE_FIELDS = ("name", "seed", "pinned_table")


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


def find_or_create_player(spec: PlayerSpec, *, owner: User | None = None) -> Player:
    """The existing player with exactly this name and club (the oldest, if several), else a new one
    owned by ``owner`` (who may then change the record: ``services.players``).

    A reused player's rating is updated when the spec gives one and the player has none. A
    player merged into another (``services/players.py``) resolves to the row it was merged into.
    A new player's ``name_key`` (the folded name search reads) is set here.
    """
    name, club = spec.key()
    if not name:
        raise ValidationFailed(gettext("Every player needs a name."), code="player_required")
    player = Player.objects.filter(name=name, club=club).order_by("pk").first()
    if player is not None and player.merged_into_id is not None:
        player = Player.objects.get(pk=player.merged_into_id)  # the row it was merged into
    if player is None:
        return Player.objects.create(
            name=name,
            name_key=search_keys.name_key(name),
            club=club,
            rating=spec.rating,
            email=spec.email,
            phone=spec.phone,
            owner=owner,
        )
    if spec.rating is not None and player.rating is None:
        player.rating = spec.rating
        player.save(update_fields=["rating"])
    return player


def lock_event(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _check_seed(event: Event, seed: int | None, *, exclude: int | None = None) -> None:
    if seed is None:
        return
    if seed < 1:
        raise ValidationFailed(gettext("A seed is a whole number from 1."), code="invalid_seed")
    others = Entry.objects.filter(event=event, seed=seed)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    taken = others.first()
    if taken is not None:
        raise Conflict(
            gettext("Seed %(seed)s is already %(name)s's: choose another seed.")
            % {"seed": seed, "name": taken.name},
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
        gettext(
            "%(player)s already plays for %(name)s in this event: withdraw or edit that entry "
            "first."
        )
        % {"player": clash.player, "name": clash.entry.name},
        code="player_already_entered",
        details={"player": clash.player.pk, "entry": clash.entry.pk},
    )


def _resolve(players: Sequence[Player | PlayerSpec], owner: User | None) -> list[Player]:
    return [p if isinstance(p, Player) else find_or_create_player(p, owner=owner) for p in players]


def _contacts(players: Sequence[Player | PlayerSpec]) -> list[tuple[str, str]]:
    """The contact details this registration collected, per player (none for a known player
    given as a row: its record's contact is its owner's, not this event's)."""
    return [
        ("", "") if isinstance(p, Player) else (p.email.strip(), clean(p.phone)) for p in players
    ]


def check_open_for_entries(event: Event, *, late: bool) -> None:
    if event.status == Event.Status.FINISHED:
        raise Conflict(gettext("The event is finished: no more entries."), code="event_finished")
    has_rounds = event.rounds.exists()
    if has_rounds and not late:
        raise Conflict(
            gettext("Rounds have been made: register this entry as a late entry."),
            code="rounds_started",
        )
    if late and not has_rounds:
        raise Conflict(
            gettext("No round exists yet: register the entry normally."), code="no_rounds_yet"
        )


def create_entry(
    *,
    actor: User | None,
    event: Event,
    players: Sequence[Player | PlayerSpec],
    team_name: str,
    seed: int | None,
    late: bool,
) -> Entry:
    """Create one entry of a locked, open event (the shared core of every registration)."""
    _check_players(event, players)
    _check_seed(event, seed)
    resolved = _resolve(players, actor)
    if len(resolved) == 2 and resolved[0].pk == resolved[1].pk:
        raise ValidationFailed(
            gettext("The two partners are the same player: give two different players."),
            code="same_player_twice",
        )
    clash = _already_entered(event, resolved)
    if clash is not None:
        raise clash
    team_name = clean(team_name)
    try:
        with transaction.atomic():
            entry = _write_entry(event, resolved, team_name, seed, late)
            _write_members(event, entry, resolved, _contacts(players))
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


def _check_players(event: Event, players: Sequence[Player | PlayerSpec]) -> None:
    """As many players as the event's kind of entry takes, and two partners not one player
    named twice (players given by name; stored players are compared once resolved)."""
    wanted = 2 if event.entry_kind == Event.EntryKind.PARTNERSHIP else 1
    if len(players) != wanted:
        kind = "a partnership needs two players" if wanted == 2 else "head to head: one player"
        raise ValidationFailed(
            gettext("Wrong number of players (%(kind)s).") % {"kind": kind},
            code="wrong_player_count",
            details={"expected": wanted, "given": len(players)},
        )
    specs = [p for p in players if isinstance(p, PlayerSpec)]
    if len(specs) == 2 and specs[0].key() == specs[1].key():
        raise ValidationFailed(
            gettext("The two partners are the same player: give two different players."),
            code="same_player_twice",
        )


def _write_entry(
    event: Event, resolved: Sequence[Player], team_name: str, seed: int | None, late: bool
) -> Entry:
    """Write the entry (a partnership's reuses the pair's unused partnership of that name); its
    players follow (``_write_members``), the unique constraints refusing a player entered twice."""
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
            check_in_code=check_in_codes.new_code(),
        )
    else:
        entry = Entry.objects.create(
            event=event,
            player=resolved[0],
            name=resolved[0].name,
            seed=seed,
            late=late,
            check_in_code=check_in_codes.new_code(),
        )
    return entry


def _write_members(
    event: Event, entry: Entry, resolved: Sequence[Player], contacts: Sequence[tuple[str, str]]
) -> None:
    EntryPlayer.objects.bulk_create(
        [
            EntryPlayer(event=event, entry=entry, player=p, email=email, phone=phone)
            for p, (email, phone) in zip(resolved, contacts, strict=True)
        ]
    )


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
    locked = lock_event(event)
    check_open_for_entries(locked, late=False)
    return create_entry(
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
    locked = lock_event(event)
    check_open_for_entries(locked, late=True)
    entry = create_entry(
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
    *,
    actor: User | None,
    entry: Entry,
    status: str,
    action: str,
    reason: str = "",
    by_self: bool = False,
    actor_label: str = "",
) -> Entry:
    before = snapshot(entry, ENTRY_FIELDS)
    now = timezone.now()
    entry.status = status
    entry.checked_in_by_self = by_self and status == Entry.Status.CHECKED_IN
    if status == Entry.Status.CHECKED_IN:
        entry.checked_in_at = now
    elif status == Entry.Status.WITHDRAWN:
        entry.withdrawn_at = now
    else:
        entry.checked_in_at = None
        entry.withdrawn_at = None
    entry.save(update_fields=["status", "checked_in_at", "checked_in_by_self", "withdrawn_at"])
    record(
        event=entry.event,
        actor=actor,
        action=action,
        obj=entry,
        before=before,
        after=snapshot(entry, ENTRY_FIELDS),
        reason=reason,
        actor_label=actor_label,
    )
    return entry


@transaction.atomic
def check_in_entry(
    *, actor: User | None, entry: Entry, by_self: bool = False, actor_label: str = ""
) -> Entry:
    """Mark a registered entry present (``already_checked_in``, ``entry_withdrawn``).

    ``by_self``: a player checked the entry in from the event's check-in page (audited as
    ``entry.self_check_in``, by ``actor_label``; ``services/self_check_in.py``): the desk
    shows who did.
    """
    locked = _lock_entry(entry)
    if locked.status == Entry.Status.CHECKED_IN:
        raise Conflict(
            gettext("%(name)s is already checked in.") % {"name": locked.name},
            code="already_checked_in",
        )
    if locked.status == Entry.Status.WITHDRAWN:
        raise Conflict(
            gettext("%(name)s has withdrawn: reinstate the entry first.") % {"name": locked.name},
            code="entry_withdrawn",
        )
    return _set_status(
        actor=actor,
        entry=locked,
        status=Entry.Status.CHECKED_IN,
        action="entry.self_check_in" if by_self else "entry.check_in",
        by_self=by_self,
        actor_label=actor_label,
    )


@transaction.atomic
def undo_check_in(*, actor: User | None, entry: Entry) -> Entry:
    """Back to registered, for a check-in made by mistake (``not_checked_in``)."""
    locked = _lock_entry(entry)
    if locked.status != Entry.Status.CHECKED_IN:
        raise Conflict(
            gettext("%(name)s is not checked in.") % {"name": locked.name}, code="not_checked_in"
        )
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
        raise Conflict(
            gettext("%(name)s has already withdrawn.") % {"name": locked.name},
            code="already_withdrawn",
        )
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
        raise Conflict(
            gettext("%(name)s has not withdrawn.") % {"name": locked.name}, code="not_withdrawn"
        )
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
        raise Conflict(
            gettext("Seed %(seed)s was just taken.") % {"seed": seed}, code="seed_taken"
        ) from exc
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
        raise ValidationFailed(gettext("Table numbers start at 1."), code="invalid_table")
    return _set_field(
        entry, "pinned_table", table, action="entry.pin_table", actor=actor, reason=reason
    )


@transaction.atomic
def rename_entry(*, actor: User | None, entry: Entry, name: str) -> Entry:
    """Change the name an entry is shown by (a team's name, or a head-to-head entry's label;
    the players keep theirs): ``name_required`` when nothing visible is left."""
    name = clean(name)
    if not name:
        raise ValidationFailed(
            gettext("Give the entry a name."), code="name_required", details={"name": "required"}
        )
    return _set_field(entry, "name", name, action="entry.rename", actor=actor)


def _set_field(
    entry: Entry, field: str, value: Any, *, action: str, actor: User | None, reason: str = ""
) -> Entry:
    """One field of the entry, locked, changed and audited (nothing when it already holds
    ``value``)."""
    locked = _lock_entry(entry)
    if getattr(locked, field) == value:
        return locked
    before = snapshot(locked, [field])
    setattr(locked, field, value)
    locked.save(update_fields=[field])
    record(
        event=locked.event,
        actor=actor,
        action=action,
        obj=locked,
        before=before,
        after=snapshot(locked, [field]),
        reason=reason,
    )
    return locked


ENTRY_ACTIONS: dict[str, Callable[..., Entry]] = {
    "check-in": check_in_entry,
    "undo-check-in": undo_check_in,
    "withdraw": withdraw_entry,
    "reinstate": reinstate_entry,
}
"""The entry list's buttons by name (the director's page and the API): each takes ``actor``
and ``entry``; those in ``ACTIONS_WITH_REASON`` also a ``reason`` for the audit log."""

ACTIONS_WITH_REASON = frozenset({"withdraw", "reinstate"})
