"""Writes for events: create, change settings, add directors.

Every function is keyword-only, runs in one transaction and records the change in the audit log
(``tournaments.services.audit.record``). Errors are ``tournaments.errors`` with a stable ``code``:

    invalid choices, dates, numbers  -> ValidationFailed; ``code`` names the first problem,
                                        ``details = {"field": first, "errors": {field: msg}}``
    invalid_time_zone                -> ValidationFailed (not an IANA zone name)
    slug_taken                       -> Conflict
    locked_after_start               -> Conflict (rules changed once a round exists)
    tiebreaks_fixed_after_finish     -> Conflict (tiebreaks changed once the event finished)
    entries_exist                    -> Conflict (entry kind changed once entries exist)
    user_not_found / already_director
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from tournaments import follow_versions, game, time_zones
from tournaments.errors import Conflict, NotFound, ValidationFailed
from tournaments.models import Event
from tournaments.services import ratings
from tournaments.services import standings as standings_service
from tournaments.services.audit import record, snapshot
from tournaments.services.finish import finish_event
from tournaments.standings import TIEBREAKS as STANDINGS_TIEBREAKS
from tournaments.standings import applied_tiebreaks, default_tiebreaks

#: The tiebreaks an event may list, in any order, after match points: the standings' own.
TIEBREAKS: tuple[str, ...] = tuple(STANDINGS_TIEBREAKS)

#: Settings a director may set with ``create_event`` / ``update_event`` (besides name and dates).
SETTINGS_FIELDS: tuple[str, ...] = (
    "name",
    "start_date",
    "end_date",
    "venue",
    "status",
    "time_zone",
    "rules",
    "target",
    "hand_size",
    "entry_kind",
    "table_size",
    "mixed_table_sizes",
    "placing_points",
    "table_confirmation",
    "avoid_same_club",
    "time_policy",
    "round_minutes",
    "allow_final_score_only",
    "require_other_device",
    "format",
    "swiss_rounds",
    "playoff",
    "playoff_qualifiers",
    "playoff_consolation",
    "playoff_reset",
    "playoff_formats",
    "first_round",
    "rated",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "margin_bonus_points",
    "margin_bonus_at",
    "tiebreaks",
    "forfeit_score",
    "points_forfeit_win",
    "points_forfeit_loss",
    "points_double_forfeit",
    "forfeit_spread",
    "public_listing",
    "public_entries",
    "public_pairings",
    "public_results",
    "public_standings",
)

#: Fields that decide whether and where the event's results count in the ratings.
RATING_FIELDS = frozenset({"rated", "start_date", "status"})

#: Fields the standings are computed from (besides the results): a change re-ranks them at once.
STANDINGS_FIELDS = frozenset(
    {
        "tiebreaks",
        "points_win",
        "points_draw",
        "points_loss",
        "points_bye",
        "margin_bonus_points",
        "margin_bonus_at",
        "placing_points",
        "forfeit_score",
        "points_forfeit_win",
        "points_forfeit_loss",
        "points_double_forfeit",
        "forfeit_spread",
        "playoff",
        "playoff_qualifiers",
    }
)

#: Fields that decide how games are played and checked: fixed once the first round exists.
RULE_FIELDS: tuple[str, ...] = ("rules", "target", "hand_size", "entry_kind", "table_size")

_CHOICES: dict[str, list[str]] = {
    "status": list(Event.Status.values),
    "rules": list(Event.Rules.values),
    "entry_kind": list(Event.EntryKind.values),
    "time_policy": list(Event.TimePolicy.values),
    "format": list(Event.Format.values),
    "playoff": list(Event.Playoff.values),
    "playoff_consolation": list(Event.Consolation.values),
    "first_round": ["random", "rating", "seed"],
    "table_confirmation": list(Event.TableConfirmation.values),
}


def _game_problems(values: dict[str, Any], bad: Any) -> None:
    """The engine's objections to the rule set, target and hand size (``game.option_problems``,
    its own messages). A hand size the engine refuses even head to head is ``invalid_hand_size``;
    one that only this event's table cannot deal is ``hand_size_too_large``."""
    target, hand = values["target"], values["hand_size"]
    if (
        values["rules"] not in _CHOICES["rules"]
        or values["entry_kind"] not in _CHOICES["entry_kind"]
    ):
        return  # reported as invalid_choice
    if values["table_size"] not in (2, 3, 4) or isinstance(values["table_size"], bool):
        bad("table_size", "invalid_table_size", gettext("A table seats 2, 3 or 4 players."))
        return
    found = game.option_problems(
        rules=values["rules"],
        entry_kind=values["entry_kind"],
        target=target,
        hand_size=hand,
        table_size=values["table_size"],
    )
    if "table_size" in found:
        bad("table_size", "table_size_needs_individuals", found["table_size"])
        return
    if values["table_size"] > 2 and values["format"] == Event.Format.ROUND_ROBIN:
        bad(
            "table_size",
            "table_size_needs_swiss",
            gettext(
                "A round robin seats two players a table: choose Swiss rounds for tables of "
                "%(size)s, or tables of 2."
            )
            % {"size": values["table_size"]},
        )
    if target is not None and "target" in found:
        bad("target", "invalid_target", found["target"])
    if hand is not None and "hand_size" in found:
        head_to_head = game.option_problems(
            rules=values["rules"],
            entry_kind=Event.EntryKind.SINGLE,
            target=None,
            hand_size=hand,
        )
        code = "invalid_hand_size" if "hand_size" in head_to_head else "hand_size_too_large"
        bad("hand_size", code, found["hand_size"])


