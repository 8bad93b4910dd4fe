"""An independent re-check of a round: ``check_round`` returns every violation it finds.

Independent means it shares no code with the generators beyond the record types: it rebuilds
the per-player opponent history itself, and decides whether a rematch was avoidable with its
own matching question on the dense graph - "how many pairs can be made without any rematch?" -
a maximum-*cardinality* matching with unit weights (rustworkx), not the generator's weighted,
windowed one. If the field can be paired with ``m`` fewer rematches than the round has, the
round's rematches are violations.

Rules checked
-------------
Every round: each pairing's two entries are known (``unknown_entry``), different
(``self_pairing``) and active (``inactive``); no entry appears twice (``duplicate``); table
numbers are positive and distinct (``table``); pinned entries sit at their table unless the pin
cannot be kept (``pin``; a pin cannot be kept when the opponent is pinned elsewhere and sits at
its own table, or the table is held by an entry pinned to it).
Swiss and round-robin rounds: every active entry is paired or has the bye (``missing``); the
number of byes is the field's parity (``bye_count``); no bye goes to an entry with more byes
than another active entry (``second_bye``). A round robin whose circle lists withdrawn entries
may have one more bye per withdrawal, and those byes are fixed by the circle, so neither rule
applies beyond that. Swiss rounds: no avoidable rematch (``rematch``); in rounds
``1 .. constraint_until`` no avoidable pair of one club (``club``) or of a named pair
(``avoid``): avoidable when a complete pairing with no more rematches has fewer such pairs (a
dense weighted matching: rematches first, then constraint pairs).

Rounds at tables of three or more are checked by ``check_tables.check_tables_round``.

A pairing or bye that carries a director's ``override`` reason reports its problems with code
``override`` (the message names the rule and the reason): it is recorded, not a violation.

Brackets (``check_bracket``)
----------------------------
Every tabled bracket match (a ``BracketTable``) is checked against the bracket, resolving the
slots itself from the seeds and the winners recorded on the earlier tables (it does not use
``bracket_progress``): the match exists (``unknown_match``) and is tabled once (``duplicate``);
its feeders are decided (``not_ready``) and its two entries are the ones its slots resolve to
(``feeder``); a seed with a bye never sits at a table before its first real match (``bye``); the
winner is one of the two (``winner``); ``GF2`` is tabled only when the losers' bracket champion
won ``GF`` (``reset_not_needed``). Eliminations, counted over the main bracket (single: the
winners' bracket; double: winners', losers' and finals): in single elimination nobody loses twice
(``eliminated_twice``); in double elimination nobody loses three times, and once every match is
decided, everyone but the champion has lost exactly twice - except the runner-up of a bracket
without a reset, who lost once, in ``GF`` (``loss_count``). Third-place and consolation matches
are checked for their feeders but never count as eliminations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import rustworkx as rx

from .brackets import Bracket, BracketMatch, SeedSlot, Slot, WinnerOf
from .reasons import Reason, gettext_noop, reason
from .records import (
    CONSTRAINT_UNTIL,
    BracketTable,
    EntryRecord,
    PastMatch,
    RoundKind,
    RoundPairing,
    Violation,
    constraint_between,
)
from .violations import (
    BRACKET_OVERRIDE,
    BYE_NOT_ACTIVE,
    BYE_NOT_IN_EVENT,
    NOT_ACTIVE,
    NOT_IN_EVENT,
    TABLE_NUMBER,
    RoundReport,
    already_placed,
    bye_and_placed,
    violation,
)


def _opponents(history: Iterable[PastMatch]) -> dict[int, dict[int, int]]:
    """player -> {opponent player -> the latest round they met}."""
    seen: dict[int, dict[int, int]] = {}
    for m in history:
        if m.entry_b is None:
            continue
        for p in m.players_a:
            for q in m.players_b:
                seen.setdefault(p, {})[q] = max(m.round_no, seen.get(p, {}).get(q, 0))
                seen.setdefault(q, {})[p] = max(m.round_no, seen.get(q, {}).get(p, 0))
    return seen


def _meeting(
    a: EntryRecord, b: EntryRecord, opponents: dict[int, dict[int, int]]
) -> tuple[int, int, int] | None:
    """(player of a, player of b, round) of a past meeting, or None."""
    for p in sorted(a.player_ids):
        met = opponents.get(p, {})
        for q in sorted(b.player_ids):
            if q in met:
                return p, q, met[q]
    return None


def fewest_rematches(active: Sequence[EntryRecord], opponents: dict[int, dict[int, int]]) -> int:
    """The fewest rematches any complete pairing of ``active`` must contain.

    Any pairing of ``P`` pairs with ``r`` rematches contains ``P - r`` rematch-free pairs, so
    ``r >= P - M`` where ``M`` is the largest rematch-free matching; and ``M`` pairs can always
    be completed with rematch pairs, so the bound is reached. An odd field adds a bye node joined
    (rematch-free) to the entries with the fewest byes.
    """
    n = len(active)
    graph: rx.PyGraph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(n + (n % 2)))
    for i in range(n):
        for j in range(i + 1, n):
            if _meeting(active[i], active[j], opponents) is None:
                graph.add_edge(i, j, None)
    if n % 2:
        fewest = min(e.byes_received for e in active)
        for i, e in enumerate(active):
            if e.byes_received == fewest:
                graph.add_edge(i, n, None)
    largest = len(rx.max_weight_matching(graph, max_cardinality=True, default_weight=1))
    return (n + 1) // 2 - largest


def fewest_rematches_and_constraint_pairs(
    active: Sequence[EntryRecord], opponents: dict[int, dict[int, int]]
) -> tuple[int, int]:
    """The fewest rematches of any complete pairing of ``active``, and the fewest pairs the
    director asked to keep apart among the pairings with that many rematches.

    A dense matching with weight ``BIG * [no rematch] + [no constraint]`` per pair (``BIG``
    larger than the number of pairs) and ``BIG + 1`` for the bye (entries with the fewest byes):
    its maximum total ``BIG * (P - r) + (P - c)`` gives both counts.
    """
    n = len(active)
    pairs = (n + 1) // 2
    big = pairs + 1
    graph: rx.PyGraph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(n + (n % 2)))
    for i in range(n):
        for j in range(i + 1, n):
            weight = big * (_meeting(active[i], active[j], opponents) is None)
            weight += constraint_between(active[i], active[j]) is None
            graph.add_edge(i, j, weight)
    if n % 2:
        fewest = min(e.byes_received for e in active)
        for i, e in enumerate(active):
            if e.byes_received == fewest:
                graph.add_edge(i, n, big + 1)
    mates = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    total = sum(int(graph.get_edge_data(a, b)) for a, b in mates)
    return pairs - total // big, pairs - total % big


def check_round(
    round_pairing: RoundPairing,
    entries: Sequence[EntryRecord],
    history: Iterable[PastMatch],
    *,
    kind: RoundKind | None = None,
    constraint_until: int = CONSTRAINT_UNTIL,
) -> list[Violation]:
    """Every violation in ``round_pairing`` given the entries (as before the round) and the
    history of earlier rounds. An empty list means the round is clean. ``kind`` defaults to
    the round's own; ``constraint_until`` is the event's last round where the director's
    constraints rank above score groups (they are checked up to it)."""
    kind = kind or round_pairing.kind
    by_id = {e.entry_id: e for e in entries}
    active = [e for e in entries if e.active]
    report = RoundReport(round_pairing.round_no)
    seen = _check_seats(round_pairing, by_id, report)
    _check_pins(round_pairing, by_id, report)
    if kind == "bracket":
        return report.out
    _check_byes(round_pairing, by_id, active, len(entries) - len(active), kind, seen, report)
    if kind != "swiss":
        return report.out
    opponents = _opponents(history)
    rematches = _check_rematches(round_pairing, by_id, active, opponents, report)
    if round_pairing.round_no <= constraint_until:
        _check_constraints(round_pairing, by_id, active, opponents, rematches, report)
    return report.out


def _check_seats(
    round_pairing: RoundPairing, by_id: Mapping[int, EntryRecord], report: RoundReport
) -> dict[int, int | None]:
    """Table numbers, self-pairings, unknown, inactive and doubly placed entries; returns where
    each entry is (its table, or None for the bye)."""
    seen: dict[int, int | None] = {}
    tables: set[int] = set()
    for p in round_pairing.pairings:
        if p.table < 1 or p.table in tables:
            report(p.table, "table", reason(TABLE_NUMBER, table=p.table), None)
        tables.add(p.table)
        if p.entry_a == p.entry_b:
            itself = reason(gettext_noop("entry %(entry)s is paired with itself"), entry=p.entry_a)
            report(p.table, "self_pairing", itself, p.override)
        for e in (p.entry_a, p.entry_b):
            if e not in by_id:
                report(p.table, "unknown_entry", reason(NOT_IN_EVENT, entry=e), p.override)
            elif not by_id[e].active:
                report(p.table, "inactive", reason(NOT_ACTIVE, entry=e), p.override)
            if e in seen and not (p.entry_a == p.entry_b and e == p.entry_b):
                report(p.table, "duplicate", already_placed(e, seen[e]), p.override)
            seen.setdefault(e, p.table)
    for b in round_pairing.byes:
        if b.entry_id not in by_id:
            report(None, "unknown_entry", reason(BYE_NOT_IN_EVENT, entry=b.entry_id), b.override)
        elif not by_id[b.entry_id].active:
            report(None, "inactive", reason(BYE_NOT_ACTIVE, entry=b.entry_id), b.override)
        if b.entry_id in seen:
            placed = bye_and_placed(b.entry_id, seen[b.entry_id])
            report(None, "duplicate", placed, b.override)
        seen.setdefault(b.entry_id, None)
    return seen


def _check_pins(
    round_pairing: RoundPairing, by_id: Mapping[int, EntryRecord], report: RoundReport
) -> None:
    """An entry pinned to a table sits there, unless its opponent is pinned to the table it sits
    at or its own table is held by another pinned entry."""
    pinned_at = {}
    for p in round_pairing.pairings:
        for e in (p.entry_a, p.entry_b):
            rec = by_id.get(e)
            if rec is not None and rec.pinned_table == p.table:
                pinned_at[p.table] = e
    for p in round_pairing.pairings:
        for e, other in ((p.entry_a, p.entry_b), (p.entry_b, p.entry_a)):
            rec = by_id.get(e)
            if rec is None or rec.pinned_table is None or rec.pinned_table == p.table:
                continue
            opp = by_id.get(other)
            opponent_kept = opp is not None and opp.pinned_table == p.table
            held = pinned_at.get(rec.pinned_table) not in (None, e)
            if not (opponent_kept or held):
                pin = reason(
                    gettext_noop(
                        "entry %(entry)s is pinned to table %(pin)s but sits at table %(table)s"
                    ),
                    entry=e,
                    pin=rec.pinned_table,
                    table=p.table,
                )
                report(p.table, "pin", pin, p.override)


def _check_byes(
    round_pairing: RoundPairing,
    by_id: Mapping[int, EntryRecord],
    active: Sequence[EntryRecord],
    withdrawn: int,
    kind: RoundKind,
    seen: Mapping[int, int | None],
    report: RoundReport,
) -> None:
    """Every active entry placed, the number of byes (one for an odd field; a kept round-robin
    circle may give more), and no second bye while another entry has had fewer."""
    for entry in active:
        if entry.entry_id not in seen:
            missing = gettext_noop("active entry %(entry)s is not in the round")
            report(None, "missing", reason(missing, entry=entry.entry_id))
    expected_byes = len(active) % 2
    if kind == "round_robin" and expected_byes < len(round_pairing.byes) <= 1 + withdrawn:
        # a kept circle gives a bye to whoever would have met a withdrawn entry
        expected_byes = len(round_pairing.byes)
    if len(round_pairing.byes) != expected_byes:
        count = reason(
            gettext_noop("%(byes)s byes for %(active)s active entries (expected %(expected)s)"),
            byes=len(round_pairing.byes),
            active=len(active),
            expected=expected_byes,
        )
        report(None, "bye_count", count)
    if active and not (kind == "round_robin" and withdrawn):
        fewest = min(e.byes_received for e in active)
        for b in round_pairing.byes:
            rec = by_id.get(b.entry_id)
            if rec is not None and rec.byes_received > fewest:
                second = reason(
                    gettext_noop(
                        "entry %(entry)s already had %(had)s bye(s); entries with %(fewest)s "
                        "could take it"
                    ),
                    entry=b.entry_id,
                    had=rec.byes_received,
                    fewest=fewest,
                )
                report(None, "second_bye", second, b.override)


def _check_rematches(
    round_pairing: RoundPairing,
    by_id: Mapping[int, EntryRecord],
    active: Sequence[EntryRecord],
    opponents: dict[int, dict[int, int]],
    report: RoundReport,
) -> int:
    """Rematches, reported when the round has more than the field needs; returns how many."""
    rematches = []
    for p in round_pairing.pairings:
        rec_a, rec_b = by_id.get(p.entry_a), by_id.get(p.entry_b)
        if rec_a is None or rec_b is None or rec_a is rec_b:
            continue
        meeting = _meeting(rec_a, rec_b, opponents)
        if meeting is not None:
            rematches.append((p, meeting))
    if rematches:
        needed = fewest_rematches(active, opponents)
        if len(rematches) > needed:
            for p, (pa, pb, when) in rematches:
                met = reason(
                    gettext_noop(
                        "entries %(entry_a)s and %(entry_b)s have met (players %(player_a)s and "
                        "%(player_b)s, round %(round)s); the round has %(count)s rematch(es), "
                        "the field needs %(needed)s"
                    ),
                    entry_a=p.entry_a,
                    entry_b=p.entry_b,
                    player_a=pa,
                    player_b=pb,
                    round=when,
                    count=len(rematches),
                    needed=needed,
                )
                report(p.table, "rematch", met, p.override)
    return len(rematches)


def _check_constraints(
    round_pairing: RoundPairing,
    by_id: Mapping[int, EntryRecord],
    active: Sequence[EntryRecord],
    opponents: dict[int, dict[int, int]],
    rematches: int,
    report: RoundReport,
) -> None:
    """Pairs the director keeps apart, reported when the field could keep more of them apart
    without more rematches."""
    apart = []
    for p in round_pairing.pairings:
        rec_a, rec_b = by_id.get(p.entry_a), by_id.get(p.entry_b)
        if rec_a is None or rec_b is None or rec_a is rec_b:
            continue
        why = constraint_between(rec_a, rec_b)
        if why is not None:
            apart.append((p, why))
    if apart:
        fewest_r, fewest_c = fewest_rematches_and_constraint_pairs(active, opponents)
        if rematches <= fewest_r and len(apart) > fewest_c:
            for p, why in apart:
                kept = reason(
                    gettext_noop(
                        "entries %(entry_a)s and %(entry_b)s are to be kept apart "
                        "(%(constraint)s); the round has %(count)s such pair(s), the field "
                        "needs %(needed)s"
                    ),
                    entry_a=p.entry_a,
                    entry_b=p.entry_b,
                    constraint=why,
                    count=len(apart),
                    needed=fewest_c,
                )
                report(p.table, "club" if why.startswith("club:") else "avoid", kept, p.override)


def check_bracket(bracket: Bracket, tables: Iterable[BracketTable]) -> list[Violation]:
    """Every violation in the bracket matches tabled so far (see "Brackets" in the module
    docstring). ``tables`` may come in any order; an empty list means the bracket is clean."""
    records = sorted(tables, key=lambda t: (t.round_no, t.table))
    matches: dict[str, BracketMatch] = {m.match_id: m for r in bracket.rounds for m in r.matches}
    out: list[Violation] = []
    by_match = _tabled_matches(bracket, matches, records, out)
    outcomes = _Outcomes(bracket, by_match)
    order = {match_id: i for i, match_id in enumerate(matches)}
    tabled = sorted(by_match, key=order.__getitem__)
    gf_won_by_a = "GF" in matches and outcomes.winner("GF") is not None
    gf_won_by_a = gf_won_by_a and outcomes.winner("GF") == outcomes.resolved(matches["GF"].slot_a)
    _check_feeders(matches, by_match, tabled, outcomes, gf_won_by_a, out)
    _check_losses(bracket, matches, by_match, tabled, outcomes, gf_won_by_a, out)
    return out


def _bracket_report(
    out: list[Violation], t: BracketTable, code: str, template: str, **args: int | str
) -> None:
    """Add one violation at a tabled bracket match (``override`` with the director's reason);
    ``template`` starts with the match (``%(match)s: ``)."""
    detail: Reason = reason(template, match=t.match_id, **args)
    out.append(violation(t.round_no, t.table, code, detail, t.override, wrapper=BRACKET_OVERRIDE))


def _tabled_matches(
    bracket: Bracket,
    matches: Mapping[str, BracketMatch],
    records: Sequence[BracketTable],
    out: list[Violation],
) -> dict[str, BracketTable]:
    """The tabled matches by id, checking each: a known match, tabled once, no entry at a table
    in a round its bye skips, a winner who played; returns the first tabling of each match."""
    # the round in which each seed first plays: byes put it after round 1
    first_round: dict[int, int] = {}
    for m in matches.values():
        for slot in (m.slot_a, m.slot_b):
            if isinstance(slot, SeedSlot):
                first_round[bracket.seeds[slot.seed - 1]] = m.round_no
    bye_entries = {bracket.seeds[s - 1] for s in bracket.byes if s <= len(bracket.seeds)}
    by_match: dict[str, BracketTable] = {}
    for t in records:
        match = matches.get(t.match_id)
        if match is None:
            _bracket_report(
                out, t, "unknown_match", gettext_noop("%(match)s: no such match in the bracket")
            )
            continue
        if t.match_id in by_match:
            other = by_match[t.match_id]
            _bracket_report(
                out,
                t,
                "duplicate",
                gettext_noop("%(match)s: also tabled in round %(round)s table %(table)s"),
                round=other.round_no,
                table=other.table,
            )
            continue
        by_match[t.match_id] = t
        for e in (t.entry_a, t.entry_b):
            if e in bye_entries and match.section == "winners" and match.round_no < first_round[e]:
                bye = gettext_noop("%(match)s: entry %(entry)s has a bye but sits at a table")
                _bracket_report(out, t, "bye", bye, entry=e)
        if t.winner is not None and t.winner not in (t.entry_a, t.entry_b):
            stranger = gettext_noop("%(match)s: winner %(entry)s did not play in this match")
            _bracket_report(out, t, "winner", stranger, entry=t.winner)
    return by_match


class _Outcomes:
    """Who won and lost each tabled match, and whom a slot resolves to, from the tables."""

    def __init__(self, bracket: Bracket, by_match: Mapping[str, BracketTable]) -> None:
        self.bracket = bracket
        self.by_match = by_match

    def winner(self, match_id: str) -> int | None:
        t = self.by_match.get(match_id)
        if t is None or t.winner not in (t.entry_a, t.entry_b):
            return None
        return t.winner

    def loser(self, match_id: str) -> int | None:
        t = self.by_match.get(match_id)
        w = self.winner(match_id)
        if t is None or w is None:
            return None
        return t.entry_b if w == t.entry_a else t.entry_a

    def resolved(self, slot: Slot) -> int | None:
        if isinstance(slot, SeedSlot):
            return self.bracket.seeds[slot.seed - 1]
        if isinstance(slot, WinnerOf):
            return self.winner(slot.match_id)
        return self.loser(slot.match_id)


def _check_feeders(
    matches: Mapping[str, BracketMatch],
    by_match: Mapping[str, BracketTable],
    tabled: Sequence[str],
    outcomes: _Outcomes,
    gf_won_by_a: bool,
    out: list[Violation],
) -> None:
    """Each tabled match seats whom its slots resolve to, once they are decided; no reset
    after the winners' champion won the grand final."""
    for match_id in tabled:
        t, match = by_match[match_id], matches[match_id]
        if match_id == "GF2" and gf_won_by_a:
            no_reset = gettext_noop("%(match)s: the winners' bracket champion won GF: no reset")
            _bracket_report(out, t, "reset_not_needed", no_reset)
        want = (outcomes.resolved(match.slot_a), outcomes.resolved(match.slot_b))
        if None in want:
            early = gettext_noop(
                "%(match)s: tabled before its feeders were decided (slots %(slots)s)"
            )
            _bracket_report(out, t, "not_ready", early, slots=str(want))
        elif {t.entry_a, t.entry_b} != set(want):
            _bracket_report(
                out,
                t,
                "feeder",
                gettext_noop(
                    "%(match)s: entries %(entry_a)s v %(entry_b)s, but its slots resolve to "
                    "%(slot_a)s v %(slot_b)s"
                ),
                entry_a=t.entry_a,
                entry_b=t.entry_b,
                slot_a=str(want[0]),
                slot_b=str(want[1]),
            )


def _check_losses(
    bracket: Bracket,
    matches: Mapping[str, BracketMatch],
    by_match: Mapping[str, BracketTable],
    tabled: Sequence[str],
    outcomes: _Outcomes,
    gf_won_by_a: bool,
    out: list[Violation],
) -> None:
    """Nobody plays on after elimination (one loss single, two double); once a double bracket
    is finished, everyone but the champion was eliminated with the right number of losses."""
    main = ("winners",) if bracket.kind == "single" else ("winners", "losers", "final")
    losses: Counter[int] = Counter()
    last: dict[int, BracketTable] = {}
    for match_id in tabled:
        t = by_match[match_id]
        lost = outcomes.loser(match_id)
        if lost is None or matches[match_id].section not in main:
            continue
        losses[lost] += 1
        last[lost] = t
        limit = 1 if bracket.kind == "single" else 2
        if losses[lost] > limit:
            again = gettext_noop("%(match)s: entry %(entry)s loses again after %(limit)s loss(es)")
            _bracket_report(out, t, "eliminated_twice", again, entry=lost, limit=limit)
    if bracket.kind == "double" and _double_finished(matches, by_match, gf_won_by_a):
        final = "GF2" if "GF2" in by_match else "GF"
        champion = outcomes.winner(final)
        for e in bracket.seeds:
            if e == champion:
                continue
            allowed = {2}
            if final == "GF" and "GF2" not in matches and outcomes.loser("GF") == e:
                allowed = {1, 2}  # no reset: the winners' champion may lose GF with one loss
            if losses[e] not in allowed:
                where = last.get(e) or by_match[final]
                out_with = gettext_noop(
                    "%(match)s: entry %(entry)s was eliminated with %(losses)s loss(es)"
                )
                _bracket_report(out, where, "loss_count", out_with, entry=e, losses=losses[e])


def _double_finished(
    matches: Mapping[str, BracketMatch],
    by_match: Mapping[str, BracketTable],
    gf_won_by_a: bool,
) -> bool:
    """Whether every match of a double-elimination bracket that must be played was decided."""
    for match_id in matches:
        if match_id == "GF2" and gf_won_by_a:
            continue
        t = by_match.get(match_id)
        if t is None or t.winner is None:
            return False
    return True
