"""The simulator: complete matches played by simple bots, written as ``fives-scoresheet/1``.

Every sheet is in move form with the full deal, every claim (placement scores, ``end``,
``finisher``, ``remaining``, ``settlement``) and the ``result``; each verifies valid. The same
arguments give the same sheets: all chance comes from one ``random.Random`` seeded from the
arguments, never from the global generator.

Bots: ``greedy`` places the tile and spot that score most (ties: the heaviest tile, then the
lowest tile and spot indexes); ``random`` picks uniformly among the legal placements. Drawing is
forced (one tile at a time until one can be placed, which is then placed at once), so bots only
choose placements.

>>> from scoring import verify
>>> sheets = list(simulate("five-up", players=2, seed=1, count=2))
>>> len(sheets), sheets[0]["format"], all(verify(s).valid for s in sheets)
(2, 'fives-scoresheet/1', True)
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any, Final

from scoring.layout import Layout
from scoring.rules import MatchOptions, Score, find_ruleset, target_winner, uniquely_highest
from scoring.tiles import TILES, Tile

__all__ = ["BOTS", "Deal", "EndlessMatch", "deal", "play_match", "simulate", "simulate_jsonl"]

BOTS: Final = ("greedy", "random")
MAX_HANDS: Final = 10_000
"""A match that has not ended after this many hands is abandoned with an error."""

Deal = tuple[list[list[Tile]], list[Tile]]
"""A deal: each seat's tiles, and the boneyard in the order it is drawn."""


class EndlessMatch(RuntimeError):
    """A simulated match did not end within ``max_hands`` hands.

    The rules allow it: in ``five-up`` with hands of four tiles or fewer the debits tend to
    outrun the placement scores, so that nobody ever reaches the target.
    """


def deal(rng: random.Random, players: int, hand_size: int) -> Deal:
    """Shuffle the 28 tiles and deal ``hand_size`` to each seat; the rest is the boneyard."""
    tiles = list(TILES)
    rng.shuffle(tiles)
    hands = [tiles[s * hand_size : (s + 1) * hand_size] for s in range(players)]
    return hands, tiles[players * hand_size :]


def _json_score(v: Score) -> int | float:
    if isinstance(v, int):
        return v
    return v.numerator if v.denominator == 1 else float(v)


def _choose(
    bot: str, rng: random.Random, layout: Layout, hand: list[Tile], only: Tile | None
) -> tuple[Tile, Tile | None] | None:
    """The bot's placement: ``(tile, on)``, or None when no tile of ``hand`` can be placed."""
    options: list[tuple[Tile, Tile | None]] = []
    if not layout.on_table:
        options = [(t, None) for t in hand]
    else:
        playable = layout.playable_mask()
        placed = [p.tile for p in layout.placements]
        for t in hand if only is None else (only,):
            if playable >> t.index & 1:
                options.extend((t, on) for on in placed if layout.port_of(t, on) >= 0)
    if not options:
        return None
    if bot == "random":
        return options[rng.randrange(len(options))]

    def key(o: tuple[Tile, Tile | None]) -> tuple[int, int, int, int]:
        total = layout.total_after(o[0], o[1])
        score = total if total > 0 and total % 5 == 0 else 0
        return (-score, -o[0].pips, o[0].index, -1 if o[1] is None else o[1].index)

    return min(options, key=key)


def play_match(
    options: MatchOptions, rng: random.Random, bot: str = "greedy", *, max_hands: int = MAX_HANDS
) -> dict[str, Any]:
    """Play one complete match and return its sheet (a JSON-ready dict)."""
    if bot not in BOTS:
        raise ValueError(f"unknown bot {bot!r} (known: {', '.join(BOTS)})")
    rules = options.rules
    players = options.players
    scores: list[Score] = [0] * options.entities
    hands_out: list[dict[str, Any]] = []
    leader = rng.randrange(players)
    winner: int | None = None
    for _ in range(max_hands):
        record, domino, ended_on_target = _play_hand(options, rng, bot, leader, scores)
        hands_out.append(record)
        if ended_on_target:
            winner = target_winner(scores, options.target)
            break
        _settle(options, record, domino, scores)
        winner = target_winner(scores, options.target)
        if winner is not None:
            break
        leader = domino if domino is not None else rng.randrange(players)
    else:
        raise EndlessMatch(f"the match did not end within {max_hands} hands")
    sheet: dict[str, Any] = {
        "format": "fives-scoresheet/1",
        "rules": rules.name,
        "players": players,
        "partnerships": options.partnerships,
    }
    if options.target != rules.default_target(players):
        sheet["target"] = options.target
    if options.hand_size != rules.deal_size(players):
        sheet["hand_size"] = options.hand_size
    sheet["hands"] = hands_out
    assert winner == uniquely_highest(scores)
    sheet["result"] = {"scores": [_json_score(v) for v in scores], "winner": winner}
    return sheet


