"""Self check-in (issue 18): players check their entry in from the event's check-in page.

The event's check-in poster carries a QR code of ``/events/<slug>/check-in/``; there a player
finds their entry by name and types the code printed on their registration
(``Entry.check_in_code``) or the director's code for the day (``Event.check_in_day_code``).
The director turns it on and off and sets (or draws) the day's code; the window closes when
round 1 is generated (``selectors.check_in.window``).

It changes nothing but check-in: the entry is checked in through the desk's own service
(``entries.check_in_entry``, marked ``checked_in_by_self``), and every self check-in and every
wrong code is in the audit log. Attempts are throttled per address (a venue's phones may share
one: generous) and per entry (``settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, scopes
``self_check_in`` and ``self_check_in_entry``).

Errors (``code``):
    self_check_in_off       the director has not turned self check-in on
    self_check_in_closed    round 1 is generated (or the event finished): check in at the desk
    entry_not_found         no such entry in this event
    check_in_code_required  no code typed
    check_in_code_wrong     the code is neither the entry's nor the day's
    entry_withdrawn         the entry has withdrawn: the desk reinstates it
    throttled               too many tries (429): wait, or ask at the desk
    invalid_day_code        a typed day code of the wrong length
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import check_in_codes, rate_limit
from tournaments.errors import Conflict, NotFound, SpinnerError, ValidationFailed
from tournaments.models import Entry, Event
from tournaments.selectors import check_in as check_in_reads
from tournaments.services import entries as entry_services
from tournaments.services.audit import record

VIA_ENTRY_CODE = "entry_code"
VIA_DAY_CODE = "day_code"
SELF_LABEL = "Self check-in"
"""The audit log's actor for a self check-in (no account acts: the player, by their code)."""


class Throttled(SpinnerError):
    code = "throttled"
    status = 429


@dataclass(frozen=True)
class SelfCheckIn:
    """A self check-in done: the entry, ``already`` when it was checked in before (at the desk
    or by themselves: nothing changed), and which code it took (``via``)."""

    entry: Entry
    already: bool
    via: str


