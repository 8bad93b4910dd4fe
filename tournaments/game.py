"""The game an event plays, as the engine says it: the one home of the rules on the Django side.

Everything here is read from :mod:`scoring` (``find_ruleset(...)``), never restated: the match
options of an event's tables (players, partnerships, target, hand size), the seats at a table, the
displayed-points divisor and the conversions between the two units a score is kept in.

Units. The engine, the database and the documented exports keep **raw** points (pips counted, as
the scoresheet has them). A person types and reads **displayed points**: raw / the rule set's
``displayed_divisor`` (``five-up`` and ``five-up-7``: 5 pips = 1 point, so 305 raw is 61;
``all-fives`` counts its own points, divisor 1). :func:`displayed_from_raw` and
:func:`raw_from_displayed` are the only conversions; :func:`format_displayed` is the only way
a page writes a score.

This module imports the models for their choices only; it reads no rows and writes nothing.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import scoring
from scoring import MatchOptions, OptionError, RuleSet
from scoring.bounds import placement_bound, rare_above
from scoring.tiles import TILES
from tournaments.models import Event, Match
from tournaments.pairing.best_of import BEST_OF
from tournaments.pairing.stages import STAGES
from tournaments.standings.multiplayer import DEFAULT_PLACES, PlacingPoints
from tournaments.standings.serialise import format_number

Number = int | Fraction


SIDE_LETTERS = ("A", "B")
"""A match's two sides as people read them: side 0 (``entry_a``) is A, side 1 (``entry_b``) B."""


SEAT_LETTERS = ("A", "B", "C", "D")
"""The seats of a table of many as people read them: seat 0 is A (``entry_a``), 1 B, 2 C, 3 D."""


def side_letter(side: int) -> str:
    """ "A" for side 0, "B" for side 1 (at a table of many, "C" and "D" for seats 2 and 3)."""
    return SEAT_LETTERS[side]


def side_from_letter(letter: str) -> int:
    """0 for "A", 1 for "B" (either case); ``ValueError`` for anything else."""
    try:
        return SIDE_LETTERS.index(letter.strip().upper())
    except ValueError:
        raise ValueError(f"a side is A or B, not {letter!r}") from None


def ruleset(event_or_rules: Any) -> RuleSet:
    """The engine's rule set of an event (or of a rule-set name)."""
    name = getattr(event_or_rules, "rules", event_or_rules)
    return scoring.find_ruleset(str(name))


def seats_per_table(entry_kind: str, entries: int | None = None) -> int:
    """Players at one table: four in a partnership event (two partnerships); in an individual
    event one per entry at the table, ``entries`` (a match's ``table_entries``; 2, head to head,
    when not given)."""
    if entry_kind == Event.EntryKind.PARTNERSHIP:
        return 4
    return entries if entries in (2, 3, 4) else 2


def table_players(event: Event) -> int:
    """Players at one of the event's usual tables: four in a partnership event, the event's
    ``table_size`` (2, 3 or 4) in an individual event."""
    return seats_per_table(event.entry_kind, event.table_size)


def match_players(event: Event, match: Match | None) -> int:
    """Players at ``match``'s table (its ``table_entries`` in an individual event, four in a
    partnership event); the event's usual table (:func:`table_players`) without a match."""
    if match is None:
        return table_players(event)
    return seats_per_table(event.entry_kind, match.table_entries)


NEIGHBOUR_SIZE = {4: 3, 3: 2}
"""The neighbouring table size an individual event mixes in (``Event.mixed_table_sizes``) when
its field does not divide evenly: the next size down, so the chosen size stays the most common
one (``pairing.plan_tables`` prefers the largest allowed size): tables of 4 take tables of 3
(10 players: 4 + 3 + 3), tables of 3 take tables of 2, head to head (10 players: 3 + 3 + 2 + 2;
never a table of 4 among threes). Head to head (2) has no neighbour: an odd field gets a bye."""


