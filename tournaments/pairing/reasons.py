"""A sentence for people as a template and its arguments, so that a page can show it in the
reader's language while the pairing package stays free of Django.

A ``Reason`` is an English msgid with ``%(name)s`` placeholders (marked with ``gettext_noop``, so
``makemessages`` collects it) and its arguments: numbers, and words that are themselves msgids
(a first-round order, a constraint kind), which the page translates too. ``text`` is the English
sentence: what the export, the archive and the checker's messages keep. An explanation made of
several parts (a pairing that is also an unavoidable rematch) joins them with ``"; "``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

Arg = int | str
"""An argument: an int, or a string (a number such as ``"7/2"``, or a word that is a msgid)."""


def gettext_noop(text: str) -> str:
    """Marks a template for translation (``makemessages`` collects it) with no Django import: the
    page translates it (``tournaments.presenters.reasons``)."""
    return text


@dataclass(frozen=True, slots=True)
class Reason:
    """One sentence: ``template % args``. ``args`` are sorted (name, value) pairs, hashable."""

    template: str
    args: tuple[tuple[str, Arg], ...] = ()

    @property
    def text(self) -> str:
        """The English sentence."""
        return self.template % dict(self.args)

    def to_dict(self) -> dict[str, Any]:
        return {"template": self.template, "args": dict(self.args)}


def reason(template: str, /, **args: int | str | Fraction) -> Reason:
    """A ``Reason``; a ``Fraction`` argument becomes its exact text (``"7/2"``, or ``"3"``)."""
    return Reason(template, tuple(sorted((k, _arg(v)) for k, v in args.items())))


def _arg(value: int | str | Fraction) -> Arg:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    return value


def sentence(parts: Sequence[Reason]) -> str:
    """The English sentence of an explanation made of ``parts``."""
    return "; ".join(p.text for p in parts)


def reason_from_dict(doc: Mapping[str, Any]) -> Reason | None:
    """A stored part back (``Reason.to_dict``), or None when it is malformed."""
    template, args = doc.get("template"), doc.get("args")
    if not isinstance(template, str) or not isinstance(args, dict):
        return None
    return Reason(
        template,
        tuple(sorted((str(k), v) for k, v in args.items() if isinstance(v, int | str))),
    )
