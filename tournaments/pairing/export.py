"""JSON-ready dictionaries of the pairing results, for the event export and the archive.

Numbers: ints stay ints; a ``Fraction`` becomes the string ``"p/q"`` (exact, and what
``Fraction(str)`` parses back). Slots of a bracket become ``{"seed": 3}``,
``{"winner_of": "W1-2"}`` or ``{"loser_of": "W1-2"}``. Every function returns only dicts, lists,
strings, ints, bools and ``None``, so ``json.dumps`` takes the result as it is.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .brackets import Bracket, BracketMatch, BracketRound, LoserOf, SeedSlot, Slot, WinnerOf
from .progression import BracketProgress
from .records import DrawRecord, Explanation, Number, RoundPairing, Violation
from .tables_of_many import TableExplanation, TablesRound


def number(value: Number | None) -> int | str | None:
    """An exact number as JSON: an int, or ``"p/q"`` for a non-integral ``Fraction``."""
    if value is None or isinstance(value, int):
        return value
    frac = Fraction(value)
    return int(frac) if frac.denominator == 1 else f"{frac.numerator}/{frac.denominator}"


def explanation_to_dict(why: Explanation) -> dict[str, Any]:
    out: dict[str, Any] = {
        "method": why.method,
        "reason": why.reason,
        "score_group": number(why.score_group),
        "float_points": number(why.float_points),
        "rematch": why.rematch,
        "ranks": list(why.ranks),
        "window": why.window,
    }
    if why.constraint is not None:  # only then: older exports stay byte-identical
        out["constraint"] = why.constraint
    if why.reason_parts:  # the reason as templates and arguments, for the pages' languages
        out["reason_parts"] = [part.to_dict() for part in why.reason_parts]
    return out


def note_parts_to_dict(round_pairing: RoundPairing) -> dict[str, Any]:
    """``{"note_parts": [...]}``: the round's notes as templates and arguments (one per note),
    or ``{}`` when the round has none of them."""
    if not round_pairing.note_parts:
        return {}
    return {"note_parts": [part.to_dict() for part in round_pairing.note_parts]}


def draw_to_dict(record: DrawRecord) -> dict[str, Any]:
    return {
        "purpose": record.purpose,
        "round": record.round_no,
        "method": record.method,
        "context": list(record.context),
        "candidates": list(record.inputs),
        "outcome": list(record.outcome),
    }


def round_to_dict(round_pairing: RoundPairing) -> dict[str, Any]:
    """A generated round: pairings by table in seat order, byes, ranking, draws and notes."""
    return {
        "round": round_pairing.round_no,
        "kind": round_pairing.kind,
        "pairings": [
            {
                "table": p.table,
                "entries": [p.entry_a, p.entry_b],
                "why": explanation_to_dict(p.explanation),
                "override": p.override,
            }
            for p in round_pairing.pairings
        ],
        "byes": [
            {"entry": b.entry_id, "why": explanation_to_dict(b.explanation), "override": b.override}
            for b in round_pairing.byes
        ],
        "ranking": list(round_pairing.ranking),
        "draws": [draw_to_dict(d) for d in round_pairing.draws],
        "notes": list(round_pairing.notes),
        **note_parts_to_dict(round_pairing),
        "total_weight": round_pairing.total_weight,
        "rematches": round_pairing.rematches,
        "window": round_pairing.window,
    }


def table_explanation_to_dict(why: TableExplanation) -> dict[str, Any]:
    return {
        "method": why.method,
        "reason": why.reason,
        "score_groups": [number(g) for g in why.score_groups],
        "ranks": list(why.ranks),
        "repeats": [list(pair) for pair in why.repeats],
        "constraints": list(why.constraints),
    }


def tables_round_to_dict(round_: TablesRound) -> dict[str, Any]:
    """A round at tables of many: tables in seat order (the drawn order), byes, ranking, every
    draw (rank ties, seat orders, first leaders), notes, repeat meetings and their bound."""
    return {
        "round": round_.round_no,
        "kind": round_.kind,
        "table_sizes": list(round_.table_sizes),
        "tables": [
            {
                "table": t.table,
                "entries": list(t.entries),
                "why": table_explanation_to_dict(t.explanation),
                "override": t.override,
            }
            for t in round_.tables
        ],
        "byes": [
            {
                "entry": b.entry_id,
                "why": table_explanation_to_dict(b.explanation),
                "override": b.override,
            }
            for b in round_.byes
        ],
        "ranking": list(round_.ranking),
        "draws": [draw_to_dict(d) for d in round_.draws],
        "notes": list(round_.notes),
        "repeats": round_.repeats,
        "repeat_lower_bound": round_.repeat_lower_bound,
        "constraint_pairs": round_.constraint_pairs,
        "total_cost": round_.total_cost,
    }


def violation_to_dict(violation: Violation) -> dict[str, Any]:
    return {
        "round": violation.round_no,
        "table": violation.table,
        "code": violation.code,
        "message": violation.message,
    }


def slot_to_dict(slot: Slot) -> dict[str, Any]:
    if isinstance(slot, SeedSlot):
        return {"seed": slot.seed}
    if isinstance(slot, WinnerOf):
        return {"winner_of": slot.match_id}
    return {"loser_of": slot.match_id}


def bracket_to_dict(bracket: Bracket) -> dict[str, Any]:
    """A bracket: seeds (entry ids, seed 1 first), byes, and rounds of matches with slots."""
    return {
        "kind": bracket.kind,
        "size": bracket.size,
        "seeds": list(bracket.seeds),
        "byes": list(bracket.byes),
        "consolation": bracket.consolation,
        "rounds": [
            {
                "section": r.section,
                "round": r.round_no,
                "matches": [
                    {
                        "id": m.match_id,
                        "slots": [slot_to_dict(m.slot_a), slot_to_dict(m.slot_b)],
                        "note": m.note,
                    }
                    for m in r.matches
                ],
            }
            for r in bracket.rounds
        ],
    }


def slot_from_dict(doc: dict[str, Any]) -> Slot:
    """The inverse of :func:`slot_to_dict`."""
    if "seed" in doc:
        return SeedSlot(int(doc["seed"]))
    if "winner_of" in doc:
        return WinnerOf(str(doc["winner_of"]))
    if "loser_of" in doc:
        return LoserOf(str(doc["loser_of"]))
    raise ValueError(f"not a bracket slot: {doc!r}")


def bracket_from_dict(doc: dict[str, Any]) -> Bracket:
    """The bracket :func:`bracket_to_dict` wrote (e.g. stored with the first play-off round), so
    a service can rebuild it and ask :func:`~tournaments.pairing.bracket_progress` where it
    stands. Raises :class:`ValueError` on a malformed document."""
    try:
        rounds = tuple(
            BracketRound(
                section=r["section"],
                round_no=int(r["round"]),
                matches=tuple(
                    BracketMatch(
                        match_id=str(m["id"]),
                        section=r["section"],
                        round_no=int(r["round"]),
                        slot_a=slot_from_dict(m["slots"][0]),
                        slot_b=slot_from_dict(m["slots"][1]),
                        note=str(m.get("note", "")),
                    )
                    for m in r["matches"]
                ),
            )
            for r in doc["rounds"]
        )
        if doc["kind"] not in ("single", "double"):
            raise ValueError(f"unknown bracket kind {doc['kind']!r}")
        return Bracket(
            kind=doc["kind"],
            size=int(doc["size"]),
            seeds=tuple(int(e) for e in doc["seeds"]),
            byes=tuple(int(s) for s in doc["byes"]),
            rounds=rounds,
            consolation=doc.get("consolation"),
        )
    except (KeyError, IndexError, TypeError) as exc:
        raise ValueError(f"malformed bracket document: {exc!r}") from None


def progress_to_dict(progress: BracketProgress) -> dict[str, Any]:
    """Where a bracket stands, for the bracket page and the export: every match with its
    entries, status, winner and forfeit; the ready matches; the reset; the champion and
    runner-up; and, once finished, ``placings`` as ``[{place, entry, seed, eliminated_in,
    shared}]``."""
    return {
        "matches": [
            {
                "id": m.match_id,
                "section": m.section,
                "round": m.round_no,
                "status": m.status,
                "entries": [m.entry_a, m.entry_b],
                "winner": m.winner,
                "forfeit": m.forfeit,
            }
            for m in progress.matches
        ],
        "ready": list(progress.ready),
        "reset_needed": progress.reset_needed,
        "finished": progress.finished,
        "champion": progress.champion,
        "runner_up": progress.runner_up,
        "placings": [
            {
                "place": p.place,
                "entry": p.entry_id,
                "seed": p.seed,
                "eliminated_in": p.eliminated_in,
                "shared": p.shared,
            }
            for p in progress.placings
        ],
    }
