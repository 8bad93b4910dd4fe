"""Player identity: edit a player's name, club and contact details; merge two rows for the same
person; undo a merge from its audit record.

Who may: the player's owner (the account that created the record) and superusers
(:func:`may_manage_player`); never staff, never the director of another event the player was
entered in (that director edits what their event shows: the entry's name and the contact their
event collected, ``services.entry_contacts.edit_member_contact``). A merge needs it for both
rows. Every change is audited (``player.edit``, ``player.merge``, ``player.unmerge``, with no
event: a player spans events). ``player.merge``'s ``after`` holds everything needed to undo it
exactly: the loser's and the survivor's ids, the moved ``EntryPlayer`` ids, the
``Partnership`` rows whose ``player_a`` or ``player_b`` changed (and which), and the
head-to-head ``Entry`` rows whose ``player`` changed.

Error codes (``tournaments.errors``):

    player_not_found         no such player, or not one this user may manage
    read_only_staff          staff (not superusers) change no player (NotAllowed, 403)
    player_required          the name is empty
    invalid_email            the email is not an address
    player_merged            the row was merged into another: edit or merge the survivor
    merge_same_player        a player merged into itself
    merge_same_event         both rows played in the same event: they are two people (Conflict)
    merge_not_found          the audit record is not a merge
    merge_already_undone     the merge was undone already (Conflict)
    merge_not_undoable       the rows changed since (the survivor was merged on) (Conflict)
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import transaction
from django.utils.translation import gettext

from tournaments.errors import Conflict, NotAllowed, NotFound, ValidationFailed
from tournaments.models import AuditEntry, Entry, EntryPlayer, Event, Partnership, Player
from tournaments.permissions import is_staff
from tournaments.search_keys import name_key
from tournaments.services import ratings
from tournaments.services.audit import record, snapshot
from tournaments.services.entries import clean
from tournaments.services.entry_contacts import checked_email

EDIT_FIELDS = ["name", "name_key", "club", "email", "phone"]


class ReadOnlyStaffPlayer(NotAllowed):
    """A staff user (not a superuser) tried to change a player record."""

    code = "read_only_staff"


def may_manage_player(user: AbstractBaseUser | AnonymousUser, player: Player) -> bool:
    """The player's owner and superusers. Staff see players and change none; a director who
    entered the player in an event of theirs changes that entry, not the player's record."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return player.owner_id is not None and player.owner_id == user.pk


def managed_player(user: AbstractBaseUser | AnonymousUser, player_id: int) -> Player:
    """The player, if this user may manage them: ``read_only_staff`` (403) for staff, else
    ``player_not_found`` (a player's record is not revealed to who may not change it)."""
    player = Player.objects.filter(pk=player_id).first()
    if player is not None and may_manage_player(user, player):
        return player
    if player is not None and is_staff(user):
        raise ReadOnlyStaffPlayer(
            gettext("Staff can see players; only the player's owner changes the record."),
            details={"player": player.pk},
        )
    raise NotFound(gettext("No such player among yours."), code="player_not_found")


def _unmerged(player: Player) -> None:
    if player.merged_into_id is not None:
        raise Conflict(
            gettext("%(name)s was merged into another player: change that player instead.")
            % {"name": player.name},
            code="player_merged",
            details={"player": player.pk, "merged_into": player.merged_into_id},
        )


@transaction.atomic
def edit_player(
    *, actor: User | None, player_id: int, name: str, club: str, email: str, phone: str
) -> Player:
    """Change a player's name, club, email and phone (``name_key`` follows the name)."""
    player = Player.objects.select_for_update().get(pk=player_id)
    _unmerged(player)
    name, club, phone = clean(name), clean(club), clean(phone)
    if not name:
        raise ValidationFailed(
            gettext("Every player needs a name."),
            code="player_required",
            details={"name": "required"},
        )
    email = checked_email(email)
    before = snapshot(player, EDIT_FIELDS)
    player.name, player.name_key, player.club = name, name_key(name), club
    player.email, player.phone = email, phone
    player.save(update_fields=EDIT_FIELDS)
    after = snapshot(player, EDIT_FIELDS)
    if after != before:
        record(
            event=None, actor=actor, action="player.edit", obj=player, before=before, after=after
        )
    return player


def _shared_events(loser: Player, survivor: Player) -> list[str]:
    theirs = EntryPlayer.objects.filter(player=survivor).values("event_id")
    shared = EntryPlayer.objects.filter(player=loser, event_id__in=theirs)
    return sorted(shared.values_list("event__slug", flat=True))


@transaction.atomic
def merge_players(*, actor: User | None, loser_id: int, survivor_id: int) -> AuditEntry:
    """Merge ``loser`` into ``survivor`` (two rows for the same person): the loser's entries,
    partnerships and head-to-head entries become the survivor's, and the loser's row stays
    with ``merged_into`` set (every page and search follows it). Returns the audit record,
    from which :func:`unmerge_players` undoes it."""
    if loser_id == survivor_id:
        raise ValidationFailed(
            gettext("A player cannot be merged into themself: choose another player."),
            code="merge_same_player",
        )
    rows = {
        p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[loser_id, survivor_id])
    }
    if len(rows) != 2:
        raise NotFound(gettext("No such player."), code="player_not_found")
    loser, survivor = rows[loser_id], rows[survivor_id]
    _unmerged(loser)
    _unmerged(survivor)
    _refuse_two_people(loser, survivor)
    after = _move_to_survivor(loser, survivor)
    loser.merged_into = survivor
    loser.save(update_fields=["merged_into"])
    _rerate_after_identity_change(loser, survivor)
    return record(
        event=None,
        actor=actor,
        action="player.merge",
        obj=loser,
        before={"loser": snapshot(loser, ["name", "club"]), "survivor": survivor.pk},
        after=after,
    )