def _tables_problems(values: dict[str, Any], bad: Any) -> None:
    """The settings of tables of many: placing points (``game.placing_points_problem``) and
    yes/no answers."""
    problem = game.placing_points_problem(values["placing_points"])
    if problem is not None:
        bad("placing_points", "invalid_placing_points", problem)
    for field in ("mixed_table_sizes", "avoid_same_club"):
        if not isinstance(values[field], bool):
            bad(field, "invalid_choice", gettext("Say yes or no."))


def _playoff_problems(values: dict[str, Any], bad: Any) -> None:
    """The play-off's stage formats (``game.playoff_format_problems``: best of 1, 3 or 5, a
    target the engine accepts), by form field; a consolation only in single elimination."""
    if values["rules"] in _CHOICES["rules"] and values["entry_kind"] in _CHOICES["entry_kind"]:
        found = game.playoff_format_problems(
            rules=values["rules"],
            entry_kind=values["entry_kind"],
            formats=values["playoff_formats"],
        )
        for field, message in found.items():
            bad(field, "invalid_playoff_format", message)
    if values["playoff"] == Event.Playoff.DOUBLE and values["playoff_consolation"]:
        bad(
            "playoff_consolation",
            "consolation_needs_single",
            gettext(
                "A consolation is for single elimination: double elimination has its losers' "
                "bracket."
            ),
        )
    if not isinstance(values["playoff_reset"], bool):
        bad("playoff_reset", "invalid_choice", gettext("Say yes or no."))


def _number_problems(values: dict[str, Any], bad: Any, problems: list[Any]) -> None:
    """Round length, rounds, qualifiers and match points: whole numbers, then (when nothing so
    far is wrong: ``problems`` is the list ``bad`` fills) in a sensible order."""
    for field in (
        "round_minutes",
        "swiss_rounds",
        "playoff_qualifiers",
        "points_win",
        "points_draw",
        "points_loss",
        "points_bye",
        "margin_bonus_points",
        "margin_bonus_at",
    ):
        if not isinstance(values[field], int) or values[field] < 0:
            bad(field, "invalid_number", gettext("Use a whole number, zero or more."))
    if not problems:
        if values["round_minutes"] < 1:
            bad("round_minutes", "invalid_number", gettext("A round lasts at least one minute."))
        if values["format"] == Event.Format.SWISS and values["swiss_rounds"] < 1:
            bad("swiss_rounds", "invalid_number", gettext("A Swiss event has at least one round."))
        if values["playoff"] != Event.Playoff.NONE and values["playoff_qualifiers"] < 2:
            bad(
                "playoff_qualifiers",
                "invalid_number",
                gettext("A play-off needs at least 2 qualifiers."),
            )
        if values["points_loss"] > values["points_draw"] or (
            values["points_draw"] > values["points_win"]
        ):
            bad(
                "points_draw", "points_out_of_order", gettext("Points must be win >= draw >= loss.")
            )
        if values["margin_bonus_points"] and not values["margin_bonus_at"]:
            bad(
                "margin_bonus_at",
                "margin_bonus_needs_margin",
                gettext("Say which winning margin (in points) earns the bonus."),
            )


FORFEIT_POINTS = ("points_forfeit_win", "points_forfeit_loss", "points_double_forfeit")
"""The match points of a forfeit: empty (None) is "as a played win / loss"."""

