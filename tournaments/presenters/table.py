"""The table's page (``/t/<token>/``, the phone at the table): its script's config, the claim
status it polls, and move entry's helper (the table so far and where a tile may go).

Reads only; nothing is stored. The engine does all the work: the hand's plays are replayed on a
``scoring.Layout``, each legal placement of the chosen tile is tried on a copy, and the engine's
end total and placement score are returned; the drawing comes from ``scoring.geometry``. The
page shows each place with its score (and offers only the tiles the engine says can be played),
and the tap that places a tile takes the engine's score: the phone never counts.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from scoring import IllegalPlacement, Layout, Tile, TileError, score_of_total
from scoring import geometry as engine_geometry
from scoring.tiles import TILES
from tournaments import game
from tournaments.errors import ValidationFailed
from tournaments.models import Event, Match, Round
from tournaments.presenters import cards, table_many
from tournaments.presenters import difference as sheet_difference
from tournaments.presenters.scores import raw_from_halves
from tournaments.selectors import forfeits as forfeit_reads
from tournaments.selectors.bracket import game_line
from tournaments.selectors.desk import round_clock
from tournaments.selectors.results import MatchBoard
from tournaments.services.claims import clean_device
from tournaments.services.table_links import link_seats

RULES_LABEL = dict(Event.Rules.choices)


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


def drawing(picture: Any, total: int) -> dict[str, Any]:
    """The drawing of a position, from the engine's ``scoring.geometry.picture``, in the page's
    units (one unit per tile half; the engine's grid has two):

    - ``tiles``: ``{tile, a, b, x, y, w, h, spinner}`` with ``(x, y)`` the centre, ``a``/``b``
      the values of the left/top and right/bottom halves;
    - ``counted``: the counted ends as filled numbers ``{x, y, value}`` (a terminal double's
      two pips x its value once, on its first free line side), and ``ports``: the open ports
      that are not counted, as hollow dots ``{x, y}`` (seed 000's drawing convention);
    - ``total``: the end total; ``overlaps``: tiles the engine could not lay without overlap.
    """
    tiles = [
        {
            "tile": t.tile,
            "a": t.first,
            "b": t.second,
            "x": (t.x + t.w / 2) / 2,
            "y": (t.y + t.h / 2) / 2,
            "w": t.w / 2,
            "h": t.h / 2,
            "spinner": t.spinner,
        }
        for t in picture.tiles
    ]
    contribution = {(c.tile, c.side): c.contribution for c in picture.counted}
    counted: list[dict[str, Any]] = []
    ports: list[dict[str, Any]] = []
    labelled: set[tuple[str, str]] = set()
    for port in picture.ports:
        # A dot just outside the tile's edge, on the side where the next tile would go.
        x, y = (port.x + port.dx * 0.6) / 2, (port.y + port.dy * 0.6) / 2
        key = (port.tile, port.side)
        if port.counted and key in contribution and (port.side != "line" or key not in labelled):
            labelled.add(key)
            value = contribution[key] if port.side == "line" else port.value
            counted.append({"tile": port.tile, "x": x, "y": y, "value": value})
        elif not port.counted:
            ports.append({"tile": port.tile, "x": x, "y": y, "value": port.value})
    return {
        "tiles": tiles,
        "counted": counted,
        "ports": ports,
        "total": total,
        "overlaps": list(picture.overlaps),
    }


def _target(ports: Any, tile: Tile, on: Tile | None) -> tuple[float, float] | tuple[None, None]:
    """Where to draw the tap target of ``tile`` placed on ``on``: one unit beyond the first
    open port of ``on`` that has one of the tile's values (the opening: the centre)."""
    if on is None:
        return (0.0, 0.0)
    for port in ports:
        if port.tile == str(on) and port.value in (tile.low, tile.high):
            return ((port.x + port.dx * 2) / 2, (port.y + port.dy * 2) / 2)
    return (None, None)


def position(body: Any, *, rules: str) -> dict[str, Any]:
    """Answer ``{"sheet": {...}, "hand": i, "tile": "a-b" | null}``: the drawing of hand ``i``
    after its plays, ``playable`` (every tile not on the table that has a legal place now, in
    tile order: the tiles the next player can have played), and for ``tile`` every legal
    placement ``{"on", "total", "score"}`` with the engine's end total and placement score
    (``on`` null: the tile opens the hand)."""
    if not isinstance(body, dict):
        raise PositionError("Send a JSON object with sheet, hand and tile.")
    sheet = body.get("sheet")
    hands = sheet.get("hands") if isinstance(sheet, dict) else None
    index = body.get("hand")
    if not isinstance(hands, list) or type(index) is not int or not 0 <= index < len(hands):
        raise PositionError("No such hand on the sheet.", details={"field": "hand"})
    layout = replay_hand(rules, hands[index])
    picture = engine_geometry.picture(layout)
    answer = drawing(picture, layout.total)
    answer["playable"] = [str(t) for t in TILES if layout.legal_placements(t)]
    if body.get("tile") is not None:
        tile = _tile(body["tile"], "tile")
        placements = []
        for on in layout.legal_placements(tile):
            trial = layout.copy()
            total = trial.place(tile, on)
            x, y = _target(picture.ports, tile, on)
            placements.append(
                {
                    "on": str(on) if on is not None else None,
                    "total": total,
                    "score": score_of_total(total),
                    "x": x,
                    "y": y,
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
        time = sheet.get("time")
        called = isinstance(time, dict) and time.get("called_in_hand") == i
        lines.append(
            f"Hand {i + 1}: seat {hand.get('leader')} led, {form}, "
            f"{scored} scoring play{'s' if scored != 1 else ''}, {how}"
            + ("; time was called in this hand" if called else "")
        )
    return lines


# --- The page and its status fragment -----------------------------------------------------------


def seat_records(match: Match) -> tuple[cards.Seat, ...]:
    """The match's seats (who sits where), as the printed card has them (at a table of many,
    every seat's player, from its ``RoundSeat`` row)."""
    event = match.round.event
    seated = link_seats([match]).get(match.pk, []) if match.table_entries > 2 else []
    ids = {match.entry_a_id} | ({match.entry_b_id} if match.entry_b_id else set())
    players = cards.players_by_entry(event, ids | {entry.pk for _, entry in seated})
    return cards.seats_for(
        match,
        players,
        head_to_head=not game.plays_in_partnerships(event.entry_kind),
        seated=seated,
    )


def clock_payload(rnd: Round) -> dict[str, Any]:
    """The round's clock as the phone reads it: ``{"state", "seconds_left", "ends_at",
    "seconds_over", "as_of"}`` (``as_of``: the server's time of the answer, so that a page kept
    offline knows which answer is newer)."""
    now = timezone.now()
    return {**round_clock(rnd, now).as_dict(), "as_of": now.isoformat()}


def _api(name: str, match: Match) -> str:
    """The results API's route for the match (the page calls it with the table's token)."""
    return reverse(name, kwargs={"match_id": match.pk})


def page_config(match: Match, token: str, *, csrf: str, side: int | None = None) -> dict[str, Any]:
    """What the page's script needs: the sheet's header (the event's game, as the results
    service expects it), how to show points, the seats and sides (``side``: the side this
    phone's link acts for, 0 for A or 1 for B), and the endpoints."""
    event = match.round.event
    expected = game.expected_game(event, match)
    players = int(expected["players"])
    seats = seat_records(match)
    drawn = cards.first_leader(match, seats)
    many = match.table_entries > 2
    entities = _entities(match, seats, many=many)
    return {
        "token": token,
        # where the phone keeps its sheet: one copy per game of a best-of match
        "storage_key": token if match.game_no == 1 else f"{token}.game{match.game_no}",
        "players": players,
        "header": {"format": "fives-scoresheet/1", **expected},
        "target": int(expected["target"]),
        "divisor": game.displayed_divisor(event),
        "seats": _seat_rows(seats, players),
        # The side this phone's link acts for: 0 (side A) or 1 (side B), or at a table of many
        # its seat (0 to 3); the script preselects it for "submit as" and shows only its actions
        # (None: either, chosen on submit).
        "side": side,
        "side_names": [e["label"] for e in entities],
        # A table of many: each player for themselves, every other player confirms (or most of
        # them: ``table_confirmation``).
        "many": many,
        **_rules_config(event, match),
        "entities": entities,
        # Seat -> entity: partners share side A (seats 0, 2) or side B (1, 3); head to head,
        # seat 0 is side A and seat 1 side B; at a table of many each seat is its own.
        "entity_of": [s if many else s % 2 for s in range(players)],
        # The first hand's leader as the round's draw chose it by lot (None: choose at the table).
        "first_leader": drawn.number if drawn is not None else None,
        "csrf": csrf,
        "urls": _page_urls(match, token),
    }


def _entities(match: Match, seats: Sequence[cards.Seat], *, many: bool) -> list[dict[str, Any]]:
    """Sides by team name; at a table of many every seat is its own entity: its player."""
    if many:
        return [{"side": s.side, "index": s.number, "label": s.player} for s in seats]
    assert match.entry_b is not None
    return [
        {"side": "A", "index": 0, "label": match.entry_a.name},
        {"side": "B", "index": 1, "label": match.entry_b.name},
    ]


def _seat_rows(seats: Sequence[cards.Seat], players: int) -> list[dict[str, Any]]:
    """Seats by player name, each with its compass point (clockwise from North; head to head
    North and South; at a table of three North, East and South)."""
    compass = sheet_difference.compass_letters(players)
    return [
        {
            "number": s.number,
            "side": s.side,
            "player": s.player,
            "compass": compass[s.number] if s.number < len(compass) else str(s.number + 1),
        }
        for s in seats
    ]


def _rules_config(event: Event, match: Match) -> dict[str, Any]:
    """What the script checks before the engine's tick, and the time and final-score rules."""
    return {
        # Plausibility before the engine's tick: the most pips hands can hold at a hand's end.
        "max_pips_left": game.max_pips_left(event),
        # When time is called the sheet carries {"called_in_hand": i, "policy": time_policy}; the
        # engine applies the policy (the verify answer's ``time_last_hand`` says where it ends).
        "time_policy": event.time_policy,
        # The round's clock now (``clock_math.ClockState.as_dict``); ``urls.clock`` gives it again.
        "clock": clock_payload(match.round),
        "tally_values": [5 * k for k in range(1, 8)],
        "allow_final_only": event.allow_final_score_only,
        # A final score is a multiple of the game's step (displayed points: 1 in five-up, 5 in
        # all-fives, 2.5 there at a table of three), and at most this many sides or seats are at
        # or past the target when the match ends (the engine's rules, ``game``).
        "score_step": float(game.displayed_from_raw(game.score_step(event, match), event)),
        "most_past_target": game.match_options(event, match).most_past_target(),
    }


def _page_urls(match: Match, token: str) -> dict[str, str]:
    """The endpoints the page's script calls."""
    return {
        "verify": _api("api:sheet-verify", match),
        "table": reverse("api:table-match"),
        "submit": _api("api:match-claims", match),
        "position": reverse("table:position", kwargs={"token": token}),
        # the game this page shows: the fragment says when the table has moved on
        "status": reverse("table:status", kwargs={"token": token}) + f"?game={match.pk}",
        "clock": reverse("table:clock", kwargs={"token": token}),
        "sw": reverse("table:sw"),
    }


def _unit_in_brackets(divisor: int) -> str:
    """The scorebar's unit: "(points)" or "(points: 5 pips = 1)"."""
    if divisor == 1:
        return gettext("(points)")
    return gettext("(points: %(divisor)s pips = 1)") % {"divisor": divisor}


def page_context(match: Match, token: str, *, csrf: str, side: int | None = None) -> dict[str, Any]:
    """The table page's context: the match, its seats, the side the link acts for, the game's
    target in displayed points with its unit, and the script's config."""
    event = match.round.event
    config = page_config(match, token, csrf=csrf, side=side)
    return {
        "token": token,
        "event": event,
        "match": match,
        "clock": round_clock(match.round),
        "seats": config["seats"],
        "rules_label": RULES_LABEL.get(event.rules, event.rules),
        "target_display": game.format_displayed(config["target"], event),
        "unit_label": _unit_in_brackets(game.displayed_divisor(event)),
        "config": config,
        "urls": config["urls"],
        "my_side": None if side is None else game.side_letter(side),
        "my_team": None if side is None else config["side_names"][side],
        "game_line": game_line(match),
    }


def moved_on_context(shown: Match, current: Match) -> dict[str, Any]:
    """The status fragment of a page still showing an earlier game of a best-of match: the
    table has moved on to ``current`` (the page reloads to it)."""
    return {"shown_game": shown.game_no, "game_line": game_line(current)}


def status_context(
    match: Match, board: MatchBoard, *, side: int | None = None, device: str = ""
) -> dict[str, Any]:
    """The claim status fragment's context: each side's claim (scores in displayed points, its
    hands), the confirmed result, the versions the Confirm button sends. ``side``: the side the
    viewing link acts for (its own claim gets no Confirm button: only the other side's does).
    ``device``: the viewing phone's device id; a claim it sent is marked ``same_device`` (its
    Confirm asks "Are you the other team?", or is not offered where the event forbids it)."""
    if match.table_entries > 2:  # a table of many: every seat's claim and confirmation
        many = table_many.status_context(match, board, side=side)
        many["difference"] = many_difference(match, board, side)
        return many
    event = match.round.event
    sides = [match.entry_a.name, match.entry_b.name if match.entry_b else ""]
    result = board.result
    return {
        "state": board.state,
        "claims": _claim_rows(match, board, sides, clean_device(device)),
        "sides": sides,
        "result": result,
        **_result_fields(event, result, sides),
        "versions": {"AB"[s]: claim.version for s, claim in enumerate(board.claims) if claim},
        "my_side": None if side is None else game.side_letter(side),
        "difference": conflict_difference(match, board, side),
        "require_other_device": event.require_other_device,
    }


def _shown(halves: int | None, event: Event) -> str:
    """A score in half pips as the event displays it, or a dash where there is none."""
    raw = raw_from_halves(halves)
    return "—" if raw is None else game.format_displayed(raw, event)


def _claim_rows(
    match: Match, board: MatchBoard, sides: list[str], viewer: str
) -> list[dict[str, Any]]:
    """Each side's claim as the status fragment shows it; ``viewer``: the viewing phone's
    device id (a claim it sent is ``same_device``)."""
    event = match.round.event
    claims = []
    for index, claim in enumerate(board.claims):
        if claim is None:
            continue
        claims.append(
            {
                "side": "AB"[index],
                "side_index": index,
                "name": sides[index],
                "claim": claim,
                "scores": [
                    _shown(claim.score_a_halves, event),
                    _shown(claim.score_b_halves, event),
                ],
                "hands": len(claim.sheet.get("hands", [])) if isinstance(claim.sheet, dict) else 0,
                "hand_lines": hand_lines(claim.sheet),
                "winner": sides[claim.winner_side] if claim.winner_side is not None else None,
                "confirm_url": _api("api:claim-confirm", match),
                "same_device": bool(viewer) and claim.device == viewer,
            }
        )
    return claims


def _result_fields(event: Event, result: Any, sides: list[str]) -> dict[str, Any]:
    """The confirmed result's scores, winner and forfeit mark ("forfeit", "no-show" or "double
    forfeit" when the director recorded one, else "")."""
    if not result:
        return {"result_scores": None, "result_winner": None, "result_forfeit": ""}
    marks = forfeit_reads.marks_of(event.pk, [(result.pk, result.forfeit)])
    return {
        "result_scores": [
            _shown(result.score_a_halves, event),
            _shown(result.score_b_halves, event),
        ],
        "result_winner": sides[result.winner_side] if result.winner_side is not None else None,
        "result_forfeit": marks.get(result.pk, ""),
    }


def conflict_difference(match: Match, board: MatchBoard, side: int | None) -> dict[str, Any] | None:
    """In a conflict between two sheets: their first difference for this phone
    (``presenters.difference.versions``: "your sheet ...; theirs ..." on a side's link, both
    teams named on a link for either), with the other side's version of the play that differs
    (``theirs``: the tally entry or move as its sheet has it), so that the phone can take it."""
    if board.state != "conflict" or len(board.claims) != 2:
        return None
    a, b = board.claims
    if a is None or b is None or a.kind != "sheet" or b.kind != "sheet":
        return None
    names = sheet_difference.names_for(match, seat_records(match))
    mine, theirs = (b, a) if side == 1 else (a, b)
    found = sheet_difference.versions(mine.sheet, theirs.sheet, names, phone=side is not None)
    if found is None:
        return None
    item = _their_item(theirs.sheet, found["hand"], found["move"])
    found["theirs"] = None if item is None else json.dumps(item, separators=(",", ":"))
    return found


def own_difference(match: Match, own: Any, other: Any) -> dict[str, Any] | None:
    """Where another's sheet first differs from this phone's own sheet, in words ("your sheet
    ...; theirs ..."), before this side confirms or disagrees: None while they agree or this
    phone has no sheet."""
    if not isinstance(own, dict) or not own.get("hands"):
        return None
    names = sheet_difference.names_for(match, seat_records(match))
    return sheet_difference.versions(own, other, names, phone=True)


def many_difference(match: Match, board: MatchBoard, side: int | None) -> dict[str, Any] | None:
    """At a table of many in conflict: the first difference between this seat's sheet and the
    first other sheet sent that differs from it (None without a sheet of its own)."""
    if board.state != "conflict" or side is None or side >= len(board.claims):
        return None
    mine = board.claims[side]
    if mine is None or mine.kind != "sheet" or mine.status != "submitted":
        return None
    theirs = next(
        (
            c
            for c in board.claims
            if c is not None
            and c.side != side
            and c.kind == "sheet"
            and c.status == "submitted"
            and c.digest != mine.digest
        ),
        None,
    )
    if theirs is None:
        return None
    names = sheet_difference.names_for(match, seat_records(match))
    found = sheet_difference.versions(mine.sheet, theirs.sheet, names, phone=True)
    if found is None:
        return None
    item = _their_item(theirs.sheet, found["hand"], found["move"])
    found["theirs"] = None if item is None else json.dumps(item, separators=(",", ":"))
    return found


def _their_item(sheet: Any, hand: int | None, move: int | None) -> Any:
    """The other sheet's tally entry or move at ``(hand, move)``, or None."""
    if hand is None or move is None or not isinstance(sheet, dict):
        return None
    hands = sheet.get("hands")
    if not isinstance(hands, list) or hand >= len(hands) or not isinstance(hands[hand], dict):
        return None
    items = hands[hand].get("tally") if "tally" in hands[hand] else hands[hand].get("moves")
    return items[move] if isinstance(items, list) and move < len(items) else None