def _refuse_two_people(loser: Player, survivor: Player) -> None:
    """Two rows that played in the same event, or as partners, are two people: no merge."""
    shared = _shared_events(loser, survivor)
    if (
        shared
        or Partnership.objects.filter(player_a=loser, player_b=survivor).exists()
        or (Partnership.objects.filter(player_a=survivor, player_b=loser).exists())
    ):
        raise Conflict(
            gettext(
                "%(name)s and %(name2)s played in the same event (%(join)s), or as partners: they "
                "are two people, not one. Nothing was merged."
            )
            % {"name": loser.name, "name2": survivor.name, "join": ", ".join(shared)},
            code="merge_same_event",
            details={"events": shared},
        )


def _move_to_survivor(loser: Player, survivor: Player) -> dict[str, Any]:
    """The loser's memberships, partnerships and head-to-head entries become the survivor's;
    returns what moved, as the audit record keeps it (for :func:`unmerge_players`)."""
    moved = list(
        EntryPlayer.objects.filter(player=loser).order_by("pk").values_list("pk", flat=True)
    )
    as_a = list(
        Partnership.objects.filter(player_a=loser).order_by("pk").values_list("pk", flat=True)
    )
    as_b = list(
        Partnership.objects.filter(player_b=loser).order_by("pk").values_list("pk", flat=True)
    )
    singles = list(Entry.objects.filter(player=loser).order_by("pk").values_list("pk", flat=True))
    EntryPlayer.objects.filter(pk__in=moved).update(player=survivor)
    Partnership.objects.filter(pk__in=as_a).update(player_a=survivor)
    Partnership.objects.filter(pk__in=as_b).update(player_b=survivor)
    Entry.objects.filter(pk__in=singles).update(player=survivor)
    return {
        "loser": loser.pk,
        "survivor": survivor.pk,
        "entry_players": moved,
        "partnerships": [{"id": pk, "field": "player_a"} for pk in as_a]
        + [{"id": pk, "field": "player_b"} for pk in as_b],
        "entries": singles,
    }


def _rerate_after_identity_change(*players: Player) -> None:
    """A merge or an unmerge changes who played whom in the ratings: re-rate from the day of
    the first rated event either row played in (``services.ratings``)."""
    first = (
        Event.objects.filter(rated=True, entries__members__player__in=players)
        .order_by("start_date", "pk")
        .first()
    )
    if first is not None:
        ratings.request_rerate(event_id=first.pk, since_date=first.start_date)


def merge_record(audit_id: int) -> AuditEntry:
    """The audit record of a merge (``merge_not_found`` otherwise)."""
    entry = AuditEntry.objects.filter(pk=audit_id, action="player.merge").first()
    if entry is None or not isinstance(entry.after, dict):
        raise NotFound(gettext("No such merge in the audit log."), code="merge_not_found")
    return entry


def merge_after(merge: AuditEntry) -> dict[str, Any]:
    """The merge record's ``after``: what the merge moved (see ``merge_players``)."""
    assert isinstance(merge.after, dict)
    return merge.after


@transaction.atomic
def unmerge_players(*, actor: User | None, audit_id: int) -> Player:
    """Undo the merge recorded in audit entry ``audit_id``, exactly: the moved rows go back to
    the loser, whose ``merged_into`` is cleared. Returns the restored player."""
    merge = merge_record(audit_id)
    after: dict[str, Any] = merge_after(merge)
    if AuditEntry.objects.filter(action="player.unmerge", object_id=str(merge.pk)).exists():
        raise Conflict(gettext("This merge was undone already."), code="merge_already_undone")
    ids = [after["loser"], after["survivor"]]
    rows = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=ids)}
    loser, survivor = rows[after["loser"]], rows[after["survivor"]]
    if loser.merged_into_id != survivor.pk or survivor.merged_into_id is not None:
        raise Conflict(
            gettext("%(name)s has changed since (merged into another player): undo that first.")
            % {"name": survivor.name},
            code="merge_not_undoable",
            details={"survivor": survivor.pk, "merged_into": survivor.merged_into_id},
        )
    EntryPlayer.objects.filter(pk__in=after["entry_players"], player=survivor).update(player=loser)
    for item in after["partnerships"]:
        field = "player_a" if item["field"] == "player_a" else "player_b"
        Partnership.objects.filter(pk=item["id"], **{field: survivor}).update(**{field: loser})
    Entry.objects.filter(pk__in=after["entries"], player=survivor).update(player=loser)
    loser.merged_into = None
    loser.save(update_fields=["merged_into"])
    _rerate_after_identity_change(loser, survivor)
    record(
        event=None,
        actor=actor,
        action="player.unmerge",
        object_type="auditentry",
        object_id=str(merge.pk),
        before={"loser": loser.pk, "survivor": survivor.pk},
        after=after,
    )
    return loser
