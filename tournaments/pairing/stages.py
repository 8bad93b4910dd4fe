"""The stage of a bracket match: what an event's play-off formats (best of, target) are set by.

Stages
------
``final``
    the match whose winner is champion: the last winners' match of a single-elimination
    bracket; ``GF`` and ``GF2`` of a double-elimination bracket;
``semi_final``
    single: the winners' round before the final; double: the two matches that feed the grand
    final (the winners' bracket final and the losers' bracket final);
``quarter_final``
    single: the winners' round two before the final; double: the winners' round before the
    winners' bracket final;
``third_place``
    the match for third place (``3P``);
``earlier``
    everything else: earlier winners' rounds, the rest of the losers' bracket, consolation.

Round numbers are those of the full power-of-two bracket (byes keep their place), so a bracket of
3 has its semi-final in round 1 and its final in round 2, and a bracket of 2 is only a final.
"""

from __future__ import annotations

from typing import Literal

from .brackets import Bracket, BracketMatch


def gettext_noop(text: str) -> str:
    """Marks a label for translation (``makemessages`` collects it) without importing Django:
    the page that shows it translates it (``tournaments.selectors.rounds``)."""
    return text


Stage = Literal["final", "semi_final", "quarter_final", "third_place", "earlier"]

STAGES: tuple[Stage, ...] = ("final", "semi_final", "quarter_final", "third_place", "earlier")
"""Every stage, the deciding one first."""

STAGE_LABELS: dict[Stage, str] = {
    "final": gettext_noop("Final"),
    "semi_final": gettext_noop("Semi-final"),
    "quarter_final": gettext_noop("Quarter-final"),
    "third_place": gettext_noop("Third place"),
    "earlier": gettext_noop("Earlier rounds"),
}
"""How a page names a stage."""


def _last_round(bracket: Bracket, section: str) -> int:
    return max((r.round_no for r in bracket.rounds if r.section == section), default=0)


def stage_of(bracket: Bracket, match_id: str) -> Stage:
    """The stage of bracket match ``match_id`` (see the module docstring); ``KeyError`` for a
    match not in ``bracket``.

    >>> from tournaments.pairing.brackets import single_elimination
    >>> b = single_elimination(list(range(1, 9)), qualifiers=8, consolation="third_place")
    >>> [stage_of(b, m) for m in ("W3-1", "W2-2", "W1-4", "3P")]
    ['final', 'semi_final', 'quarter_final', 'third_place']
    """
    m: BracketMatch = bracket.match(match_id)
    if m.section == "final":
        return "final"
    if m.section == "third_place":
        return "third_place"
    last_w = _last_round(bracket, "winners")
    if m.section == "winners":
        behind = last_w - m.round_no
        if bracket.kind == "double":
            behind += 1  # the grand final comes after the winners' bracket final
        return ("final", "semi_final", "quarter_final")[behind] if behind < 3 else "earlier"
    if m.section == "losers" and m.round_no == _last_round(bracket, "losers"):
        return "semi_final"
    return "earlier"


def stage_label(bracket: Bracket, match_id: str) -> str:
    """The stage's name as a page shows it ("Final", "Semi-final"...); in a double-elimination
    bracket the grand final and its reset say so ("Grand final", "Grand final (reset)")."""
    if match_id == "GF":
        return gettext_noop("Grand final")
    if match_id == "GF2":
        return gettext_noop("Grand final (reset)")
    stage = stage_of(bracket, match_id)
    if stage == "earlier":
        m = bracket.match(match_id)
        section = {"winners": "Round", "losers": "Losers' round", "consolation": "Consolation"}
        return f"{section.get(m.section, 'Round')} {m.round_no}"
    return STAGE_LABELS[stage]
