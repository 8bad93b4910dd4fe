"""The bracket as a drawing: boxes, lines and column headings for the public bracket page's
inline SVG (``templates/tournaments/bracket/``), one drawing per section (the winners' bracket,
the losers', third place or consolation, the grand final).

Each bracket match is a box: a heading (its id, and what is happening: waiting, ready, at a table,
played, not needed), then its two entries (seed, name, score) with the winner emphasised. A seed
with a bye is a one-row box in the first column, its line running into the match it enters.

Layout: a section's columns are its rounds; a column's boxes share the section's height evenly,
ordered after the boxes their winners feed, so a power-of-two bracket draws as a tree. Sizes are
in CSS pixels at 1:1 (the page scrolls sideways on a phone; text is never below 12px).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from tournaments import game
from tournaments.models import Round
from tournaments.pairing.brackets import Bracket, BracketMatch, SeedSlot, Slot, WinnerOf
from tournaments.pairing.progression import MatchState
from tournaments.presenters.scores import raw_from_halves
from tournaments.selectors.bracket import BracketView, SeriesView

BOX_W = 230
HEAD_H = 18
ROW_H = 24
BOX_H = HEAD_H + 2 * ROW_H + 4
BYE_H = HEAD_H + ROW_H + 4
SLOT_H = BOX_H + 16
GAP_X = 40
TOP = 30  # the column headings' band
PAD = 6
NAME_CHARS = 22

SECTION_TITLES = {
    "winners": gettext_lazy("Winners' bracket"),
    "losers": gettext_lazy("Losers' bracket"),
    "third_place": gettext_lazy("Match for third place"),
    "consolation": gettext_lazy("Consolation bracket"),
    "final": gettext_lazy("Grand final"),
}
SECTION_ORDER = ("winners", "losers", "third_place", "consolation", "final")


@dataclass(frozen=True)
class Row:
    """One side of a box: ``state`` is ``win``, ``lost``, ``open`` (in play or to play) or
    ``unknown`` (its feeder is not decided: ``name`` says which match it waits for)."""

    top: int
    seed: str
    name: str
    full_name: str
    score: str
    state: str


@dataclass(frozen=True)
class Box:
    match_id: str
    x: int
    y: int
    height: int
    status: str  # waiting, ready, playing, decided, skipped, bye
    heading: str
    rows: tuple[Row, ...]
    href: str = ""


@dataclass(frozen=True)
class Heading:
    x: int
    text: str


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    width: int
    height: int
    headings: tuple[Heading, ...]
    boxes: tuple[Box, ...]
    lines: tuple[str, ...]  # SVG path data

    @property
    def box_width(self) -> int:
        return BOX_W


@dataclass(frozen=True)
class Drawing:
    sections: tuple[Section, ...]
    champion: str
    runner_up: str
    in_play: int

    @property
    def width(self) -> int:
        """The widest section's width: the projector draws every section on this canvas, so
        that all of them scale alike to the screen's width."""
        return max((s.width for s in self.sections), default=0)


def _round_names(section: str, rounds: list[int], double: bool) -> dict[int, str]:
    last = rounds[-1] if rounds else 0
    names: dict[int, str] = {}
    for r in rounds:
        if section == "winners":
            names[r] = _winners_round(last - r, r, double)
        elif section == "losers":
            names[r] = (
                _("Losers' final") if r == last else _("Losers' round %(round)s") % {"round": r}
            )
        elif section == "consolation":
            names[r] = (
                _("Consolation final")
                if r == last
                else _("Consolation round %(round)s") % {"round": r}
            )
        elif section == "final":
            names[r] = _("Grand final") if r == 1 else _("Reset")
        else:
            names[r] = _("Third place")
    return names


def _winners_round(from_last: int, number: int, double: bool) -> str:
    """A winners' bracket round's name: the last three by stage, earlier ones by number."""
    if double:
        ends = {
            0: _("Winners' final"),
            1: _("Winners' semi-finals"),
            2: _("Winners' quarter-finals"),
        }
        return ends.get(from_last, _("Winners' round %(round)s") % {"round": number})
    ends = {0: _("Final"), 1: _("Semi-finals"), 2: _("Quarter-finals")}
    return ends.get(from_last, _("Round %(round)s") % {"round": number})


def _order_columns(
    bracket: Bracket, section: str, rounds: list[int]
) -> dict[int, list[BracketMatch | int]]:
    """Each round's items (bracket matches, and in the first winners' round the seeds with a
    bye), ordered after the slots of the round they feed, the last round first."""
    columns: dict[int, list[BracketMatch | int]] = {r: [] for r in rounds}
    for rnd in bracket.rounds:
        if rnd.section == section:
            columns[rnd.round_no].extend(rnd.matches)
    byes = section == "winners" and bool(bracket.byes)
    for i in range(len(rounds) - 2, -1, -1):
        later: list[BracketMatch] = _matches(columns[rounds[i + 1]])
        current: list[BracketMatch] = _matches(columns[rounds[i]])
        if i == 0 and byes:
            columns[rounds[0]] = _with_byes(current, later, bracket.byes)
            continue
        position: dict[str, float] = {}
        for n, m in enumerate(later):
            for k, slot in enumerate((m.slot_a, m.slot_b)):
                if isinstance(slot, WinnerOf):
                    position.setdefault(slot.match_id, n + k / 2)
        ordered = sorted(current, key=lambda x: position.get(x.match_id, len(later)))
        columns[rounds[i]] = [*ordered]
    return columns