def table_sizes(event: Event) -> tuple[int, ...]:
    """The entries at a table a round of ``event`` may seat, the preferred size first.

    Partnership events and head-to-head individual events: ``(2,)`` (two entries a table, byes
    for the odd one out). Individual events at tables of 3 or 4: ``(table_size,)``, plus the
    neighbouring size (:data:`NEIGHBOUR_SIZE`) when ``mixed_table_sizes`` is set and the engine
    accepts the event's rule set, target and hand size at that size (a hand size of 9 fits three
    players of All Fives, not four); without mixing, the players left over get byes."""
    if event.entry_kind == Event.EntryKind.PARTNERSHIP or event.table_size not in (3, 4):
        return (2,)
    sizes = [int(event.table_size)]
    neighbour = NEIGHBOUR_SIZE.get(sizes[0])
    if event.mixed_table_sizes and neighbour is not None:
        try:
            options_for(
                rules=event.rules,
                entry_kind=event.entry_kind,
                target=event.target,
                hand_size=event.hand_size,
                players=neighbour,
            )
        except OptionError:
            pass
        else:
            sizes.append(neighbour)
    return tuple(sizes)


def seats_tables_of_many(event: Event) -> bool:
    """Whether ``event``'s rounds seat individual players at tables of three or four (paired by
    ``pairing.pair_tables``), rather than two entries a match."""
    return event.entry_kind == Event.EntryKind.SINGLE and event.table_size in (3, 4)


COMPASS = (_("North"), _("East"), _("South"), _("West"))
"""Where a seat sits, clockwise from seat 0, when a position is needed (never "seat 0")."""


def compass_point(seat: int, seats: int) -> str:
    """Seat ``seat`` of a table of ``seats`` as a compass point: North, East, South, West at four
    (and three); North and South head to head."""
    points = (COMPASS[0], COMPASS[2]) if seats == 2 else COMPASS[:seats]
    if 0 <= seat < len(points):
        return str(points[seat])
    return gettext("place %(number)s") % {"number": seat + 1}


def plays_in_partnerships(entry_kind: str) -> bool:
    """Whether the players at a table play as two partnerships (a partnership event)."""
    return entry_kind == Event.EntryKind.PARTNERSHIP


def options_for(
    *,
    rules: str,
    entry_kind: str,
    target: int | None,
    hand_size: int | None,
    players: int | None = None,
) -> MatchOptions:
    """The engine's validated options for one table of these settings (``players``: at the
    table, :func:`seats_per_table`'s when not given); raises the engine's
    :class:`scoring.OptionError` (or :class:`scoring.UnknownRuleSet`) for what cannot apply."""
    seats = players if players is not None else seats_per_table(entry_kind)
    return scoring.find_ruleset(rules).options(
        seats,
        target=target,
        hand_size=hand_size,
        partnerships=plays_in_partnerships(entry_kind),
    )


def match_options(event: Event, match: Match | None = None) -> MatchOptions:
    """The engine's options for the event's tables (its target and hand size, or the rule set's
    defaults where the event leaves them); ``match``: for that match's table (its number of
    players, :func:`match_players`; its own target when set)."""
    target = match.target if match is not None and match.target is not None else event.target
    return options_for(
        rules=event.rules,
        entry_kind=event.entry_kind,
        target=target,
        hand_size=event.hand_size,
        players=match_players(event, match),
    )


def option_problems(
    *, rules: str, entry_kind: str, target: Any, hand_size: Any, table_size: Any = None
) -> dict[str, str]:
    """The engine's objections to these settings, by field (``target``, ``hand_size``, ``rules``,
    ``table_size``): empty when the engine accepts them. Messages are the engine's own
    :class:`OptionError` text, except a table size an event cannot have (a partnership event
    plays four at a table, as two entries of two)."""
    try:
        ruleset(rules)
    except scoring.UnknownRuleSet as exc:
        return {"rules": str(exc)}
    problems: dict[str, str] = {}
    players: int | None = None
    if table_size not in (None, "", 2):
        if entry_kind == Event.EntryKind.PARTNERSHIP:
            return {
                "table_size": gettext(
                    "A partnership event plays two partnerships at a table: choose individual "
                    "players for tables of %(size)s, or two entries a table."
                )
                % {"size": table_size}
            }
        if table_size not in (3, 4):
            return {"table_size": gettext("A table seats 2, 3 or 4 players.")}
        players = int(table_size)
    for field, kwargs in (
        ("target", {"target": target, "hand_size": None}),
        ("hand_size", {"target": None, "hand_size": hand_size}),
    ):
        try:
            options_for(rules=rules, entry_kind=entry_kind, players=players, **kwargs)
        except OptionError as exc:
            problems[field] = str(exc)
    return problems


