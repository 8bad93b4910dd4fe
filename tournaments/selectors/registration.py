"""Reads for events and registration, each with a fixed number of queries.

Public reads never include a player's contact details (``email``, ``phone``): the public entry
rows carry names and clubs only.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from tournaments import game
from tournaments.errors import NotFound
from tournaments.models import AuditEntry, Entry, EntryPlayer, Event, Match, Round
from tournaments.permissions import can_oversee, can_see, is_staff
from tournaments.selectors.forfeits import forfeit_rules
from tournaments.standings import tiebreak_label
from tournaments.standings.serialise import format_number


def list_director_events(user: AbstractBaseUser | AnonymousUser) -> list[Event]:
    """The events this user directs (staff and superusers: every event, which staff may only
    see), newest first. One query."""
    events = Event.objects.all()
    if not is_staff(user):
        if not user.is_authenticated:
            return []
        events = events.filter(directors__id=user.pk or 0)
    return list(events.order_by("-start_date", "name"))


def api_events(user: AbstractBaseUser | AnonymousUser, *, status: str = "") -> QuerySet[Event]:
    """The events the API lists to this caller: the public listed ones (out of draft) for
    anyone, and those the caller directs (staff and superusers: every event, as on the
    director's home), newest first; ``status`` keeps one status. One query when read."""
    events = Event.objects.all()
    if not is_staff(user):
        listed = Q(public_listing=True) & ~Q(status=Event.Status.DRAFT)
        if user.is_authenticated:
            directed = Event.objects.filter(directors__id=user.pk or 0).values("pk")
            listed |= Q(pk__in=directed)
        events = events.filter(listed)
    if status:
        events = events.filter(status=status)
    return events.order_by("-start_date", "name", "pk")


@dataclass(frozen=True)
class EntryCounts:
    total: int
    registered: int
    checked_in: int
    withdrawn: int
    late: int
    self_checked_in: int = 0  # checked in by the players themselves (self check-in)


def count_entries(event: Event) -> EntryCounts:
    """Entries by status. One query."""
    agg = Entry.objects.filter(event=event).aggregate(
        total=Count("pk"),
        registered=Count("pk", filter=Q(status=Entry.Status.REGISTERED)),
        checked_in=Count("pk", filter=Q(status=Entry.Status.CHECKED_IN)),
        withdrawn=Count("pk", filter=Q(status=Entry.Status.WITHDRAWN)),
        late=Count("pk", filter=Q(late=True)),
        self_checked_in=Count(
            "pk", filter=Q(status=Entry.Status.CHECKED_IN, checked_in_by_self=True)
        ),
    )
    return EntryCounts(**agg)


def _members() -> Prefetch[str]:
    return Prefetch(
        "members",
        queryset=EntryPlayer.objects.select_related("player").order_by("pk"),
    )


def entries_query(*, event: Event, query: str = "", status: str = "") -> QuerySet[Entry]:
    """The event's entries with their players (prefetched), filtered by a search on the entry's
    name or a player's name (case-insensitive substring) and by status, by name. Two queries
    when read (the API's list reads a page of it)."""
    entries: QuerySet[Entry] = Entry.objects.filter(event=event)
    query = query.replace("\x00", "").strip()  # PostgreSQL refuses NUL in text
    if query:
        matching = EntryPlayer.objects.filter(event=event, player__name__icontains=query)
        entries = entries.filter(Q(name__icontains=query) | Q(pk__in=matching.values("entry_id")))
    if status:
        entries = entries.filter(status=status)
    return entries.prefetch_related(_members()).order_by("name", "pk")


def list_entries(*, event: Event, query: str = "", status: str = "") -> list[Entry]:
    """``entries_query`` read whole (the director's entries page). Two queries."""
    return list(entries_query(event=event, query=query, status=status))


def get_entry(*, event: Event, entry_id: int) -> Entry:
    """One entry of the event with its players (``NotFound`` otherwise). Two queries."""
    entry = Entry.objects.filter(event=event, pk=entry_id).prefetch_related(_members()).first()
    if entry is None:
        raise NotFound(gettext("No such entry in this event."), code="entry_not_found")
    return entry


def audit_query(*, event: Event, action: str = "") -> QuerySet[AuditEntry]:
    """The event's audit log, newest first, with the actor; ``action`` keeps one action
    (``entry.check_in``) or, without a dot, one family of them (``entry``: every ``entry.*``).
    One query when read."""
    log = AuditEntry.objects.filter(event=event)
    if action:
        log = (
            log.filter(action=action)
            if "." in action
            else log.filter(action__startswith=f"{action}.")
        )
    return log.select_related("actor").order_by("-at", "-pk")


def list_audit(*, event: Event, limit: int = 500) -> list[AuditEntry]:
    """The event's audit log, newest first, with the actor. One query."""
    return list(audit_query(event=event)[:limit])


def audit_names(
    event: Event,
) -> tuple[dict[int, str], dict[int, tuple[int | None, str, str]], dict[int, int]]:
    """What the audit log's sentences name: entries by id, matches by id (table number, first
    side's name, second side's name) and round numbers by round id. Three queries."""
    entries = dict(Entry.objects.filter(event=event).values_list("pk", "name"))
    matches = {
        m.pk: (
            m.table.number if m.table else None,
            m.entry_a.name,
            m.entry_b.name if m.entry_b else "",
        )
        for m in Match.objects.filter(round__event=event).select_related(
            "table", "entry_a", "entry_b"
        )
    }
    rounds = dict(Round.objects.filter(event=event).values_list("pk", "number"))
    return entries, matches, rounds


# --- Public pages ------------------------------------------------------------------------------


def list_public_events(*, today: datetime.date | None = None) -> tuple[list[Event], list[Event]]:
    """Listed events (``public_listing`` on, out of draft): (upcoming and running, past).

    Upcoming soonest first; past most recent first. One query.
    """
    today = today or timezone.localdate()
    events = list(Event.objects.filter(public_listing=True).exclude(status=Event.Status.DRAFT))
    upcoming = sorted((e for e in events if e.end_date >= today), key=lambda e: e.start_date)
    past = sorted((e for e in events if e.end_date < today), key=lambda e: e.end_date, reverse=True)
    return upcoming, past


def get_visible_event(*, slug: str, user: AbstractBaseUser | AnonymousUser) -> Event:
    """The event if this visitor may see it, else ``NotFound`` (drafts are hidden)."""
    event = Event.objects.filter(slug=slug).first()
    if event is None or not can_see(user, event):
        raise NotFound(gettext("No such event."), code="event_not_found")
    return event


@dataclass(frozen=True)
class PublicPlayer:
    name: str
    club: str


@dataclass(frozen=True)
class PublicEntry:
    name: str
    seed: int | None
    status: str
    late: bool
    players: tuple[PublicPlayer, ...]


def list_public_entries(event: Event) -> list[PublicEntry]:
    """Entries as the public sees them: names and clubs only, never contact details. One query."""
    rows = (
        EntryPlayer.objects.filter(event=event)
        .order_by("entry__name", "entry__pk", "pk")
        .values_list(
            "entry__pk",
            "entry__name",
            "entry__seed",
            "entry__status",
            "entry__late",
            "player__name",
            "player__club",
        )
    )
    out: dict[int, PublicEntry] = {}
    for pk, name, seed, status, late, player, club in rows:
        found = out.get(pk)
        players = (
            (*found.players, PublicPlayer(player, club)) if found else (PublicPlayer(player, club),)
        )
        out[pk] = PublicEntry(name, seed, status, late, players)
    return list(out.values())


def list_visible_rounds(event: Event, user: AbstractBaseUser | AnonymousUser) -> list[Round]:
    """The event's rounds; drafts only for those who oversee it (directors, staff). One query."""
    rounds = Round.objects.filter(event=event).order_by("number")
    if not can_oversee(user, event):
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    return list(rounds)


# --- Rules in words ----------------------------------------------------------------------------


# The rule sets' defaults (shared/spec/rules.md): (target raw, hand size) by players at a table.
@dataclass(frozen=True)
class RulesSummary:
    rules_name: str
    target_raw: int
    target_display: str  # e.g. "61 points (305 raw pips, counted in fives)"
    hand_size: int
    players_at_table: int
    lines: tuple[str, ...]  # the whole description, one sentence per line


def _in_a_sentence(label: str) -> str:
    """A column label inside a sentence: "Median Buchholz" -> "median Buchholz" (a name such
    as Buchholz keeps its capital)."""
    return label if label.startswith("Buchholz") else label[:1].lower() + label[1:]


def tiebreaks_in_a_sentence(names: Iterable[str]) -> str:
    """Tiebreak names as a sentence lists them, in the reader's language: "Buchholz, spread,
    points for"."""
    return ", ".join(_in_a_sentence(gettext(tiebreak_label(t))) for t in names)


def _format_in_words(event: Event) -> str:
    """The event's format in a phrase: "5 Swiss rounds, then a single elimination play-off for
    the top 8"."""
    if event.format == Event.Format.SWISS:
        text = ngettext("%(n)s Swiss round", "%(n)s Swiss rounds", event.swiss_rounds) % {
            "n": event.swiss_rounds
        }
    else:
        text = gettext("a round robin")
    if event.playoff != Event.Playoff.NONE:
        text = gettext("%(format)s, then a %(playoff)s play-off for the top %(qualifiers)s") % {
            "format": text,
            "playoff": event.get_playoff_display().lower(),
            "qualifiers": event.playoff_qualifiers,
        }
    return text


SIZE_WORDS = {2: gettext_lazy("two"), 3: gettext_lazy("three"), 4: gettext_lazy("four")}


def tables_of_many_text(event: Event) -> str:
    """How an individual event at tables of three or four seats its players, in words (the
    sizes ``game.table_sizes`` allows, the preferred first)."""
    sizes = game.table_sizes(event)
    main = gettext("individual players, %(size)s at each table") % {"size": SIZE_WORDS[sizes[0]]}
    if len(sizes) > 1:
        return gettext(
            "%(main)s (%(other)s at some tables when the field does not divide evenly)"
        ) % {
            "main": main,
            "other": SIZE_WORDS[sizes[1]],
        }
    return gettext("%(main)s (a bye for anyone left over)") % {"main": main}


def placing_points_text(event: Event) -> str:
    """The match points at tables of many in words: by place per table size, or in proportion
    to the scores (``game.placing_points``)."""
    setting = game.placing_points(event)
    if setting.proportional is not None:
        return gettext("%(points)s per table, shared in proportion to the scores") % {
            "points": format_number(setting.proportional)
        }
    parts = [
        gettext("at a table of %(size)s, %(points)s by place")
        % {
            "size": SIZE_WORDS[size],
            "points": ", ".join(format_number(p) for p in setting.for_size(size)),
        }
        for size in game.table_sizes(event)
    ]
    parts.append(gettext("players sharing a place share its points"))
    return "; ".join(parts)


def hands_at_tables_text(event: Event, target: str) -> str:
    """The deal at tables of many, per table size where the engine deals differently (All Fives:
    5 tiles each at four, 7 at three), and the target (``target``, in words)."""
    deals = [
        (
            size,
            game.options_for(
                rules=event.rules,
                entry_kind=event.entry_kind,
                target=event.target,
                hand_size=event.hand_size,
                players=size,
            ).hand_size,
        )
        for size in game.table_sizes(event)
    ]
    if len({hand for _, hand in deals}) == 1:
        return gettext(
            "Each hand deals %(hand)s tiles to every player; a game is played to %(target)s."
        ) % {"hand": deals[0][1], "target": target}
    per_size = ", ".join(
        gettext("%(hand)s tiles at a table of %(size)s") % {"hand": hand, "size": SIZE_WORDS[size]}
        for size, hand in deals
    )
    return gettext("Each hand deals every player %(deals)s; a game is played to %(target)s.") % {
        "deals": per_size,
        "target": target,
    }


def _target_text(event: Event, target: int) -> str:
    """The target in the rule set's displayed points, with the raw pips when they differ."""
    divisor = game.displayed_divisor(event)
    shown = game.format_displayed(target, event)
    if divisor == 1:
        return gettext("%(shown)s points") % {"shown": shown}
    counted = gettext("fives") if divisor == 5 else f"{divisor}s"
    return gettext("%(shown)s points (%(target)s raw pips, counted in %(counted)s)") % {
        "shown": shown,
        "target": target,
        "counted": counted,
    }


def _format_text(event: Event) -> str:
    """Swiss rounds or a round robin, and the play-off after them."""
    fmt = (
        gettext("%(n)s Swiss rounds") % {"n": event.swiss_rounds}
        if event.format == Event.Format.SWISS
        else gettext("a round robin")
    )
    if event.playoff != Event.Playoff.NONE:
        fmt += gettext(", then a %(kind)s play-off for the top %(n)s") % {
            "kind": event.get_playoff_display().lower(),
            "n": event.playoff_qualifiers,
        }
    return fmt


def _match_points_text(event: Event) -> str:
    """The match points of a two-sided match (win, draw, loss, bye)."""
    return gettext(
        "%(win)s for a win, %(draw)s for a draw, %(loss)s for a loss, %(bye)s for a bye"
    ) % {
        "win": event.points_win,
        "draw": event.points_draw,
        "loss": event.points_loss,
        "bye": event.points_bye,
    }


def _bonus_forfeit_and_tiebreak_lines(event: Event, *, many: bool) -> list[str]:
    """The rules' last lines, each when it applies: the margin bonus, forfeits, tiebreaks."""
    lines = []
    if event.margin_bonus_points:
        lines.append(
            gettext(
                "Winning by %(margin)s raw points or more earns %(bonus)s bonus match point(s)."
            )
            % {"margin": event.margin_bonus_at, "bonus": event.margin_bonus_points}
        )
    if not many or 2 in game.table_sizes(event):  # no forfeits at a table of three or four
        lines.append(forfeit_rules(event))
    if event.tiebreaks:
        names = tiebreaks_in_a_sentence(event.tiebreaks)
        lines.append(gettext("Ties are broken by: %(tiebreaks)s.") % {"tiebreaks": names})
    return lines


def describe_rules(event: Event) -> RulesSummary:
    """The event's rules in words, with the rule set's defaults filled in (from the engine:
    ``tournaments.game``).

    The target is in the rule set's displayed points (``five-up`` and ``five-up-7``: raw / 5, so
    a target of 305 raw is 61 points); ``all-fives`` displays raw points. No query.
    """
    options = game.match_options(event)
    seats = game.seats_per_table(event.entry_kind)
    target, hand = options.target, options.hand_size
    target_display = _target_text(event, target)
    many = game.seats_tables_of_many(event)
    table = (
        gettext("two partnerships at each table (four players, partners sit opposite)")
        if seats == 4
        else gettext("two players at each table, head to head")
    )
    if many:
        table = tables_of_many_text(event)
    lines = [
        gettext("%(rules)s: %(table)s.") % {"rules": event.get_rules_display(), "table": table},
        (
            hands_at_tables_text(event, target_display)
            if many
            else gettext(
                "Each hand deals %(hand)s tiles to every player; a game is played to %(target)s."
            )
            % {"hand": hand, "target": target_display}
        ),
        gettext("Format: %(format)s; rounds last %(minutes)s minutes.")
        % {"format": _format_text(event), "minutes": event.round_minutes},
        gettext("When time is called: %(policy)s.")
        % {"policy": event.get_time_policy_display().lower()},
        gettext("Match points: %(points)s.")
        % {"points": placing_points_text(event) if many else _match_points_text(event)},
        *_bonus_forfeit_and_tiebreak_lines(event, many=many),
    ]
    return RulesSummary(
        rules_name=event.get_rules_display(),
        target_raw=target,
        target_display=target_display,
        hand_size=hand,
        players_at_table=seats,
        lines=tuple(lines),
    )