def _matches(items: list[BracketMatch | int]) -> list[BracketMatch]:
    return [x for x in items if isinstance(x, BracketMatch)]


def _with_byes(
    first: list[BracketMatch], second: list[BracketMatch], byes: tuple[int, ...]
) -> list[BracketMatch | int]:
    """The first winners' round with a bye (its seed) where the second round takes a seed."""
    known = {m.match_id: m for m in first}
    items: list[BracketMatch | int] = []
    for m in second:
        for slot in (m.slot_a, m.slot_b):
            if isinstance(slot, SeedSlot) and slot.seed in byes:
                items.append(slot.seed)
            elif isinstance(slot, WinnerOf) and slot.match_id in known:
                items.append(known.pop(slot.match_id))
    return items + list(known.values())


class _Painter:
    """Turns one bracket match's state into a box's heading and rows."""

    def __init__(
        self,
        view: BracketView,
        names: dict[int, str],
        event: Any,
        show_results: bool,
        match_url: Callable[[int], str],
    ) -> None:
        self.view = view
        self.names = names
        self.event = event
        self.show_results = show_results
        self.match_url = match_url
        assert view.progress is not None
        self.states = {m.match_id: m for m in view.progress.matches}
        self.seed_of = {e: s for s, e in enumerate(view.bracket.seeds, start=1)}

    def name(self, entry: int, *, chars: int = NAME_CHARS) -> tuple[str, str]:
        full = self.names.get(entry, _("Entry %(entry)s") % {"entry": entry})
        short = full if len(full) <= chars else full[: chars - 1] + "…"
        return short, full

    def series(self, match_id: str) -> SeriesView | None:
        s = self.view.tabled.get(match_id)
        if s is None or s.round.status == Round.Status.DRAFT:
            return None  # a draft round is not public yet
        return s

    def scores(self, series: SeriesView | None) -> dict[int, str]:
        if series is None or not self.show_results:
            return {}
        first = series.games[0]
        if first.best_of > 1:
            state = series.series
            return {state.entry_a: str(state.wins_a), state.entry_b: str(state.wins_b)}
        result = series.results[0]
        if result is None:
            return {}
        if series.forfeit:
            loser = first.entry_a_id if series.forfeit == "a" else first.entry_b_id
            return {int(loser or 0): _("forfeit")}
        out: dict[int, str] = {}
        for entry, halves in (
            (first.entry_a_id, result.score_a_halves),
            (first.entry_b_id, result.score_b_halves),
        ):
            if entry is not None and halves is not None:
                out[entry] = game.format_displayed(raw_from_halves(halves), self.event)
        return out

    def heading(self, state: MatchState, series: SeriesView | None) -> tuple[str, str]:
        """(status, heading text)."""
        where = (
            _("Table %(table)s") % {"table": series.current_game.table.number}
            if series and series.current_game.table
            else ""
        )
        if state.status == "skipped":
            return "skipped", f"{state.match_id} · {_('not needed')}"
        if state.status == "decided":
            return "decided", " · ".join(x for x in (state.match_id, where, _("played")) if x)
        if state.status == "ready" and series is not None:
            best_of = series.games[0].best_of
            game_no = series.current_game.game_no
            extra = (
                _("game %(game)s of %(best_of)s") % {"game": game_no, "best_of": best_of}
                if best_of > 1
                else _("in play")
            )
            return "playing", " · ".join(x for x in (state.match_id, where, extra) if x)
        if state.status == "ready":
            return "ready", f"{state.match_id} · {_('ready: next to play')}"
        return "waiting", f"{state.match_id} · {_('waiting')}"

    def rows(self, m: BracketMatch, state: MatchState, top: int) -> tuple[Row, ...]:
        series = self.series(m.match_id)
        scores = self.scores(series)
        rows = []
        for i, (slot, entry) in enumerate(((m.slot_a, state.entry_a), (m.slot_b, state.entry_b))):
            y = top + HEAD_H + i * ROW_H
            if entry is None:
                rows.append(Row(y, "", _waiting_for(slot), "", "", "unknown"))
                continue
            status = "open"
            if state.status == "decided" and self.show_results:
                status = "win" if entry == state.winner else "lost"
            # a winner's name is bold and ticked: fewer characters fit before the score
            short, full = self.name(entry, chars=NAME_CHARS - 4 if status == "win" else NAME_CHARS)
            rows.append(
                Row(y, str(self.seed_of.get(entry, "")), short, full, scores.get(entry, ""), status)
            )
        return tuple(rows)

    def box(self, m: BracketMatch, x: int, y: int) -> Box:
        state = self.states[m.match_id]
        series = self.series(m.match_id)
        status, heading = self.heading(state, series)
        href = ""
        if series is not None and self.show_results and state.status == "decided":
            href = self.match_url(series.games[0].pk)
        return Box(m.match_id, x, y, BOX_H, status, heading, self.rows(m, state, y), href)

    def bye(self, seed: int, x: int, y: int) -> Box:
        entry = self.view.bracket.seeds[seed - 1]
        short, full = self.name(entry)
        row = Row(y + HEAD_H, str(seed), short, full, "", "win")
        return Box(f"bye-{seed}", x, y, BYE_H, "bye", _("Bye: advances"), (row,))