def _draw(
    layout: Layout, hand: list[Tile], boneyard: list[Tile], bone: int
) -> tuple[list[Tile], int]:
    """Draw from the boneyard until a playable tile comes (or it runs out): the tiles drawn, in
    order, and the boneyard's new position."""
    drawn: list[Tile] = []
    while bone < len(boneyard):
        t = boneyard[bone]
        bone += 1
        drawn.append(t)
        hand.append(t)
        if layout.playable_mask() >> t.index & 1:
            break
    return drawn, bone


def _play_hand(
    options: MatchOptions, rng: random.Random, bot: str, leader: int, scores: list[Score]
) -> tuple[dict[str, Any], int | None, bool]:
    """Deal and play one hand from ``leader``, adding its plays' scores to ``scores``.

    Returns the hand's sheet record (without its end), the seat that dominoed (None: blocked, or
    the match ended on the target mid-hand) and whether the match ended on the target mid-hand.
    """
    seats, boneyard = deal(rng, options.players, options.hand_size)
    moves: list[dict[str, Any]] = []
    record: dict[str, Any] = {
        "leader": leader,
        "deal": {
            "hands": [[str(t) for t in h] for h in seats],
            "boneyard": [str(t) for t in boneyard],
        },
        "moves": moves,
    }
    layout = Layout(options.rules)
    bone = 0
    seat = leader
    while True:
        hand = seats[seat]
        choice = _choose(bot, rng, layout, hand, None)
        if choice is None:
            drawn, bone = _draw(layout, hand, boneyard, bone)
            if drawn:
                moves.append({"seat": seat, "draw": [str(t) for t in drawn]})
                choice = _choose(bot, rng, layout, hand, drawn[-1])
            if choice is None:
                moves.append({"seat": seat, "pass": True})
        if choice is not None:
            score = _play(layout, seat, hand, choice, moves)
            if score:
                scores[options.entity_of[seat]] += score
                if options.rules.ends_at_once and target_winner(scores, options.target) is not None:
                    return record, None, True
            if not hand:
                record["remaining"] = seats
                return record, seat, False
        if bone == len(boneyard):
            playable = layout.playable_mask()
            if not any(playable >> t.index & 1 for h in seats for t in h):
                record["remaining"] = seats
                return record, None, False  # blocked
        seat = seat + 1 if seat + 1 < options.players else 0


def _play(
    layout: Layout,
    seat: int,
    hand: list[Tile],
    choice: tuple[Tile, Tile | None],
    moves: list[dict[str, Any]],
) -> int:
    """Play the chosen tile, record the move and return what it scored."""
    tile, on = choice
    total = layout.place(tile, on)
    score = total if total > 0 and total % 5 == 0 else 0
    move: dict[str, Any] = {"seat": seat, "play": str(tile)}
    if on is not None:
        move["on"] = str(on)
    move["score"] = score
    moves.append(move)
    hand.remove(tile)
    return score


def _settle(
    options: MatchOptions, record: dict[str, Any], domino: int | None, scores: list[Score]
) -> None:
    """Close a hand's record (its end, finisher, remaining tiles, settlement) and add the
    settlement to ``scores``."""
    seats: list[list[Tile]] = record.pop("remaining")
    record["end"] = "domino" if domino is not None else "blocked"
    if domino is not None:
        record["finisher"] = domino
    record["remaining"] = [[str(t) for t in h] for h in seats]
    change = options.rules.settle(
        [sum(t.pips for t in h) for h in seats], options.entity_of, len(scores), domino
    )
    record["settlement"] = [_json_score(v) for v in change]
    for e, v in enumerate(change):
        new = scores[e] + v
        scores[e] = new.numerator if new.denominator == 1 else new


def simulate(
    rules: str = "five-up",
    players: int = 4,
    seed: int = 0,
    count: int = 1,
    *,
    bot: str = "greedy",
    target: int | None = None,
    hand_size: int | None = None,
    partnerships: bool | None = None,
) -> Iterator[dict[str, Any]]:
    """Play ``count`` complete matches; yield one sheet (a JSON-ready dict) per match.

    Partnerships follow the rule set's default for the player count unless given. The random
    generator is seeded from all the arguments, so the same arguments give the same sheets.
    Raises ``ValueError`` (``UnknownRuleSet``, ``OptionError``) for options that cannot apply.
    """
    ruleset = find_ruleset(rules)
    options = ruleset.options(
        players, target=target, hand_size=hand_size, partnerships=partnerships
    )
    if bot not in BOTS:
        raise ValueError(f"unknown bot {bot!r} (known: {', '.join(BOTS)})")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"count must be a whole number of at least 0, not {count!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, not {seed!r}")
    # A string seed is hashed with SHA-512 by random.Random: stable across runs and platforms.
    rng = random.Random(
        f"spinner-simulate/1:{rules}:{players}:{seed}:{bot}:{options.target}:"
        f"{options.hand_size}:{options.partnerships}"
    )
    for _ in range(count):
        yield play_match(options, rng, bot)


def simulate_jsonl(**kwargs: Any) -> Iterator[str]:
    """:func:`simulate`'s sheets as compact JSON lines (without the newline)."""
    for sheet in simulate(**kwargs):
        yield json.dumps(sheet, separators=(",", ":"))
