"""The audit log in sentences: one function per action kind, from an entry's action, before,
after and reason ("the director overrode table 7: 61-40, reason: board count").

Scores are shown in displayed points (:func:`tournaments.game.format_displayed`); nothing here
prints raw Python data. An action this module does not know still reads as a sentence. Every
sentence is one translatable template with named parts (``%(who)s``), in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext
from django.utils.translation import gettext as _

from tournaments import game
from tournaments.models import AuditEntry, Event


@dataclass(frozen=True)
class AuditNames:
    """What a sentence needs to name things: entries and matches of the event by id, and the
    rounds' numbers by round id."""

    entries: dict[int, str] = field(default_factory=dict)
    # match id -> (table number or None, first side's name, second side's name or "")
    matches: dict[int, tuple[int | None, str, str]] = field(default_factory=dict)
    rounds: dict[int, int] = field(default_factory=dict)

    def entry(self, entry_id: Any) -> str:
        try:
            found = self.entries.get(int(entry_id))
        except (TypeError, ValueError):
            return gettext("an entry")
        return gettext("entry %(id)s") % {"id": entry_id} if found is None else found

    def match(self, match_id: Any) -> str:
        """``"table 7 (Aces v Blanks)"``, ``"the bye of Aces"`` or ``"a match"``."""
        try:
            table, a, b = self.matches[int(match_id)]
        except (KeyError, TypeError, ValueError):
            return gettext("a match")
        if table is None:
            return gettext("the bye of %(entry)s") % {"entry": a}
        if b:
            return gettext("table %(table)s (%(a)s v %(b)s)") % {"table": table, "a": a, "b": b}
        return gettext("table %(table)s") % {"table": table}


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
        return gettext("A table") if entry.action.startswith("result.") else gettext("The system")
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


def _after(entry: AuditEntry) -> dict[str, Any]:
    return entry.after if isinstance(entry.after, dict) else {}


def _round_words(number: Any) -> str:
    """``"round 3"`` (``"a round"`` without a number), as a sentence names it."""
    if number:
        return pgettext("the audit log", "round %(number)s") % {"number": number}
    return pgettext("the audit log", "a round")


def _result(template: Promise) -> Presenter:
    """``template``: ``%(who)s`` did what at ``%(where)s`` (the match)."""

    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        after = _after(entry)
        score = _scores(after, event, names)
        text = str(template) % {"who": _who(entry), "where": names.match(after.get("match"))}
        if score:
            text += f": {score}"
        before = _scores(entry.before, event, names)
        if before and before != score:
            text += gettext(" (was %(before)s)") % {"before": before}
        return text

    return sentence