FORFEIT_POINTS_LIMIT = 1000
"""The most (and, negated, the least) match points a forfeit may be worth."""


def _forfeit_problems(values: dict[str, Any], bad: Any) -> None:
    """The forfeit settings: a score (raw, positive, or None for the target), match points
    (whole, may be negative, or None for "as played") and whether the spread counts them."""
    score = values["forfeit_score"]
    if score is not None and (type(score) is not int or score < 1):
        bad(
            "forfeit_score",
            "invalid_number",
            gettext(
                "Give the forfeit score in points, more than zero, or leave it empty for the "
                "target."
            ),
        )
    for field in FORFEIT_POINTS:
        points = values[field]
        if points is None:
            continue
        if type(points) is not int or abs(points) > FORFEIT_POINTS_LIMIT:
            bad(
                field,
                "invalid_number",
                gettext(
                    "Use a whole number from -%(FORFEIT_POINTS_LIMIT)s to "
                    "%(FORFEIT_POINTS_LIMIT)s (negative is a penalty), or leave it empty to count "
                    "it as a played match."
                )
                % {"FORFEIT_POINTS_LIMIT": FORFEIT_POINTS_LIMIT},
            )
    if not isinstance(values["forfeit_spread"], bool):
        bad("forfeit_spread", "invalid_choice", gettext("Say yes or no."))


def _zone_problem(typed: str, bad: Any) -> None:
    """An unknown zone: the names it probably meant ("Chicago": America/Chicago), else how to
    choose one."""
    near = time_zones.suggestions(typed)
    zone = f"“{typed[:64]}”"
    if near:
        message = _("Unknown time zone %(zone)s: did you mean %(names)s?") % {
            "zone": zone,
            "names": " / ".join(near),
        }
    else:
        message = _(
            "Unknown time zone %(zone)s: choose one from the list, e.g. America/Chicago or "
            "Europe/Madrid (UTC if unsure)."
        ) % {"zone": zone}
    bad("time_zone", "invalid_time_zone", message)


def validate_event_settings(values: dict[str, Any]) -> None:
    """Check a complete set of event settings; raise ``ValidationFailed`` listing every problem.

    ``values`` holds every field of ``SETTINGS_FIELDS`` (the event's current values with the
    changes applied). The error's ``code`` is the first problem's code; ``details["errors"]``
    maps each bad field to a message saying what to fix.
    """
    problems: list[tuple[str, str, str]] = []  # (field, code, message)

    def bad(field: str, code: str, message: str) -> None:
        problems.append((field, code, message))

    if not str(values["name"]).strip():
        bad("name", "name_required", gettext("Give the event a name."))
    for field, allowed in _CHOICES.items():
        if values[field] not in allowed:
            bad(
                field,
                "invalid_choice",
                gettext("Choose one of: %(join)s.") % {"join": ", ".join(allowed)},
            )
    start, end = values["start_date"], values["end_date"]
    if not isinstance(start, datetime.date) or not isinstance(end, datetime.date):
        bad("start_date", "dates_required", gettext("Give the first and last day as dates."))
    elif end < start:
        bad(
            "end_date",
            "dates_out_of_order",
            gettext("The last day cannot be before the first day."),
        )
    if not time_zones.is_valid(values["time_zone"]):
        _zone_problem(str(values["time_zone"]), bad)
    _game_problems(values, bad)
    _tables_problems(values, bad)
    _playoff_problems(values, bad)
    _number_problems(values, bad, problems)
    _forfeit_problems(values, bad)
    tiebreaks = values["tiebreaks"]
    if not isinstance(tiebreaks, list) or not all(isinstance(t, str) for t in tiebreaks):
        bad("tiebreaks", "invalid_tiebreaks", gettext("List the tiebreaks by name."))
    else:
        unknown = [t for t in tiebreaks if t not in TIEBREAKS]
        if unknown:
            bad(
                "tiebreaks",
                "unknown_tiebreak",
                gettext("Unknown tiebreak %(join)s: use %(join2)s.")
                % {"join": ", ".join(unknown), "join2": ", ".join(TIEBREAKS)},
            )
        elif len(set(tiebreaks)) != len(tiebreaks):
            bad("tiebreaks", "duplicate_tiebreak", gettext("List each tiebreak once."))
    if problems:
        field, code, message = problems[0]
        raise ValidationFailed(
            message,
            code=code,
            details={"field": field, "errors": {f: m for f, _, m in problems}},
        )