def expected_game(event: Event, match: Match | None = None) -> dict[str, Any]:
    """The game an event's sheets must describe, in the scoresheet's own field names:
    ``rules``, ``players``, ``partnerships``, ``target`` and ``hand_size`` (raw).

    ``match``: the game at a table, whose own ``target`` (a play-off stage's, e.g. a final to
    121) replaces the event's when set, and whose ``table_entries`` say how many individual
    players sit there (3 or 4 at a table of many, no partnerships)."""
    options = match_options(event, match)
    return {
        "rules": options.rules.name,
        "players": options.players,
        "partnerships": options.partnerships,
        "target": options.target,
        "hand_size": options.hand_size,
    }


PROPORTIONAL = "proportional"
"""The word of ``Event.placing_points`` (and of its form text) for points in proportion to
score."""


def _exact(value: Any) -> Fraction:
    if isinstance(value, bool) or value is None:
        raise ValueError(value)
    return Fraction(str(value).strip())


def _whole(value: Fraction) -> int | Fraction:
    return int(value) if value.denominator == 1 else value


def placing_points(event: Event) -> PlacingPoints:
    """The event's match points at tables of many (``Event.placing_points``) as the standings'
    :class:`~tournaments.standings.multiplayer.PlacingPoints`: the one reader of that field.

    Stored as ``{"4": [4, 2, 1, 0], "3": [4, 2, 0]}`` (points of 1st, 2nd, ... place per table
    size; numbers, or exact text such as ``"3/2"``), or ``{"proportional": T}``; a size not
    given keeps the default (``standings.multiplayer.DEFAULT_PLACES``). What cannot be read (an
    older or hand-edited value) falls back to the defaults, never fails a page."""
    stored = event.placing_points if isinstance(event.placing_points, dict) else {}
    try:
        if PROPORTIONAL in stored:
            return PlacingPoints(proportional=_whole(_exact(stored[PROPORTIONAL])))
        places: dict[int, tuple[int | Fraction, ...]] = dict(DEFAULT_PLACES.items())
        for size, points in stored.items():
            places[int(size)] = tuple(_whole(_exact(p)) for p in points)
        return PlacingPoints(places=tuple(sorted(places.items())))
    except (TypeError, ValueError, ZeroDivisionError):
        return PlacingPoints()


def parse_placing_points(text: str) -> dict[str, Any]:
    """A director's placing points as typed, as ``Event.placing_points`` stores them.

    ``""``: the defaults (``{}``). ``"proportional 10"``: 10 points a table shared in proportion
    to score. Otherwise lists of points of 1st, 2nd, ... place separated by ``;``, one per table
    size, the size being the list's length: ``"4,2,1,0; 4,2,0"`` (tables of 4, then 3); halves
    as ``1.5`` or ``3/2``. Raises ``ValueError`` with a message saying what to fix."""
    text = (text or "").strip()
    if not text:
        return {}
    words = text.lower().split()
    if words[0] in (PROPORTIONAL, "proporcional"):
        return {PROPORTIONAL: _stored_number(_proportional_total(words))}
    if "," not in text:
        raise ValueError(
            gettext(
                "Separate the points of one table with commas and the table sizes with “;”, "
                "e.g. 4,2,1,0; 4,2,0."
            )
        )
    out: dict[str, Any] = {}
    for part in (p for p in text.split(";") if p.strip()):
        points = _table_points(part, given=out)
        out[str(len(points))] = [_stored_number(p) for p in points]
    return out


