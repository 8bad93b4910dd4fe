"""The audit log in sentences: one function per action kind, from an entry's action, before,
after and reason ("the director overrode table 7: 61-40, reason: board count").

Scores are shown in displayed points (:func:`tournaments.game.format_displayed`); nothing here
prints raw Python data. An action this module does not know still reads as a sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tournaments import game
from tournaments.models import AuditEntry, Event


@dataclass(frozen=True)
class AuditNames:
    """What a sentence needs to name things: entries and matches of the event by id."""

    entries: dict[int, str] = field(default_factory=dict)
    # match id -> (table number or None, first side's name, second side's name or "")
    matches: dict[int, tuple[int | None, str, str]] = field(default_factory=dict)

    def entry(self, entry_id: Any) -> str:
        try:
            return self.entries.get(int(entry_id), f"entry {entry_id}")
        except (TypeError, ValueError):
            return "an entry"

    def match(self, match_id: Any) -> str:
        """``"table 7 (Aces v Blanks)"``, ``"the bye of Aces"`` or ``"a match"``."""
        try:
            table, a, b = self.matches[int(match_id)]
        except (KeyError, TypeError, ValueError):
            return "a match"
        if table is None:
            return f"the bye of {a}"
        return f"table {table} ({a} v {b})" if b else f"table {table}"


@dataclass(frozen=True)
class AuditLine:
    """One audit entry as the log shows it."""

    entry: AuditEntry
    sentence: str
    reason: str


Presenter = Callable[[AuditEntry, Event, AuditNames], str]


def _who(entry: AuditEntry) -> str:
    if entry.actor is None:
        by = entry.after.get("by") if isinstance(entry.after, dict) else None
        if by:  # a side that acted through its table link (``audit.record(actor_label=...)``)
            return str(by)
        return "A table" if entry.action.startswith("result.") else "The system"
    user = entry.actor
    full = user.get_full_name() if hasattr(user, "get_full_name") else ""
    return full or user.username


def _scores(summary: Any, event: Event, names: AuditNames) -> str:
    """A result summary's score: ``"Aces 61 – 40 Blanks"`` in displayed points."""
    if not isinstance(summary, dict):
        return ""
    scores = summary.get("scores")
    if not isinstance(scores, list) or len(scores) != 2 or None in scores:
        return ""
    a, b = (game.format_displayed(s, event) for s in scores)
    table = names.matches.get(_int(summary.get("match")) or -1)
    if table is None:
        return f"{a}–{b}"
    return f"{table[1]} {a}–{b} {table[2]}".strip()


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _result(verb: str) -> Presenter:
    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        after = entry.after if isinstance(entry.after, dict) else {}
        where = names.match(after.get("match"))
        score = _scores(after, event, names)
        text = f"{_who(entry)} {verb} {where}"
        if score:
            text += f": {score}"
        before = _scores(entry.before, event, names)
        if before and before != score:
            text += f" (was {before})"
        return text

    return sentence


