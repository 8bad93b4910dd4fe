"""Where a bracket stands: which matches can be played, who is through, the final placings.

Input: a :class:`~tournaments.pairing.brackets.Bracket` (its ``seeds`` map seed ``s`` to the entry
id ``seeds[s - 1]``; an optional ``seeds`` argument replaces them) and the matches decided so far,
``{match id: Decision(winner entry id, forfeit)}``. A forfeit is decided like any other match: the
side that did not forfeit is the winner and advances (a bracket match always has a winner).

Output (:func:`bracket_progress`): one :class:`MatchState` per bracket match, in bracket order, with
its two slots resolved to entries where their feeders are decided, and its status:

``waiting``
    a feeder is not decided yet (one or both entries unknown);
``ready``
    both entries are known and the match is not decided: it can be tabled now. Readiness is per
    match, not per round: a bracket need not wait for a whole round;
``decided``
    it has a :class:`Decision`;
``skipped``
    ``GF2`` (the reset) once ``GF`` is won by the winners' bracket champion (slot A of ``GF``):
    the reset is played only when the losers' bracket champion wins ``GF``, since only then has
    everyone lost once.

Byes never appear: the bracket already removed them (a seed with a bye first appears in its
first real match, round 2), so they need no table and no decision.

The bracket is **finished** when every match is decided or skipped. The **champion** is known as
soon as the final is decided (single: the last winners' match; double: ``GF2`` if played, else
``GF``), possibly before the third-place or consolation matches are over.

Placings (only once finished; see :func:`placings`)
---------------------------------------------------
1. the champion; 2. the runner-up (the loser of the final: the last winners' match, or the
   grand final that decided the title);
3. the others by the round of the match that eliminated them, furthest first: in single
   elimination the winners' match they lost (round numbers are those of the full power-of-two
   bracket, so an entry with a bye who loses its first match, in round 2, reached round 2); in
   double elimination the match of their last loss (losers' round ``r``, then the grand final);
4. among entries eliminated in the same round: the third-place match's winner before its loser;
   in a ``first_round_losers`` consolation, the furthest in the consolation first (its winner,
   then by the consolation round of the match they lost);
5. then by the Swiss standing, i.e. the seed (seed 1 first).

Ties: with ``shared=False`` (the default) step 5 makes the order strict, so places run 1, 2, 3,
4, ... With ``shared=True`` entries equal after step 4 share a place (single elimination without
a third-place match: both semi-final losers are 3rd, the next place is 5th), like ranks 1, 2, 2,
4; they are still listed by seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .brackets import Bracket, BracketMatch, BracketSection, SeedSlot, Slot, WinnerOf

MatchStatus = Literal["waiting", "ready", "decided", "skipped"]


@dataclass(frozen=True, slots=True)
class Decision:
    """A decided bracket match: the winning entry id, and whether the loser forfeited."""

    winner: int
    forfeit: bool = False


@dataclass(frozen=True, slots=True)
class MatchState:
    """One bracket match as it stands. ``entry_a`` / ``entry_b`` are the resolved slots (``None``
    while the feeder is undecided); ``winner`` / ``loser`` are set once decided."""

    match_id: str
    section: BracketSection
    round_no: int
    status: MatchStatus
    entry_a: int | None
    entry_b: int | None
    winner: int | None = None
    loser: int | None = None
    forfeit: bool = False

    @property
    def entries(self) -> tuple[int, int] | None:
        """Both entries, once known."""
        if self.entry_a is None or self.entry_b is None:
            return None
        return self.entry_a, self.entry_b


@dataclass(frozen=True, slots=True)
class Placing:
    """A final place. ``eliminated_in`` is the match id that ended the entry's run (``None`` for
    the champion); ``shared`` is true when another entry has the same place."""

    place: int
    entry_id: int
    seed: int
    eliminated_in: str | None
    shared: bool = False


@dataclass(frozen=True, slots=True)
class BracketProgress:
    """See the module docstring. ``reset_needed`` is ``None`` while it is not known (no ``GF2``
    in the bracket gives ``False``); ``placings`` is empty until ``finished``."""

    matches: tuple[MatchState, ...]
    ready: tuple[str, ...]
    reset_needed: bool | None
    finished: bool
    champion: int | None
    runner_up: int | None
    placings: tuple[Placing, ...]

    def state(self, match_id: str) -> MatchState:
        for m in self.matches:
            if m.match_id == match_id:
                return m
        raise KeyError(match_id)


def _final_id(bracket: Bracket) -> str:
    """The match whose winner is champion, before a reset (single: last winners' match)."""
    if bracket.kind == "double":
        return "GF"
    winners = [r for r in bracket.rounds if r.section == "winners"]
    return winners[-1].matches[-1].match_id


def resolve(
    bracket: Bracket,
    decisions: Mapping[str, Decision],
    seeds: Sequence[int] | None = None,
) -> tuple[MatchState, ...]:
    """Every match's state (see the module docstring), in bracket order.

    Raises :class:`ValueError` for a decision on an unknown match, on a match whose entries are
    not both known, on a skipped reset, or naming a winner who is not in the match.
    """
    entry_of = tuple(bracket.seeds if seeds is None else seeds)
    if len(entry_of) != len(bracket.seeds) or len(set(entry_of)) != len(entry_of):
        raise ValueError("seeds must list one distinct entry per seed of the bracket")
    known = {m.match_id for r in bracket.rounds for m in r.matches}
    for match_id in decisions:
        if match_id not in known:
            raise ValueError(f"decision for unknown bracket match {match_id!r}")
    states: dict[str, MatchState] = {}

    def entry(slot: Slot) -> int | None:
        if isinstance(slot, SeedSlot):
            return entry_of[slot.seed - 1]
        feeder = states[slot.match_id]
        return feeder.winner if isinstance(slot, WinnerOf) else feeder.loser

    for rnd in bracket.rounds:
        for m in rnd.matches:
            states[m.match_id] = _state(m, entry(m.slot_a), entry(m.slot_b), decisions, states)
    return tuple(states.values())


def _state(
    m: BracketMatch,
    a: int | None,
    b: int | None,
    decisions: Mapping[str, Decision],
    states: Mapping[str, MatchState],
) -> MatchState:
    decision = decisions.get(m.match_id)
    base = (m.match_id, m.section, m.round_no)
    if m.match_id == "GF2":
        gf = states.get("GF")
        if gf is not None and gf.status == "decided" and gf.winner == gf.entry_a:
            if decision is not None:
                raise ValueError("GF2 is not played: the winners' bracket champion won GF")
            return MatchState(*base, "skipped", a, b)
    if a is None or b is None:
        if decision is not None:
            raise ValueError(f"match {m.match_id} is decided but its entries are not both known")
        return MatchState(*base, "waiting", a, b)
    if decision is None:
        return MatchState(*base, "ready", a, b)
    if decision.winner not in (a, b):
        raise ValueError(
            f"match {m.match_id}: winner {decision.winner} is not entry {a} or entry {b}"
        )
    loser = b if decision.winner == a else a
    return MatchState(*base, "decided", a, b, decision.winner, loser, decision.forfeit)


def bracket_progress(
    bracket: Bracket,
    decisions: Mapping[str, Decision],
    *,
    seeds: Sequence[int] | None = None,
    shared: bool = False,
) -> BracketProgress:
    """Where ``bracket`` stands after ``decisions`` (see the module docstring).

    >>> from tournaments.pairing.brackets import single_elimination
    >>> b = single_elimination([11, 12, 13], qualifiers=3)  # seed 1 (entry 11) has a bye
    >>> p = bracket_progress(b, {})
    >>> p.ready, p.state("W2-1").entry_a, p.state("W2-1").entry_b
    (('W1-1',), 11, None)
    >>> p = bracket_progress(b, {"W1-1": Decision(13), "W2-1": Decision(11)})
    >>> p.finished, p.champion, [(x.place, x.entry_id) for x in p.placings]
    (True, 11, [(1, 11), (2, 13), (3, 12)])
    """
    matches = resolve(bracket, decisions, seeds)
    by_id = {m.match_id: m for m in matches}
    final = by_id[_final_id(bracket)]
    reset_needed: bool | None = False
    champion = runner_up = None
    if final.status == "decided":
        champion, runner_up = final.winner, final.loser
    if "GF2" in by_id:
        reset = by_id["GF2"]
        reset_needed = None if final.status != "decided" else reset.status != "skipped"
        if reset_needed:
            champion = runner_up = None
            if reset.status == "decided":
                champion, runner_up = reset.winner, reset.loser
    finished = all(m.status in ("decided", "skipped") for m in matches)
    return BracketProgress(
        matches=matches,
        ready=tuple(m.match_id for m in matches if m.status == "ready"),
        reset_needed=reset_needed,
        finished=finished,
        champion=champion,
        runner_up=runner_up,
        placings=placings(bracket, matches, shared=shared) if finished else (),
    )


def placings(
    bracket: Bracket, matches: Sequence[MatchState], *, shared: bool = False
) -> tuple[Placing, ...]:
    """The final places of a finished bracket's qualifiers (see the module docstring).

    ``matches`` are the states from :func:`resolve`; raises :class:`ValueError` when one is
    neither decided nor skipped.
    """
    if any(m.status not in ("decided", "skipped") for m in matches):
        raise ValueError("the bracket is not finished")
    main = ("winners",) if bracket.kind == "single" else ("winners", "losers", "final")
    depth: dict[int, tuple[int, int]] = {}  # entry -> (section depth, round) of its last loss
    out_in: dict[int, str] = {}
    extra: dict[int, int] = {}  # third place / consolation progress
    for m in matches:
        if m.status != "decided" or m.loser is None or m.winner is None:
            continue
        if m.section in main:
            depth[m.loser] = (1 if m.section == "final" else 0, m.round_no)
            out_in[m.loser] = m.match_id
        elif m.section == "third_place":
            extra[m.winner], extra[m.loser] = 2, 1
        elif m.section == "consolation":
            extra[m.loser] = max(extra.get(m.loser, 0), m.round_no)
            extra[m.winner] = max(extra.get(m.winner, 0), m.round_no + 1)
    seed_of = {e: s for s, e in enumerate(_entries(bracket, matches), start=1)}
    by_id = {m.match_id: m for m in matches}
    last = by_id.get("GF2")
    if last is None or last.status != "decided":
        last = by_id[_final_id(bracket)]
    champion = last.winner
    assert champion is not None
    # the champion of a reset lost once, in GF: that loss did not end its run
    depth.pop(champion, None)
    if set(depth) | {champion} != set(seed_of):
        raise ValueError("a finished bracket eliminates every entry but the champion")
    rest = sorted(depth, key=lambda e: (-depth[e][0], -depth[e][1], -extra.get(e, 0), seed_of[e]))
    out = [Placing(1, champion, seed_of[champion], None)]
    keys = [(depth[e], extra.get(e, 0)) for e in rest]
    for i, e in enumerate(rest):
        place = i + 2
        if shared:
            first = keys.index(keys[i])
            place = first + 2
        tied = shared and keys.count(keys[i]) > 1
        out.append(Placing(place, e, seed_of[e], out_in[e], tied))
    return tuple(out)


def downstream(bracket: Bracket, match_id: str) -> tuple[str, ...]:
    """The matches fed, directly or not, by ``match_id``'s winner or loser, in bracket order.

    What a correction of ``match_id``'s result puts in question: once it is corrected, those
    matches' decisions may name an entry no longer in them (:func:`resolve` then raises).

    >>> from tournaments.pairing.brackets import single_elimination
    >>> downstream(single_elimination(list(range(1, 9)), qualifiers=8, consolation="third_place"),
    ...            "W2-1")
    ('W3-1', '3P')
    """
    if match_id not in {m.match_id for r in bracket.rounds for m in r.matches}:
        raise KeyError(match_id)
    fed = {match_id}
    out: list[str] = []
    for r in bracket.rounds:
        for m in r.matches:
            feeders = {s.match_id for s in (m.slot_a, m.slot_b) if not isinstance(s, SeedSlot)}
            if feeders & fed:
                fed.add(m.match_id)
                out.append(m.match_id)
    return tuple(out)


def _entries(bracket: Bracket, matches: Sequence[MatchState]) -> tuple[int, ...]:
    """The bracket's entries in seed order, as the resolved matches name them."""
    first: dict[int, int] = {}
    by_id = {m.match_id: m for m in matches}
    for r in bracket.rounds:
        for m in r.matches:
            state = by_id[m.match_id]
            for slot, e in ((m.slot_a, state.entry_a), (m.slot_b, state.entry_b)):
                if isinstance(slot, SeedSlot) and e is not None:
                    first[slot.seed] = e
    return tuple(first[s] for s in sorted(first))