def _proportional_total(words: list[str]) -> Fraction:
    """The points shared at each table of ``"proportional T"`` (words as typed, lowered)."""
    try:
        total = _exact(words[1]) if len(words) == 2 else None
    except (ValueError, ZeroDivisionError):
        total = None
    if total is None or total <= 0:
        raise ValueError(
            gettext("Write the points shared at each table after the word, e.g. “proportional 10”.")
        )
    return total


def _table_points(part: str, *, given: dict[str, Any]) -> list[Fraction]:
    """One table size's points as typed (``"4,2,1,0"``), checked: a list of 2 to 4 numbers, none
    negative, for a size not ``given`` yet, from 1st place down."""
    try:
        points = [_exact(p) for p in part.split(",")]
    except (ValueError, ZeroDivisionError):
        points = []
    if not points or any(p < 0 for p in points):
        raise ValueError(
            gettext(
                "“%(part)s” is not a list of points: write the points of 1st, "
                "2nd, ... place separated by commas, e.g. 4,2,1,0."
            )
            % {"part": part.strip()}
        )
    size = len(points)
    if size not in (2, 3, 4):
        raise ValueError(
            gettext(
                "“%(part)s” has %(count)s numbers: give one per place at a table "
                "of 2, 3 or 4 (e.g. 4,2,1,0 or 4,2,0)."
            )
            % {"part": part.strip(), "count": size}
        )
    if str(size) in given:
        raise ValueError(
            gettext("Tables of %(size)s are given twice: keep one list per table size.")
            % {"size": size}
        )
    if any(later > earlier for earlier, later in pairwise(points)):
        raise ValueError(
            gettext(
                "“%(part)s” gives a lower place more points than a higher one: "
                "list the points from 1st place down."
            )
            % {"part": part.strip()}
        )
    return points


def placing_points_problem(stored: Any) -> str | None:
    """What is wrong with a value for ``Event.placing_points`` (as the API sends it), in words
    that say what to fix; None when it is fine. The same rules as :func:`parse_placing_points`,
    and each list's key must be its table size."""
    if not isinstance(stored, dict):
        return gettext(
            'Give the placing points as {"4": [4, 2, 1, 0], "3": [4, 2, 0]} or '
            '{"proportional": 10}, or {} for the defaults.'
        )
    for key, points in stored.items():
        if key == PROPORTIONAL:
            if len(stored) > 1:
                return gettext("Proportional points stand alone: leave out the lists by place.")
            continue
        if not isinstance(points, list) or str(key) != str(len(points)):
            return gettext(
                "The list for tables of %(size)s needs %(size)s numbers, one per place."
            ) % {"size": key}
    try:
        parse_placing_points(placing_points_text(stored))
    except (ValueError, TypeError) as exc:
        return str(exc)
    return None