def _unique_slug(name: str) -> str:
    base = slugify(name)[:70] or "event"
    slug, n = base, 1
    while Event.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def create_event(
    *,
    actor: User,
    name: str,
    start_date: datetime.date,
    end_date: datetime.date,
    slug: str = "",
    salt: str = "",
    **settings: Any,
) -> Event:
    """Create an event with its settings; the creator becomes its first director.

    ``settings`` are fields of ``SETTINGS_FIELDS`` (anything else is a programming error:
    ``TypeError``). The salt is drawn now (or given, for a reproducible demo: 16 to 64 hex
    digits) and is published on the event's page. ``slug`` is made
    from the name when empty (made unique with a number); a given slug already taken raises
    ``Conflict(code="slug_taken")``.
    """
    unknown = set(settings) - set(SETTINGS_FIELDS)
    if unknown:
        raise TypeError(f"unknown event settings: {sorted(unknown)}")
    event = Event(name=name.strip(), start_date=start_date, end_date=end_date)
    for field, value in settings.items():
        setattr(event, field, value)
    if not event.tiebreaks:  # none listed: the format's (``standings.default_tiebreaks``)
        event.tiebreaks = default_tiebreaks(event.format)
    validate_event_settings({f: getattr(event, f) for f in SETTINGS_FIELDS})
    if salt:
        if not (16 <= len(salt) <= 64 and all(c in "0123456789abcdef" for c in salt)):
            raise ValidationFailed(
                gettext("The salt is 16 to 64 lowercase hex digits."),
                code="invalid_salt",
                details={"field": "salt", "errors": {"salt": "16 to 64 hex digits."}},
            )
        event.salt = salt
    if slug:
        if slugify(slug) != slug:
            raise ValidationFailed(
                gettext("Use lowercase letters, digits and hyphens in the web address."),
                code="invalid_slug",
                details={"field": "slug", "errors": {"slug": "Letters, digits and hyphens."}},
            )
        if Event.objects.filter(slug=slug).exists():
            raise _slug_taken(slug)
        event.slug = slug
    else:
        event.slug = _unique_slug(event.name)
    try:
        with transaction.atomic():
            event.save()
    except IntegrityError as exc:  # a concurrent creation took the slug
        raise _slug_taken(event.slug) from exc
    event.directors.add(actor)
    record(event=event, actor=actor, action="event.create", obj=event, after=snapshot(event))
    return event


def _slug_taken(slug: str) -> Conflict:
    return Conflict(
        gettext("The web address %(slug)r is taken: choose another.") % {"slug": slug},
        code="slug_taken",
        details={"field": "slug", "errors": {"slug": "Taken by another event."}},
    )


def _check_status_change(event: Event, changed: dict[str, Any]) -> None:
    """An event that has rounds finishes through "Finish the event" (``services.finish``),
    which freezes its final placings; the settings cannot skip that."""
    if changed.get("status") == Event.Status.FINISHED and event.rounds.exists():
        raise Conflict(
            gettext(
                'Finish the event with "Finish the event" on its page: that freezes the final '
                "placings once the final (or the last Swiss round) is decided."
            ),
            code="finish_from_the_event_page",
            details={"field": "status", "errors": {"status": 'Use "Finish the event".'}},
        )


