"""A play-off stage and a bracket match's place in it, in the reader's language.

``tournaments.pairing.stages`` (pure, no Django) decides the stage; this module only words it:
``STAGE_NAMES`` per stage, and :func:`slot_name` for one bracket match ("Semi-final", "Grand final
(reset)", "Losers' round 2"), as ``pairing.stages.stage_label`` says it in English.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from tournaments.pairing.brackets import Bracket
from tournaments.pairing.stages import Stage, stage_of

STAGE_NAMES: dict[Stage, Promise] = {
    "final": gettext_lazy("Final"),
    "semi_final": gettext_lazy("Semi-final"),
    "quarter_final": gettext_lazy("Quarter-final"),
    "third_place": gettext_lazy("Third place"),
    "earlier": gettext_lazy("Earlier rounds"),
}
"""How a page names each stage (``pairing.stages.STAGE_LABELS``, translated)."""


def slot_name(bracket: Bracket, match_id: str) -> str:
    """A bracket match's stage as a page names it (``pairing.stages.stage_label``, translated)."""
    if match_id == "GF":
        return gettext("Grand final")
    if match_id == "GF2":
        return gettext("Grand final (reset)")
    stage = stage_of(bracket, match_id)
    if stage == "earlier":
        m = bracket.match(match_id)
        if m.section == "losers":
            return gettext("Losers' round %(n)s") % {"n": m.round_no}
        if m.section == "consolation":
            return gettext("Consolation %(n)s") % {"n": m.round_no}
        return gettext("Round %(n)s") % {"n": m.round_no}
    return str(STAGE_NAMES[stage])