def _forfeit(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    """``"Dana recorded a forfeit at table 7 (Aces v Blanks): Aces 0–61 Blanks (Aces
    forfeited)"``."""
    after = entry.after if isinstance(entry.after, dict) else {}
    text = _result("recorded a forfeit at")(entry, event, names)
    who = after.get("forfeit")
    table = names.matches.get(_int(after.get("match")) or -1)
    if who in ("a", "b") and table is not None:
        text += f" ({table[1] if who == 'a' else table[2]} forfeited)"
    elif who == "both":
        text += " (a double forfeit)"
    return text


def _no_show(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    after = entry.after if isinstance(entry.after, dict) else {}
    where = names.match(after.get("match"))
    return (
        f"{_who(entry)} recorded {_entry_name(entry, names)} as a no-show at {where}, "
        "withdrawn from later rounds"
    )


def _entry_name(entry: AuditEntry, names: AuditNames) -> str:
    after = entry.after if isinstance(entry.after, dict) else {}
    return after.get("name") or names.entry(entry.object_id)


def _entry(verb: str) -> Presenter:
    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        return f"{_who(entry)} {verb} {_entry_name(entry, names)}"

    return sentence


def _round(verb: str) -> Presenter:
    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        data = entry.after if isinstance(entry.after, dict) else {}
        if not data and isinstance(entry.before, dict):
            data = entry.before
        number = data.get("number")
        what = f"round {number}" if number else "a round"
        return f"{_who(entry)} {verb} {what}"

    return sentence


def _round_status(verb: str) -> Presenter:
    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        return f"{_who(entry)} {verb}"

    return sentence


def _clock(verb: str) -> Presenter:
    """A round clock's move: ``"dana paused round 2's clock (12 min 30 s left)"``."""

    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        after = entry.after if isinstance(entry.after, dict) else {}
        number = after.get("number")
        text = f"{_who(entry)} {verb.format(round=f'round {number}' if number else 'a round')}"
        if entry.action == "round.clock_extend" and after.get("minutes"):
            text = text.replace("added time", f"added {after['minutes']} min", 1)
        left = _int(after.get("seconds_left"))
        if entry.action == "round.clock_pause" and left is not None:
            minutes, seconds = divmod(left, 60)
            text += f" ({minutes} min {seconds} s left)" if seconds else f" ({minutes} min left)"
        return text

    return sentence


def _generate(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    after = entry.after if isinstance(entry.after, dict) else {}
    text = f"{_who(entry)} generated round {after.get('number', '?')}"
    if after.get("matches"):
        text += f" ({after['matches']} matches)"
    return text


def _seed(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    after = entry.after if isinstance(entry.after, dict) else {}
    seed = after.get("seed")
    target = names.entry(entry.object_id)
    if seed is None:
        return f"{_who(entry)} removed the seed of {target}"
    return f"{_who(entry)} seeded {target} {seed}"


def _pin(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    after = entry.after if isinstance(entry.after, dict) else {}
    table = after.get("pinned_table")
    target = names.entry(entry.object_id)
    if table is None:
        return f"{_who(entry)} unpinned {target} from its table"
    return f"{_who(entry)} pinned {target} to table {table}"


def _rename(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    before = entry.before if isinstance(entry.before, dict) else {}
    after = entry.after if isinstance(entry.after, dict) else {}
    old = before.get("name") or names.entry(entry.object_id)
    return f"{_who(entry)} renamed {old} to {after.get('name', '?')}"


def _update(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    after = entry.after if isinstance(entry.after, dict) else {}
    fields = ", ".join(k.replace("_", " ") for k in after) or "nothing"
    return f"{_who(entry)} changed the event's settings: {fields}"


def _director(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    after = entry.after if isinstance(entry.after, dict) else {}
    return f"{_who(entry)} made {after.get('director', 'someone')} a director of this event"


def _league(verb: str) -> Presenter:
    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        data = entry.after if isinstance(entry.after, dict) else entry.before
        league = data.get("league", "a league") if isinstance(data, dict) else "a league"
        return f"{_who(entry)} {verb} the league “{league}”"

    return sentence


def _import(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    after = entry.after if isinstance(entry.after, dict) else {}
    count = len(after.get("entries") or [])
    return f"{_who(entry)} imported {count} entr{'y' if count == 1 else 'ies'}"


def _swap(kind: str) -> Presenter:
    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        return f"{_who(entry)} swapped {kind} in a draft round"

    return sentence


def _fixed(text: str) -> Presenter:
    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        return f"{_who(entry)} {text}"

    return sentence


PRESENTERS: dict[str, Presenter] = {
    "result.confirm": _result("confirmed"),
    "result.override": _result("overrode"),
    "result.resolve": _result("resolved the conflict at"),
    "result.correct": _result("corrected"),
    "result.forfeit": _forfeit,
    "entry.no_show": _no_show,
    "entry.register": _entry("registered"),
    "entry.register_late": _entry("registered late"),
    "entry.check_in": _entry("checked in"),
    "entry.undo_check_in": _entry("undid the check-in of"),
    "entry.withdraw": _entry("withdrew"),
    "entry.reinstate": _entry("reinstated"),
    "entry.set_seed": _seed,
    "entry.pin_table": _pin,
    "entry.rename": _rename,
    "entries.import": _import,
    "event.create": _fixed("created the event"),
    "event.update": _update,
    "event.add_director": _director,
    "league.add_event": _league("counted the event in"),
    "league.remove_event": _league("took the event out of"),
    "round.generate": _generate,
    "round.generate_requested": _fixed("asked for the next round"),
    "round.discard": _round("discarded the draft of"),
    "round.swap_entries": _swap("two entries"),
    "round.swap_tables": _swap("two tables"),
    "round.publish": _round_status("published a round"),
    "round.start": _round_status("put a round in play"),
    "round.clock_start": _clock("started {round}'s clock"),
    "round.clock_pause": _clock("paused {round}'s clock"),
    "round.clock_resume": _clock("restarted {round}'s clock"),
    "round.clock_extend": _clock("added time to {round}'s clock"),
    "round.clock_end": _clock("called time in {round}"),
    "round.close": _round_status("closed a round"),
    "round.playoff_bracket": _fixed("drew the play-off bracket"),
    "playoff.seed": _fixed("seeded the play-off"),
    "round.playoff_advance": _fixed("drafted the next play-off round"),
    "match.next_game": _fixed("set up the next game of a best-of play-off match"),
    "match.drop_game": _fixed("removed an unplayed game a correction made unnecessary"),
    "table_links.revoke": _fixed("revoked every table link of a round"),
    "tiebreak_round.propose": _fixed("proposed a tiebreak round"),
    "tiebreak_round.approve": _fixed("approved a tiebreak round"),
}


def fallback(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    """An action without its own sentence: ``"Ann recorded "match.frobnicate" on a match"``."""
    what = entry.object_type.replace("_", " ") or "the event"
    verb = entry.action.replace("_", " ").replace(".", ": ")
    return f"{_who(entry)} recorded “{verb}” on a {what}"


def describe(entry: AuditEntry, event: Event, names: AuditNames, rounds: dict[int, int]) -> str:
    """One audit entry as a sentence."""
    presenter = PRESENTERS.get(entry.action, fallback)
    text = presenter(entry, event, names)
    if entry.action in ("round.publish", "round.start", "round.close", "table_links.revoke"):
        number = rounds.get(_int(entry.object_id) or -1)
        if number is not None:
            text = text.replace("a round's", f"round {number}'s").replace(
                "a round", f"round {number}"
            )
    return text


def audit_lines(
    entries: list[AuditEntry], event: Event, names: AuditNames, rounds: dict[int, int]
) -> list[AuditLine]:
    """The log's lines, newest first as given."""
    return [AuditLine(e, describe(e, event, names, rounds), e.reason) for e in entries]
