"""The pairing package's reasons in the reader's language.

The pairing package (no Django) writes each reason as templates and arguments beside its English
sentence (``tournaments.pairing.reasons``; stored as ``reason_parts`` on a match's explanation
and ``note_parts`` on a round's). A page shows ``gettext(template) % args``, translating the
arguments that are words (a first-round order, a constraint kind: every non-empty string, which
stays as it is when the catalog does not know it). A round stored before the templates existed
has only the English sentence, which is shown as it is.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from tournaments.pairing.reasons import Reason, reason_from_dict


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
