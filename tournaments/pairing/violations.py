"""What the checkers say, as templates and arguments (``reasons.Reason``).

A ``Violation`` keeps its English sentence in ``message`` (the export, the ``check_pairings``
command and the logs read it) and the same sentence as a template and arguments in ``detail``,
so that a page can show it in the reader's language (``selectors.pairing_reasons``). Entry ids
are the arguments ``entry``, ``entry_a``, ``entry_b``, ``swap_a`` and ``swap_b`` (``ENTRY_ARGS``):
a page follows each with the entry's name. A problem on a pairing a director edited with a
reason is recorded with code ``override``: its ``override`` wraps the rule's code, the message
and the director's words.

The messages both checkers (two-sided and tables of many) give are here; the others sit beside
their rule.
"""

from __future__ import annotations

from .reasons import Reason, gettext_noop, reason
from .records import Violation

ENTRY_ARGS = frozenset({"entry", "entry_a", "entry_b", "swap_a", "swap_b"})
"""The arguments that are entry ids (a page names the entry after each)."""

OVERRIDE = gettext_noop("%(rule)s: %(message)s (director: %(reason)s)")
"""A round's problem a director accepted with a reason."""
BRACKET_OVERRIDE = gettext_noop("%(rule)s: %(message)s (%(reason)s)")
"""A bracket match's problem a director accepted with a reason."""

TABLE_NUMBER = gettext_noop("table number %(table)s is invalid or used twice")
NOT_IN_EVENT = gettext_noop("entry %(entry)s is not in the event")
NOT_ACTIVE = gettext_noop("entry %(entry)s is not active")
ALSO_AT_TABLE = gettext_noop("entry %(entry)s is also at table %(at)s")
ALSO_AT_BYE = gettext_noop("entry %(entry)s is also at the bye")
BYE_NOT_IN_EVENT = gettext_noop("bye to entry %(entry)s, not in the event")
BYE_NOT_ACTIVE = gettext_noop("bye to inactive entry %(entry)s")
BYE_AND_TABLE = gettext_noop("entry %(entry)s has a bye and is at table %(at)s")
BYE_AND_BYE = gettext_noop("entry %(entry)s has a bye and is at the bye")


def violation(
    round_no: int,
    table: int | None,
    code: str,
    detail: Reason,
    override: str | None = None,
    *,
    wrapper: str = OVERRIDE,
) -> Violation:
    """A violation of rule ``code`` saying ``detail``; with the director's ``override`` reason
    it is recorded as code ``override``, its message wrapped by ``wrapper``."""
    if not override:
        return Violation(round_no, table, code, detail.text, detail)
    wrap = reason(wrapper, rule=code, reason=override)
    message = wrapper % {"rule": code, "reason": override, "message": detail.text}
    return Violation(round_no, table, "override", message, detail, wrap)


def already_placed(entry: int, at: int | None) -> Reason:
    """``entry`` sits at a table and also at table ``at`` (None: the bye)."""
    if at is None:
        return reason(ALSO_AT_BYE, entry=entry)
    return reason(ALSO_AT_TABLE, entry=entry, at=at)


def bye_and_placed(entry: int, at: int | None) -> Reason:
    """``entry`` has a bye and also sits at table ``at`` (None: a second bye)."""
    if at is None:
        return reason(BYE_AND_BYE, entry=entry)
    return reason(BYE_AND_TABLE, entry=entry, at=at)


class RoundReport:
    """The violations of one round, in the order found; an overridden one is kept as
    ``override`` with the director's reason."""

    def __init__(self, round_no: int) -> None:
        self.round_no = round_no
        self.out: list[Violation] = []

    def __call__(
        self, table: int | None, code: str, detail: Reason, override: str | None = None
    ) -> None:
        self.out.append(violation(self.round_no, table, code, detail, override))
