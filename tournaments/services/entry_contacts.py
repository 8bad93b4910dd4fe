"""The contact details an event collected for its players (``EntryPlayer.email`` and
``phone``): its directors read and change these, never a player's record (its owner's:
``services.players``) nor what another event collected.

Error codes (``tournaments.errors``):

    member_not_found     no such player in this entry
    invalid_email        the email is not an address
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext

from tournaments.errors import NotFound, ValidationFailed
from tournaments.models import Entry, EntryPlayer
from tournaments.services.audit import record, snapshot
from tournaments.services.entries import clean

CONTACT_FIELDS = ["email", "phone"]


def checked_email(email: str) -> str:
    """The address trimmed (empty: none), or ``invalid_email``."""
    email = email.strip()
    if not email:
        return email
    try:
        validate_email(email)
    except ValidationError:
        raise ValidationFailed(
            gettext("%(email)r is not an email address: correct it or leave it empty.")
            % {"email": email},
            code="invalid_email",
            details={"email": "not an email address"},
        ) from None
    return email


@transaction.atomic
def edit_member_contact(
    *, actor: User | None, entry: Entry, player_id: int, email: str, phone: str
) -> EntryPlayer:
    """Set the contact details ``entry``'s event holds for one of its players (audited as
    ``entry.contact``, in the event's log)."""
    member = (
        EntryPlayer.objects.select_for_update()
        .filter(entry=entry, player_id=player_id)
        .select_related("player")
        .first()
    )
    if member is None:
        raise NotFound(gettext("No such player in this entry."), code="member_not_found")
    email = checked_email(email)
    before = snapshot(member, CONTACT_FIELDS)
    member.email, member.phone = email, clean(phone)
    member.save(update_fields=CONTACT_FIELDS)
    after = snapshot(member, CONTACT_FIELDS)
    if after != before:
        record(
            event=entry.event,
            actor=actor,
            action="entry.contact",
            obj=entry,
            before={"player": player_id, **before},
            after={"player": player_id, **after},
        )
    return member
