"""The pairing package's reasons in the reader's language.

The pairing package (no Django) writes each reason as templates and arguments beside its English
sentence (``tournaments.pairing.reasons``; stored as ``reason_parts`` on a match's explanation
and ``note_parts`` on a round's). A page shows ``gettext(template) % args``, translating the
arguments that are words (a first-round order, a constraint kind: every non-empty string, which
stays as it is when the catalog does not know it). A round stored before the templates existed
has only the English sentence, which is shown as it is.

The checker's violations (``tournaments.pairing.violations``) are never stored: a page re-checks
the round and shows each violation's ``detail`` in the reader's language, the entries named, and
the rule by its name (``rule_name``: the code itself in English). The purposes of a round's
salted draws are shown by name (``draw_purposes``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy

from tournaments.pairing import draw
from tournaments.pairing.reasons import Reason, reason_from_dict
from tournaments.pairing.records import Violation
from tournaments.pairing.violations import ENTRY_ARGS


def translated(part: Reason) -> str:
    """One part in the active language (raises ``KeyError``/``TypeError``/``ValueError`` when the
    arguments do not fill the template or its translation)."""
    args = {k: gettext(v) if isinstance(v, str) and v else v for k, v in part.args}
    return gettext(part.template) % args


def translated_parts(parts: Any, fallback: str) -> str:
    """Stored parts (a list of ``{"template", "args"}``) joined with ``"; "`` in the active
    language, or ``fallback`` (the stored English) when there are none or one does not read back
    (malformed, or a translation whose placeholders do not match: never a broken page)."""
    if not isinstance(parts, list) or not parts:
        return fallback
    read = [reason_from_dict(p) if isinstance(p, dict) else None for p in parts]
    try:
        return "; ".join(translated(r) if r is not None else _malformed() for r in read)
    except (KeyError, TypeError, ValueError):
        return fallback


def _malformed() -> str:
    raise ValueError("a stored reason part that does not read back")


def match_reason(explanation: dict[str, Any]) -> str:
    """Why a match (or a bye) was made, in the active language."""
    return translated_parts(explanation.get("reason_parts"), str(explanation.get("reason", "")))


def round_notes(explanation: dict[str, Any]) -> list[str]:
    """A round's notes in the active language (the stored English ones when the round has no
    templates, or not one per note)."""
    notes = [str(n) for n in explanation.get("notes") or ()]
    parts = explanation.get("note_parts")
    if not isinstance(parts, list) or len(parts) != len(notes):
        return notes
    return [translated_parts([p], note) for p, note in zip(parts, notes, strict=True)]


RULE_NAMES: dict[str, Promise] = {
    "rematch": pgettext_lazy("checker rule", "rematch"),
    "second_bye": pgettext_lazy("checker rule", "second_bye"),
    "club": pgettext_lazy("checker rule", "club"),
    "avoid": pgettext_lazy("checker rule", "avoid"),
    "bye_count": pgettext_lazy("checker rule", "bye_count"),
    "missing": pgettext_lazy("checker rule", "missing"),
    "duplicate": pgettext_lazy("checker rule", "duplicate"),
    "inactive": pgettext_lazy("checker rule", "inactive"),
    "unknown_entry": pgettext_lazy("checker rule", "unknown_entry"),
    "self_pairing": pgettext_lazy("checker rule", "self_pairing"),
    "pin": pgettext_lazy("checker rule", "pin"),
    "table": pgettext_lazy("checker rule", "table"),
    "table_size": pgettext_lazy("checker rule", "table_size"),
    "repeat": pgettext_lazy("checker rule", "repeat"),
    "seating": pgettext_lazy("checker rule", "seating"),
    "seat_draw": pgettext_lazy("checker rule", "seat_draw"),
    "unknown_match": pgettext_lazy("checker rule", "unknown_match"),
    "feeder": pgettext_lazy("checker rule", "feeder"),
    "not_ready": pgettext_lazy("checker rule", "not_ready"),
    "bye": pgettext_lazy("checker rule", "bye"),
    "winner": pgettext_lazy("checker rule", "winner"),
    "reset_not_needed": pgettext_lazy("checker rule", "reset_not_needed"),
    "eliminated_twice": pgettext_lazy("checker rule", "eliminated_twice"),
    "loss_count": pgettext_lazy("checker rule", "loss_count"),
    "override": pgettext_lazy("checker rule", "override"),
}
"""Each checker rule's code as a page names it: in English the code itself (what the export and
``check_pairings`` print), in another language a word for it."""


def rule_name(code: str) -> str:
    """A checker rule's name in the active language (the code itself when it has none)."""
    name = RULE_NAMES.get(code)
    return str(name) if name is not None else code


def violation_message(violation: Violation, names: Mapping[int, str]) -> str | None:
    """A violation's message in the active language, each entry id followed by the entry's name
    (``?`` when the round does not know it); None when the violation has no template (made
    without one) or its translation does not fill, and the page shows the English line."""
    if violation.detail is None:
        return None

    def argument(key: str, value: int | str) -> int | str:
        if key in ENTRY_ARGS and isinstance(value, int):
            return f"{value} ({names.get(value, '?')})"
        return value

    try:
        message = gettext(violation.detail.template) % {
            k: argument(k, v) for k, v in violation.detail.args
        }
        if violation.override is None:
            return message
        wrap = dict(violation.override.args)
        return gettext(violation.override.template) % {
            "rule": rule_name(str(wrap.get("rule", ""))),
            "reason": wrap.get("reason", ""),
            "message": message,
        }
    except (KeyError, TypeError, ValueError):
        return None


def draw_purposes(explanation: dict[str, Any]) -> list[tuple[str, str]]:
    """The purposes of a round's salted draws, each once in the order first drawn: its code (what
    the export names) and its name in the active language (the code when it has none)."""
    seen: dict[str, str] = {}
    for d in explanation.get("draws") or ():
        code = str(d.get("purpose", "")) if isinstance(d, dict) else ""
        if code and code not in seen:
            name = draw.PURPOSE_NAMES.get(code)
            seen[code] = gettext(name) if name is not None else code
    return list(seen.items())


def override_what(override: dict[str, Any]) -> str:
    """What a director's edit did (``services.round_edits._note_override``), in the reader's
    language: from the swapped entries' names or table numbers; an edit noted before they
    were kept shows its stored English."""
    swapped = override.get("swapped")
    what = str(override.get("what", ""))
    if not isinstance(swapped, list) or len(swapped) != 2:
        return what
    x, y = swapped
    if override.get("action") == "swap_tables":
        return gettext("swapped tables %(x)s and %(y)s") % {"x": x, "y": y}
    if override.get("action") == "swap_entries":
        return gettext("swapped %(x)s and %(y)s") % {"x": x, "y": y}
    return what