def _waiting_for(slot: Slot) -> str:
    if isinstance(slot, SeedSlot):
        return _("Seed %(seed)s") % {"seed": slot.seed}
    if isinstance(slot, WinnerOf):
        return _("Winner of %(match)s") % {"match": slot.match_id}
    return _("Loser of %(match)s") % {"match": slot.match_id}


def _section(painter: _Painter, section: str) -> Section | None:
    bracket = painter.view.bracket
    rounds = sorted({r.round_no for r in bracket.rounds if r.section == section})
    if not rounds:
        return None
    columns = _order_columns(bracket, section, rounds)
    tallest = max(len(items) for items in columns.values())
    height = TOP + tallest * SLOT_H + PAD
    names = _round_names(section, rounds, bracket.kind == "double")
    boxes: list[Box] = []
    headings: list[Heading] = []
    exits: dict[str, tuple[int, int]] = {}  # match id or bye-<seed> -> its right edge's middle
    for col, r in enumerate(rounds):
        x = PAD + col * (BOX_W + GAP_X)
        headings.append(Heading(x, names[r]))
        items = columns[r]
        slot_h = (tallest * SLOT_H) / max(len(items), 1)
        for i, item in enumerate(items):
            middle = TOP + int((i + 0.5) * slot_h)
            if isinstance(item, BracketMatch):
                box = painter.box(item, x, middle - BOX_H // 2)
            else:
                box = painter.bye(item, x, middle - BYE_H // 2)
            boxes.append(box)
            exits[box.match_id] = (x + BOX_W, box.y + box.height // 2)
    lines = _lines(bracket, section, boxes, exits)
    width = PAD * 2 + len(rounds) * BOX_W + (len(rounds) - 1) * GAP_X
    return Section(
        section,
        _title(section, bracket),
        width,
        height,
        tuple(headings),
        tuple(boxes),
        tuple(lines),
    )


def _title(section: str, bracket: Bracket) -> str:
    if section == "winners" and bracket.kind == "single":
        return _("Bracket")
    return str(SECTION_TITLES[section])


def _lines(
    bracket: Bracket, section: str, boxes: list[Box], exits: dict[str, tuple[int, int]]
) -> list[str]:
    """Elbow lines from each feeder (a match whose winner goes on, or a bye) to the row it
    fills, within the section."""
    lines = []
    for box in boxes:
        if box.status == "bye":
            continue
        m = bracket.match(box.match_id)
        for i, slot in enumerate((m.slot_a, m.slot_b)):
            key = ""
            if isinstance(slot, WinnerOf):
                key = slot.match_id
            elif isinstance(slot, SeedSlot):
                key = f"bye-{slot.seed}"
            if key not in exits:
                continue
            x1, y1 = exits[key]
            y2 = box.rows[i].top + ROW_H // 2
            mid = box.x - GAP_X // 2
            lines.append(f"M{x1} {y1}H{mid}V{y2}H{box.x}")
    return lines


def drawing(
    view: BracketView,
    names: dict[int, str],
    *,
    event: Any,
    show_results: bool,
    match_url: Callable[[int], str],
) -> Drawing:
    """The bracket page's drawing of ``view`` (entries named by ``names``); without
    ``show_results`` no score, no winner and no champion is shown (the event keeps its results
    private), only who plays whom."""
    painter = _Painter(view, names, event, show_results, match_url)
    sections = tuple(s for s in (_section(painter, key) for key in SECTION_ORDER) if s is not None)
    assert view.progress is not None
    champion = runner_up = ""
    if show_results and view.progress.champion is not None:
        champion = painter.name(view.progress.champion)[1]
        if view.progress.runner_up is not None:
            runner_up = painter.name(view.progress.runner_up)[1]
    in_play = sum(1 for s in sections for b in s.boxes if b.status == "playing")
    return Drawing(sections, champion, runner_up, in_play)


ORDINALS = {
    1: pgettext_lazy("place", "1st"),
    2: pgettext_lazy("place", "2nd"),
    3: pgettext_lazy("place", "3rd"),
}


def podium(placings: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """A finished event's podium from its frozen placings: places 1 to 3, each with its
    ``ordinal`` ("3rd") and ``shared`` (a shared 3rd shows as such)."""
    return [
        {**row, "ordinal": str(ORDINALS[int(row["place"])])}
        for row in placings or []
        if 1 <= int(row.get("place", 0)) <= 3
    ]