def _stored_number(value: Fraction) -> int | str:
    return int(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def placing_points_text(stored: Any) -> str:
    """``Event.placing_points`` as the director types it (:func:`parse_placing_points`'s input):
    ``""`` for the defaults."""
    if not isinstance(stored, dict) or not stored:
        return ""
    if PROPORTIONAL in stored:
        return f"{PROPORTIONAL} {stored[PROPORTIONAL]}"
    lists = sorted(stored.items(), key=lambda item: -int(item[0]) if str(item[0]).isdigit() else 0)
    return "; ".join(",".join(str(p) for p in points) for _, points in lists)


def playoff_format(event: Event, stage: str) -> tuple[int, int | None]:
    """A play-off stage's format as the event sets it (``Event.playoff_formats``): best of how
    many games, and the target (raw points; ``None``: the event's). A stage not set, or set to
    what is no longer valid, is best of 1 to the event's target."""
    found = (event.playoff_formats or {}).get(stage)
    if not isinstance(found, dict):
        return 1, None
    best_of = found.get("best_of", 1)
    target = found.get("target")
    best_of = best_of if best_of in BEST_OF and not isinstance(best_of, bool) else 1
    target = target if isinstance(target, int) and not isinstance(target, bool) else None
    return int(best_of), target


def playoff_format_field(stage: str, part: str) -> str:
    """The settings form's field of a stage's ``best_of`` or ``target``
    (``playoff_final_target``)."""
    return f"playoff_{stage}_{part}"


def playoff_format_problems(*, rules: str, entry_kind: str, formats: Any) -> dict[str, str]:
    """What is wrong with a set of play-off formats (``{stage: {"best_of", "target"}}``, raw
    targets), by form field (:func:`playoff_format_field`): an unknown stage, a best of not in
    ``BEST_OF``, or a target the engine refuses (its own message). Empty when all is well."""
    if not isinstance(formats, dict):
        return {"playoff_formats": "Give the formats stage by stage."}
    problems: dict[str, str] = {}
    for stage, found in formats.items():
        if stage not in STAGES or not isinstance(found, dict):
            problems["playoff_formats"] = (
                f"Unknown play-off stage {stage!r}: use {', '.join(STAGES)}."
            )
            continue
        best_of = found.get("best_of", 1)
        if best_of not in BEST_OF or isinstance(best_of, bool):
            problems[playoff_format_field(stage, "best_of")] = (
                f"Best of {', '.join(map(str, BEST_OF))} games, not {best_of!r}."
            )
        target = found.get("target")
        if target is None:
            continue
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            problems[playoff_format_field(stage, "target")] = "Give the target as points, or none."
            continue
        engine = option_problems(rules=rules, entry_kind=entry_kind, target=target, hand_size=None)
        if "target" in engine:
            problems[playoff_format_field(stage, "target")] = engine["target"]
    return problems


def displayed_divisor(event_or_rules: Any) -> int:
    """Raw points per displayed point (the rule set's ``displayed_divisor``)."""
    return ruleset(event_or_rules).displayed_divisor


def score_limits(event_or_rules: Any) -> dict[str, int]:
    """The rule set's score limits, raw: the most any placement can score, and the line above
    which a placement score is rare (``scoring.bounds``)."""
    rules = ruleset(event_or_rules)
    return {"placement": placement_bound(rules), "rare": rare_above(rules)}


def displayed_from_raw(raw: Any, event_or_rules: Any) -> Fraction:
    """A raw score as displayed points, exactly (``305`` -> 61 in ``five-up``). ``raw`` is a
    number or its exact text (``"2.5"``, ``"1/3"``); raises ``ValueError`` for anything else."""
    if isinstance(raw, bool):
        raise ValueError(f"not a score: {raw!r}")
    return Fraction(str(raw).strip()) / displayed_divisor(event_or_rules)


def raw_from_displayed(points: Any, event_or_rules: Any) -> Fraction:
    """Displayed points (what a person types: ``61``, ``60.4``) as a raw score, exactly
    (``61`` -> 305 in ``five-up``); raises ``ValueError`` for what is not a number."""
    if isinstance(points, bool):
        raise ValueError(f"not a score: {points!r}")
    return Fraction(str(points).strip()) * displayed_divisor(event_or_rules)


def format_displayed(raw: Any, event_or_rules: Any) -> str:
    """The text of a raw score in displayed points (``302`` -> ``"60.4"`` in ``five-up``).

    A list or tuple gives its values joined by ``", "``; ``None`` and ``""`` give ``""``; what is
    not a number comes back as text, untouched (a page shows it, never fails on it).
    """
    if raw is None or raw == "":
        return ""
    if isinstance(raw, list | tuple):
        return ", ".join(format_displayed(value, event_or_rules) for value in raw)
    if isinstance(raw, bool):
        return str(raw)
    try:
        return format_number(displayed_from_raw(raw, event_or_rules))
    except (ValueError, ZeroDivisionError):
        return str(raw)


def score_step(event: Event, match: Match | None = None) -> Fraction:
    """The smallest unit a score moves by at ``match``'s table, in raw points (the engine's
    ``RuleSet.score_step``: 5, or 2.5 where a settlement splits in halves)."""
    return Fraction(ruleset(event).score_step(match_players(event, match)))


def final_score_problem(
    event: Event, match: Match | None, scores: list[Fraction], names: list[str]
) -> tuple[str, int | None] | None:
    """Why no match under the event's rules ends with these raw ``scores`` (one per side, or
    per seat at a table of many, labelled by ``names``), and the index of the score at fault
    (None: the scores together); None when the rules can produce them. A score below the target
    is always possible (time may end a match)."""
    step = score_step(event, match)
    for i, score in enumerate(scores):
        if score % step:
            below = score - score % step
            return (
                gettext(
                    "%(name)s: %(score)s is not a score this game can end with; scores move "
                    "in steps of %(step)s (type %(below)s or %(above)s)."
                )
                % {
                    "name": names[i],
                    "score": format_displayed(score, event),
                    "step": format_displayed(step, event),
                    "below": format_displayed(below, event),
                    "above": format_displayed(below + step, event),
                },
                i,
            )
    options = match_options(event, match)
    past = [i for i, score in enumerate(scores) if score >= options.target]
    if len(past) > options.most_past_target():
        return (
            gettext(
                "%(names)s are all at or past %(target)s, but the match ends as soon as one "
                "reaches it: check the scores."
            )
            % {
                "names": ", ".join(names[i] for i in past),
                "target": format_displayed(options.target, event),
            },
            None,
        )
    return None


def unit_label(event_or_rules: Any) -> str:
    """How a score is counted, for a label: ``"points (5 pips = 1)"`` or ``"points"``."""
    divisor = displayed_divisor(event_or_rules)
    if divisor == 1:
        return gettext("points")
    return gettext("points (%(divisor)s pips = 1)") % {"divisor": divisor}


def max_pips_left(event: Event) -> dict[str, int]:
    """The most pips that can be left in hands when a hand ends, from the engine's tile set: one
    hand holds at most its deal plus the whole boneyard (``hand``); all hands together hold at most
    every dealt or drawable tile but the one that opened the hand (``all``). A count above these is
    a typing mistake, caught before the sheet is sent."""
    options = match_options(event)
    heaviest = sorted((tile.pips for tile in TILES), reverse=True)
    in_play = options.players * options.hand_size + options.boneyard_size
    return {
        "hand": sum(heaviest[: options.hand_size + options.boneyard_size]),
        "all": sum(heaviest[: in_play - 1]),
    }


def running_scores(sheet: Any) -> list[list[int | float] | None]:
    """The engine's scores after each hand of a sheet (each settled hand's closing score; the
    hand in play as far as entered): hand ``i``'s entry is the verdict of hands ``0..i``, or
    ``None`` where that prefix has a fault. For a page that shows a sheet hand by hand."""
    if not isinstance(sheet, dict) or not isinstance(sheet.get("hands"), list):
        return []
    base = {key: value for key, value in sheet.items() if key not in ("hands", "result", "time")}
    time = sheet.get("time")
    called = time.get("called_in_hand") if isinstance(time, dict) else None
    out: list[list[int | float] | None] = []
    for i in range(1, len(sheet["hands"]) + 1):
        # Time called in a later hand is not on this prefix: without it, the prefix is as played.
        timed = {"time": time} if isinstance(called, int) and called < i else {}
        verdict = scoring.verify({**base, **timed, "hands": sheet["hands"][:i]}).as_dict()
        out.append(verdict["scores"] if verdict["valid"] else None)
    return out


def time_last_hand(sheet: Any) -> int | None:
    """With time called on a sheet (``time: {called_in_hand, policy}``), the index of the last
    hand the match plays, as the engine's policy says (``scoring.last_hand_by_time``); None
    without time called or with a ``time`` the engine would refuse (its verdict says why)."""
    time = sheet.get("time") if isinstance(sheet, dict) else None
    if not isinstance(time, dict):
        return None
    called, policy = time.get("called_in_hand"), time.get("policy")
    if not isinstance(called, int) or isinstance(called, bool) or not isinstance(policy, str):
        return None
    try:
        return scoring.last_hand_by_time(called, policy)
    except ValueError:
        return None