def _lock(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def give_codes(event: Event) -> int:
    """Give every entry of the event without a check-in code one (entries registered before
    codes existed); returns how many were given."""
    missing = list(Entry.objects.filter(event=event, check_in_code="").only("pk"))
    for entry in missing:
        entry.check_in_code = check_in_codes.new_code()
    Entry.objects.bulk_update(missing, ["check_in_code"])
    return len(missing)


@transaction.atomic
def set_self_check_in(*, actor: User | None, event: Event, enabled: bool) -> Event:
    """Turn self check-in on or off. Turning it on gives codes to the entries that have none."""
    locked = _lock(event)
    if locked.self_check_in == enabled:
        return locked
    locked.self_check_in = enabled
    locked.save(update_fields=["self_check_in", "updated_at"])
    given = give_codes(locked) if enabled else 0
    record(
        event=locked,
        actor=actor,
        action="event.self_check_in",
        obj=locked,
        before={"self_check_in": not enabled},
        after={"self_check_in": enabled, "codes_given": given},
    )
    return locked


@transaction.atomic
def set_day_code(*, actor: User | None, event: Event, code: str = "") -> Event:
    """Set the day's code: ``code`` as typed (6 to 16 letters and digits, read forgivingly), or
    a new random one when empty. The audit log says it changed, never what it is."""
    typed = check_in_codes.normalise(code)
    if (code.strip() and not typed) or (typed and check_in_codes.day_code_problem(typed)):
        problem = _("Use %(min)d to %(max)d letters and digits.") % {
            "min": check_in_codes.DAY_CODE_MIN,
            "max": check_in_codes.DAY_CODE_MAX,
        }
        raise ValidationFailed(
            problem, code="invalid_day_code", details={"errors": {"day_code": problem}}
        )
    locked = _lock(event)
    locked.check_in_day_code = typed or check_in_codes.new_code()
    locked.save(update_fields=["check_in_day_code", "updated_at"])
    record(
        event=locked,
        actor=actor,
        action="event.check_in_day_code",
        obj=locked,
        after={"day_code": "typed" if typed else "drawn"},
    )
    return locked


@transaction.atomic
def clear_day_code(*, actor: User | None, event: Event) -> Event:
    """No day code: only the entries' own codes check in."""
    locked = _lock(event)
    if not locked.check_in_day_code:
        return locked
    locked.check_in_day_code = ""
    locked.save(update_fields=["check_in_day_code", "updated_at"])
    record(
        event=locked,
        actor=actor,
        action="event.check_in_day_code",
        obj=locked,
        after={"day_code": "cleared"},
    )
    return locked


def _throttle(event: Event, entry_id: int, address: str) -> None:
    for scope, ident in (
        ("self_check_in", address),
        ("self_check_in_entry", f"{event.pk}:{entry_id}"),
    ):
        allowed, wait = rate_limit.allow(scope, ident)
        if not allowed:
            raise Throttled(
                _("Too many tries: wait %(seconds)d seconds, or check in at the desk.")
                % {"seconds": wait},
                details={"retry_after": wait, "scope": scope},
            )


def _window_error(event: Event) -> SpinnerError | None:
    state = check_in_reads.window(event)
    if state == check_in_reads.OFF:
        return Conflict(
            _("Self check-in is off for this event: check in at the desk."),
            code="self_check_in_off",
        )
    if state == check_in_reads.CLOSED:
        return Conflict(
            _("Check-in here has closed: round 1 is drawn. Go to the desk."),
            code="self_check_in_closed",
        )
    return None


def check_in_self(*, event: Event, entry_id: int, code: str, address: str) -> SelfCheckIn:
    """Check entry ``entry_id`` of ``event`` in with ``code`` (its own, or the day's); from
    ``address`` (counted for the throttle). An entry already checked in is no error
    (``already``). A wrong code is audited (``entry.self_check_in_refused``) and refused."""
    _throttle(event, entry_id, address)
    event = Event.objects.get(pk=event.pk)  # its setting and day code as they are now
    problem = _window_error(event)
    if problem is not None:
        raise problem
    entry = Entry.objects.filter(event=event, pk=entry_id).first()
    if entry is None:
        raise NotFound(_("No such entry in this event."), code="entry_not_found")
    if not check_in_codes.normalise(code):
        raise ValidationFailed(
            _("Type the check-in code printed on your registration."),
            code="check_in_code_required",
        )
    via = _which_code(event, entry, code)
    if via is None:
        _refused(event, entry)
        raise ValidationFailed(
            _(
                "That code is not right for %(entry)s: check the code on your registration "
                "(or the one the director announced), or ask at the desk."
            )
            % {"entry": entry.name},
            code="check_in_code_wrong",
        )
    return _check_in(event, entry, via)


def _which_code(event: Event, entry: Entry, code: str) -> str | None:
    if check_in_codes.matches(code, entry.check_in_code):
        return VIA_ENTRY_CODE
    if check_in_codes.matches(code, event.check_in_day_code):
        return VIA_DAY_CODE
    return None


@transaction.atomic
def _refused(event: Event, entry: Entry) -> None:
    record(
        event=event,
        actor=None,
        action="entry.self_check_in_refused",
        obj=entry,
        after={"name": entry.name, "why": "wrong_code"},
        actor_label=SELF_LABEL,
    )


@transaction.atomic
def _check_in(event: Event, entry: Entry, via: str) -> SelfCheckIn:
    """Check in under the event's lock, the window checked again there (round 1 may have been
    generated meanwhile)."""
    locked = _lock(event)
    problem = _window_error(locked)
    if problem is not None:
        raise problem
    current = Entry.objects.get(pk=entry.pk)
    if current.status == Entry.Status.CHECKED_IN:
        return SelfCheckIn(current, already=True, via=via)
    if current.status == Entry.Status.WITHDRAWN:
        raise Conflict(
            _("%(entry)s has withdrawn: ask at the desk.") % {"entry": current.name},
            code="entry_withdrawn",
        )
    try:
        done = entry_services.check_in_entry(
            actor=None, entry=current, by_self=True, actor_label=f"{SELF_LABEL} ({via})"
        )
    except Conflict as exc:  # the desk checked it in a moment ago
        if exc.code != "already_checked_in":
            raise
        return SelfCheckIn(Entry.objects.get(pk=entry.pk), already=True, via=via)
    return SelfCheckIn(done, already=False, via=via)