@transaction.atomic
def update_event(*, actor: User | None, event: Event, reason: str = "", **changes: Any) -> Event:
    """Change an event's settings (fields of ``SETTINGS_FIELDS``); audit what changed.

    The rule fields (``RULE_FIELDS``) are fixed once a round exists (``locked_after_start``) and
    the entry kind once entries exist (``entries_exist``). An empty tiebreak list is the
    format's defaults (as at creation); the tiebreaks are fixed once the event is finished
    (``tiebreaks_fixed_after_finish``). A change of what the standings are computed from
    (``STANDINGS_FIELDS``) re-ranks them at once (:func:`_rerank`). Returns the event, saved;
    nothing is written when nothing changed.
    """
    unknown = set(changes) - set(SETTINGS_FIELDS)
    if unknown:
        raise TypeError(f"unknown event settings: {sorted(unknown)}")
    locked = Event.objects.select_for_update().get(pk=event.pk)
    if "tiebreaks" in changes and not changes["tiebreaks"]:
        changes["tiebreaks"] = default_tiebreaks(changes.get("format", locked.format))
    changed = {f: v for f, v in changes.items() if getattr(locked, f) != v}
    if not changed:
        return locked
    if any(f in RULE_FIELDS for f in changed) and locked.rounds.exists():
        field = next(f for f in changed if f in RULE_FIELDS)
        raise Conflict(
            gettext("The rules are fixed once a round exists."),
            code="locked_after_start",
            details={"field": field, "errors": {field: "Fixed once a round exists."}},
        )
    if "entry_kind" in changed and locked.entries.exists():
        raise Conflict(
            gettext("Remove the entries before changing between partnerships and head to head."),
            code="entries_exist",
            details={"field": "entry_kind", "errors": {"entry_kind": "Entries exist."}},
        )
    _check_status_change(locked, changed)
    _check_tiebreaks_open(locked, changed)
    values = {f: changed.get(f, getattr(locked, f)) for f in SETTINGS_FIELDS}
    validate_event_settings(values)
    if locked.status == Event.Status.FINISHED and "status" in changed:
        # Reopened: the frozen placings no longer stand (finishing again freezes new ones).
        changed.update(placings=None, finished_at=None)
    before = snapshot(locked, list(changed))
    earliest = min(locked.start_date, changed.get("start_date", locked.start_date))
    for field, value in changed.items():
        setattr(locked, field, value)
    locked.save()
    if RATING_FIELDS & set(changed) and locked.rounds.exists():
        # its results join or leave the ratings, or move in the season: re-rate from there
        ratings.request_rerate(event_id=locked.pk, since_date=earliest)
    record(
        event=locked,
        actor=actor,
        action="event.update",
        obj=locked,
        before=before,
        after=snapshot(locked, list(changed)),
        reason=reason,
    )
    follow_versions.bump_event(locked)  # what it makes public, its name, its status
    if STANDINGS_FIELDS & set(changed):
        _rerank(locked, actor, reason)
    return locked


def _check_tiebreaks_open(event: Event, changed: dict[str, Any]) -> None:
    """A finished event's final placings were frozen with its tiebreaks: they stay (reopen the
    event first)."""
    if (
        event.status == Event.Status.FINISHED
        and changed.get("status", event.status) == Event.Status.FINISHED
        and "tiebreaks" in changed
        and applied_tiebreaks(changed["tiebreaks"]) != applied_tiebreaks(event.tiebreaks)
    ):
        raise Conflict(
            gettext(
                "The event is finished: its final placings were decided with these tiebreaks. "
                "Reopen the event (its status) to change them."
            ),
            code="tiebreaks_fixed_after_finish",
            details={"field": "tiebreaks", "errors": {"tiebreaks": "Fixed once finished."}},
        )


def _rerank(event: Event, actor: User | None, reason: str) -> None:
    """The standings' settings changed: a new snapshot now, in this transaction (the public page
    shows the new order as soon as the change commits), audited with the tiebreaks applied."""
    if not event.rounds.exists():
        return  # no results: the first recompute will apply the settings
    outcome = standings_service.recompute_after_settings_change(event_id=event.pk)
    record(
        event=event,
        actor=actor,
        action="standings.rerank",
        obj=event,
        after={
            "generation": outcome.generation,
            "status": outcome.status,
            "tiebreaks": applied_tiebreaks(event.tiebreaks),
        },
        reason=reason,
    )


@transaction.atomic
def add_director(*, actor: User | None, event: Event, username: str) -> User:
    """Make the user named ``username`` a director of ``event`` (``user_not_found``,
    ``already_director``)."""
    user = User.objects.filter(username=username.strip()).first()
    if user is None:
        raise NotFound(
            gettext("No user called %(username)r: ask them to get an account first.")
            % {"username": username},
            code="user_not_found",
        )
    if event.directors.filter(pk=user.pk).exists():
        raise Conflict(
            gettext("%(username)s already directs this event.") % {"username": user.username},
            code="already_director",
        )
    event.directors.add(user)
    record(
        event=event,
        actor=actor,
        action="event.add_director",
        obj=event,
        after={"director": user.username},
    )
    return user


@transaction.atomic
def change_event_status(
    *, actor: User | None, event: Event, status: str, reason: str = ""
) -> Event:
    """The event's status steps, as its pages take them: draft, registration open, running,
    finished. Finishing an event that has rounds is "Finish the event" (``finish_event``: the
    final placings frozen, refused until the final is decided); every other step is the
    settings' status (``update_event``, audited as a settings change)."""
    if status == Event.Status.FINISHED and event.rounds.exists():
        return finish_event(event=event, actor=actor)
    return update_event(actor=actor, event=event, reason=reason, status=status)