def _forfeit(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    """``"Dana recorded a forfeit at table 7 (Aces v Blanks): Aces 0–61 Blanks (Aces
    forfeited)"``."""
    after = _after(entry)
    text = _result(gettext_lazy("%(who)s recorded a forfeit at %(where)s"))(entry, event, names)
    who = after.get("forfeit")
    table = names.matches.get(_int(after.get("match")) or -1)
    if who in ("a", "b") and table is not None:
        text += gettext(" (%(entry)s forfeited)") % {"entry": table[1] if who == "a" else table[2]}
    elif who == "both":
        text += gettext(" (a double forfeit)")
    return text


def _no_show(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    return gettext(
        "%(who)s recorded %(entry)s as a no-show at %(where)s, withdrawn from later rounds"
    ) % {
        "who": _who(entry),
        "entry": _entry_name(entry, names),
        "where": names.match(_after(entry).get("match")),
    }


def _entry_name(entry: AuditEntry, names: AuditNames) -> str:
    return _after(entry).get("name") or names.entry(entry.object_id)


def _entry(template: Promise) -> Presenter:
    """``template``: ``%(who)s`` did what to ``%(entry)s``."""

    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        return str(template) % {"who": _who(entry), "entry": _entry_name(entry, names)}

    return sentence


def _round(template: Promise) -> Presenter:
    """``template``: ``%(who)s`` did what to ``%(round)s`` (the round's number from the entry)."""

    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        data = _after(entry)
        if not data and isinstance(entry.before, dict):
            data = entry.before
        return str(template) % {"who": _who(entry), "round": _round_words(data.get("number"))}

    return sentence


def _of_round(template: Promise) -> Presenter:
    """``template``: ``%(who)s`` did what to ``%(round)s``, the round the entry is about (its
    ``object_id``), by its number where the log knows it."""

    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        number = names.rounds.get(_int(entry.object_id) or -1)
        return str(template) % {"who": _who(entry), "round": _round_words(number)}

    return sentence


def _clock(template: Promise) -> Presenter:
    """A round clock's move: ``"dana paused round 2's clock (12 min 30 s left)"``."""

    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        after = _after(entry)
        parts = {"who": _who(entry), "round": _round_words(after.get("number"))}
        if entry.action == "round.clock_extend" and after.get("minutes"):
            parts["minutes"] = after["minutes"]
            text = gettext("%(who)s added %(minutes)s min to %(round)s's clock") % parts
        else:
            text = str(template) % parts
        left = _int(after.get("seconds_left"))
        if entry.action == "round.clock_pause" and left is not None:
            minutes, seconds = divmod(left, 60)
            if seconds:
                text += gettext(" (%(m)s min %(s)s s left)") % {"m": minutes, "s": seconds}
            else:
                text += gettext(" (%(m)s min left)") % {"m": minutes}
        return text

    return sentence


def _generate(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    after = _after(entry)
    text = gettext("%(who)s generated round %(number)s") % {
        "who": _who(entry),
        "number": after.get("number", "?"),
    }
    if after.get("matches"):
        text += gettext(" (%(n)s matches)") % {"n": after["matches"]}
    return text


def _seed(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    seed = _after(entry).get("seed")
    parts = {"who": _who(entry), "entry": names.entry(entry.object_id), "seed": seed}
    if seed is None:
        return gettext("%(who)s removed the seed of %(entry)s") % parts
    return gettext("%(who)s seeded %(entry)s %(seed)s") % parts


def _pin(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    table = _after(entry).get("pinned_table")
    parts = {"who": _who(entry), "entry": names.entry(entry.object_id), "table": table}
    if table is None:
        return gettext("%(who)s unpinned %(entry)s from its table") % parts
    return gettext("%(who)s pinned %(entry)s to table %(table)s") % parts


def _rename(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    before = entry.before if isinstance(entry.before, dict) else {}
    after = entry.after if isinstance(entry.after, dict) else {}
    old = before.get("name") or names.entry(entry.object_id)
    return f"{_who(entry)} renamed {old} to {after.get('name', '?')}"


def _update(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    fields = ", ".join(k.replace("_", " ") for k in _after(entry)) or gettext("nothing")
    return gettext("%(who)s changed the event's settings: %(fields)s") % {
        "who": _who(entry),
        "fields": fields,
    }


def _director(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    return gettext("%(who)s made %(director)s a director of this event") % {
        "who": _who(entry),
        "director": _after(entry).get("director") or gettext("someone"),
    }


def _league(template: Promise) -> Presenter:
    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        data = entry.after if isinstance(entry.after, dict) else entry.before
        league = data.get("league") if isinstance(data, dict) else None
        return str(template) % {"who": _who(entry), "league": league or gettext("a league")}

    return sentence


def _import(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    count = len(_after(entry).get("entries") or [])
    return ngettext(
        "%(who)s imported %(count)s entry", "%(who)s imported %(count)s entries", count
    ) % {"who": _who(entry), "count": count}


def _fixed(template: Promise) -> Presenter:
    """``template``: what ``%(who)s`` did."""

    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        return str(template) % {"who": _who(entry)}

    return sentence


def _webhook(template: Promise) -> Presenter:
    """``template``: what ``%(who)s`` did to the endpoint ``%(url)s`` (after, else before)."""

    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        before = entry.before if isinstance(entry.before, dict) else {}
        url = _after(entry).get("url") or before.get("url") or ""
        return str(template) % {"who": _who(entry), "url": url}

    return sentence


def _api_key(template: Promise) -> Presenter:
    """``template``: what ``%(who)s`` did to the key ``%(key)s`` (its name, first
    characters and scope)."""

    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        after = _after(entry)
        scope = gettext("read only") if after.get("scope") == "read" else gettext("read and write")
        key = f"“{after.get('name') or ''}” ({after.get('prefix', '?')}…, {scope})"
        return str(template) % {"who": _who(entry), "key": key}

    return sentence


def _self_check_in(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    """``"Aces checked themselves in (with their entry's code)"``: the players, no account."""
    after = entry.after if isinstance(entry.after, dict) else {}
    name = _entry_name(entry, names)
    if "day_code" in str(after.get("by", "")):
        return _("%(entry)s checked themselves in (with the code for the day)") % {"entry": name}
    return _("%(entry)s checked themselves in (with their entry's code)") % {"entry": name}


def _self_check_in_refused(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    return _("A wrong check-in code was typed for %(entry)s") % {"entry": _entry_name(entry, names)}


def _self_check_in_setting(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    after = entry.after if isinstance(entry.after, dict) else {}
    if after.get("self_check_in"):
        given = _int(after.get("codes_given")) or 0
        text = _("%(who)s turned self check-in on") % {"who": _who(entry)}
        if given:
            text += " " + ngettext(
                "(%(n)d entry given a code)", "(%(n)d entries given a code)", given
            ) % {"n": given}
        return text
    return _("%(who)s turned self check-in off") % {"who": _who(entry)}


def _day_code(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    after = entry.after if isinstance(entry.after, dict) else {}
    if after.get("day_code") == "cleared":
        return _("%(who)s removed the check-in code for the day") % {"who": _who(entry)}
    return _("%(who)s set a new check-in code for the day") % {"who": _who(entry)}


def _apart(template: Any) -> Presenter:
    """``"Dana kept Ann and Bea apart (sisters)"``: a named pair to keep apart, added or
    removed, with the names recorded then."""

    def sentence(entry: AuditEntry, event: Event, names: AuditNames) -> str:
        data = entry.after if isinstance(entry.after, dict) and entry.after else entry.before
        data = data if isinstance(data, dict) else {}
        pair = [str(n) for n in data.get("names") or ()] + ["?", "?"]
        text = str(template) % {"who": _who(entry), "a": pair[0], "b": pair[1]}
        note = str(data.get("note") or "")
        return f"{text} ({note})" if note else text

    return sentence


PRESENTERS: dict[str, Presenter] = {
    "result.confirm": _result(gettext_lazy("%(who)s confirmed %(where)s")),
    "result.override": _result(gettext_lazy("%(who)s overrode %(where)s")),
    "result.resolve": _result(gettext_lazy("%(who)s resolved the conflict at %(where)s")),
    "result.correct": _result(gettext_lazy("%(who)s corrected %(where)s")),
    "result.forfeit": _forfeit,
    "entry.no_show": _no_show,
    "entry.register": _entry(gettext_lazy("%(who)s registered %(entry)s")),
    "entry.register_late": _entry(gettext_lazy("%(who)s registered late %(entry)s")),
    "entry.check_in": _entry(gettext_lazy("%(who)s checked in %(entry)s")),
    "entry.undo_check_in": _entry(gettext_lazy("%(who)s undid the check-in of %(entry)s")),
    "entry.withdraw": _entry(gettext_lazy("%(who)s withdrew %(entry)s")),
    "entry.reinstate": _entry(gettext_lazy("%(who)s reinstated %(entry)s")),
    "entry.self_check_in": _self_check_in,
    "entry.self_check_in_refused": _self_check_in_refused,
    "event.self_check_in": _self_check_in_setting,
    "event.check_in_day_code": _day_code,
    "entry.set_seed": _seed,
    "entry.pin_table": _pin,
    "entry.rename": _rename,
    "entry.avoid_add": _apart(gettext_lazy("%(who)s asked to keep %(a)s and %(b)s apart")),
    "entry.avoid_remove": _apart(gettext_lazy("%(who)s no longer keeps %(a)s and %(b)s apart")),
    "entries.import": _import,
    "event.create": _fixed(gettext_lazy("%(who)s created the event")),
    "event.finish": _fixed(gettext_lazy("%(who)s finished the event: its final placings froze")),
    "event.placings": _fixed(gettext_lazy("%(who)s froze the final placings again")),
    "standings.rerank": _fixed(gettext_lazy("%(who)s re-ranked the standings")),
    "entry.contact": _fixed(gettext_lazy("%(who)s changed a player's contact details")),
    "event.update": _update,
    "event.add_director": _director,
    "league.add_event": _league(
        gettext_lazy("%(who)s counted the event in the league “%(league)s”")
    ),
    "league.remove_event": _league(
        gettext_lazy("%(who)s took the event out of the league “%(league)s”")
    ),
    "round.generate": _generate,
    "round.generate_requested": _fixed(gettext_lazy("%(who)s asked for the next round")),
    "round.discard": _round(gettext_lazy("%(who)s discarded the draft of %(round)s")),
    "round.swap_entries": _fixed(gettext_lazy("%(who)s swapped two entries in a draft round")),
    "round.swap_tables": _fixed(gettext_lazy("%(who)s swapped two tables in a draft round")),
    "round.publish": _of_round(gettext_lazy("%(who)s published %(round)s")),
    "round.start": _of_round(gettext_lazy("%(who)s put %(round)s in play")),
    "round.clock_start": _clock(gettext_lazy("%(who)s started %(round)s's clock")),
    "round.clock_pause": _clock(gettext_lazy("%(who)s paused %(round)s's clock")),
    "round.clock_resume": _clock(gettext_lazy("%(who)s restarted %(round)s's clock")),
    "round.clock_extend": _clock(gettext_lazy("%(who)s added time to %(round)s's clock")),
    "round.clock_end": _clock(gettext_lazy("%(who)s called time in %(round)s")),
    "round.close": _of_round(gettext_lazy("%(who)s closed %(round)s")),
    "round.playoff_bracket": _fixed(gettext_lazy("%(who)s drew the play-off bracket")),
    "playoff.seed": _fixed(gettext_lazy("%(who)s seeded the play-off")),
    "round.playoff_advance": _fixed(gettext_lazy("%(who)s drafted the next play-off round")),
    "match.next_game": _fixed(
        gettext_lazy("%(who)s set up the next game of a best-of play-off match")
    ),
    "match.drop_game": _fixed(
        gettext_lazy("%(who)s removed an unplayed game a correction made unnecessary")
    ),
    "table_links.revoke": _of_round(gettext_lazy("%(who)s revoked every table link of %(round)s")),
    "tiebreak_round.propose": _fixed(gettext_lazy("%(who)s proposed a tiebreak round")),
    "tiebreak_round.approve": _fixed(gettext_lazy("%(who)s approved a tiebreak round")),
    "api_token.create": _api_key(
        gettext_lazy("%(who)s made the API key %(key)s, limited to events including this one")
    ),
    "api_token.revoke": _api_key(gettext_lazy("%(who)s revoked the API key %(key)s")),
    "webhook.add": _webhook(gettext_lazy("%(who)s added the webhook endpoint %(url)s")),
    "webhook.update": _webhook(gettext_lazy("%(who)s changed the webhook endpoint %(url)s")),
    "webhook.remove": _webhook(gettext_lazy("%(who)s removed the webhook endpoint %(url)s")),
    "webhook.retry": _fixed(gettext_lazy("%(who)s sent a failed webhook delivery again")),
}


def fallback(entry: AuditEntry, event: Event, names: AuditNames) -> str:
    """An action without its own sentence: ``"Ann recorded "match: frobnicate" (the match)"``
    (no article to agree with the word: "a event" read wrong)."""
    what = entry.object_type.replace("_", " ") or "event"
    verb = entry.action.replace("_", " ").replace(".", ": ")
    return gettext("%(who)s recorded “%(verb)s” (the %(what)s)") % {
        "who": _who(entry),
        "verb": verb,
        "what": what,
    }


def describe(entry: AuditEntry, event: Event, names: AuditNames, rounds: dict[int, int]) -> str:
    """One audit entry as a sentence (``rounds``: round numbers by round id)."""
    presenter = PRESENTERS.get(entry.action, fallback)
    return presenter(entry, event, replace(names, rounds=rounds) if rounds else names)


def audit_lines(
    entries: list[AuditEntry], event: Event, names: AuditNames, rounds: dict[int, int]
) -> list[AuditLine]:
    """The log's lines, newest first as given."""
    names = replace(names, rounds=rounds)
    return [AuditLine(e, describe(e, event, names, {}), e.reason) for e in entries]
