"""Move entry's helper for the phone page: the table so far and where a tile may go.

Reads only; nothing is stored. The engine does all the work: the hand's plays are replayed on a
``scoring.Layout``, each legal placement of the chosen tile is tried on a copy, and the engine's
end total and placement score are returned; the drawing comes from ``scoring.geometry``. The
page shows the score and the entrant confirms it: the phone never counts.
"""

from __future__ import annotations

import importlib
from typing import Any

from scoring import IllegalPlacement, Layout, Tile, TileError, score_of_total
from tournaments.errors import ValidationFailed


class PositionError(ValidationFailed):
    """The request cannot be answered: no such hand, a tile that is not one, a play that does
    not fit the table (the verifier names the fault; this only refuses to draw it)."""

    code = "position_invalid"


def _tile(text: Any, where: str) -> Tile:
    try:
        return Tile.parse(str(text))
    except (TileError, ValueError) as exc:
        raise PositionError(
            f"{where}: {text!r} is not a tile (write it like 3-5).", details={"field": where}
        ) from exc


def replay_hand(rules: str, hand: Any) -> Layout:
    """The layout after every play of one move-form hand (draws and passes change nothing on
    the table). Raises ``PositionError`` where a play does not fit."""
    layout = Layout(rules)
    moves = hand.get("moves") if isinstance(hand, dict) else None
    if not isinstance(moves, list):
        return layout
    for j, move in enumerate(moves):
        if not isinstance(move, dict) or "play" not in move:
            continue
        tile = _tile(move["play"], f"turn {j + 1}")
        on = _tile(move["on"], f"turn {j + 1}") if move.get("on") is not None else None
        try:
            layout.place(tile, on)
        except IllegalPlacement as exc:
            raise PositionError(
                f"Turn {j + 1} cannot be drawn: {exc}.", details={"move": j}
            ) from exc
    return layout


def geometry(layout: Layout, rules: str) -> dict[str, Any]:
    """The drawing of a layout: tiles with their centre and size on a grid (one unit per half),
    counted ends (filled numbers) and open ports that are not counted (hollow dots).

    Uses the engine's ``scoring.geometry``; without it the page lists the placements only.
    """
    try:
        engine_geometry = importlib.import_module("scoring.geometry")
    except ImportError:
        return {"tiles": [], "counted": [], "ports": [], "total": layout.total}
    return _from_engine(engine_geometry, layout, rules)


def _from_engine(engine_geometry: Any, layout: Layout, rules: str) -> dict[str, Any]:
    """Adapts the engine's geometry to the page's drawing shape (see ``geometry``)."""
    drawing = engine_geometry.layout_geometry(layout)
    return {
        "tiles": drawing.get("tiles", []),
        "counted": drawing.get("counted", []),
        "ports": drawing.get("ports", []),
        "total": layout.total,
    }


def position(body: Any, *, rules: str) -> dict[str, Any]:
    """Answer ``{"sheet": {...}, "hand": i, "tile": "a-b" | null}``: the drawing of hand ``i``
    after its plays, and for ``tile`` every legal placement ``{"on", "total", "score"}`` with the
    engine's end total and placement score (``on`` null: the tile opens the hand)."""
    if not isinstance(body, dict):
        raise PositionError("Send a JSON object with sheet, hand and tile.")
    sheet = body.get("sheet")
    hands = sheet.get("hands") if isinstance(sheet, dict) else None
    index = body.get("hand")
    if not isinstance(hands, list) or type(index) is not int or not 0 <= index < len(hands):
        raise PositionError("No such hand on the sheet.", details={"field": "hand"})
    layout = replay_hand(rules, hands[index])
    answer = geometry(layout, rules)
    if body.get("tile") is not None:
        tile = _tile(body["tile"], "tile")
        placements = []
        for on in layout.legal_placements(tile):
            trial = layout.copy()
            total = trial.place(tile, on)
            placements.append(
                {
                    "on": str(on) if on is not None else None,
                    "total": total,
                    "score": score_of_total(total),
                }
            )
        answer["tile"] = str(tile)
        answer["placements"] = placements
    return answer


def hand_lines(sheet: Any) -> list[str]:
    """A claim's hands in a line each, for the other side to check before confirming: the
    leader, the form, what was scored, and how the hand ended (taken from the stored sheet)."""
    if not isinstance(sheet, dict) or not isinstance(sheet.get("hands"), list):
        return []
    lines = []
    for i, hand in enumerate(sheet["hands"]):
        if not isinstance(hand, dict):
            continue
        scored = 0
        entries = hand.get("tally") if "tally" in hand else hand.get("moves")
        form = "tally" if "tally" in hand else "move by move"
        for item in entries if isinstance(entries, list) else []:
            if isinstance(item, dict) and isinstance(item.get("score"), int) and item["score"] > 0:
                scored += 1
        end = hand.get("end")
        how = (
            f"seat {hand.get('finisher')} dominoed"
            if end == "domino"
            else "blocked"
            if end == "blocked"
            else "ended at the target"
        )
        lines.append(
            f"Hand {i + 1}: seat {hand.get('leader')} led, {form}, "
            f"{scored} scoring play{'s' if scored != 1 else ''}, {how}"
        )
    return lines
