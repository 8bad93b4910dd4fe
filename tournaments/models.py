"""Spinner's data: thin models whose constraints the database enforces.

Writes go through ``tournaments/services/``; reads through ``tournaments/selectors/``. No business
logic lives here: fields, ``Meta.constraints``, choices and ``__str__``.

Vocabulary:
    event        one tournament (Swiss rounds, then an optional play-off; or a round robin)
    entry        a partnership (or one player, in a head-to-head event) taking part in an event
    round        one round of an event; its matches are played at the same time
    table        a numbered playing table of an event; hosts at most one match per round
    match        one game to the target between two entries at a table (or a bye: one entry, no
                 table, no opponent)
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

# Players and partnerships live in ``tournaments/player_models.py``; they are the app's models all
# the same (imported here, so ``from tournaments.models import Player`` works).
from tournaments.player_models import Partnership, Player


def new_salt() -> str:
    """The event's published random salt: every random choice derives from it."""
    return secrets.token_hex(16)


class Event(models.Model):
    """One tournament, with its rules and settings, published before it starts."""

    class Rules(models.TextChoices):
        FIVE_UP = "five-up", _("Five Up")
        ALL_FIVES = "all-fives", _("All Fives")
        FIVE_UP_7 = "five-up-7", _("Five-Up (7 tiles)")

    class EntryKind(models.TextChoices):
        PARTNERSHIP = "partnership", _("Partnerships (four at a table)")
        SINGLE = "single", _("Individual players (two, three or four at a table)")

    class TableConfirmation(models.TextChoices):
        ALL = "all", _("Every other player at the table confirms")
        MAJORITY = "majority", _("Most of the other players at the table confirm")

    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss rounds")
        ROUND_ROBIN = "round_robin", _("Round robin")

    class Playoff(models.TextChoices):
        NONE = "none", _("No play-off")
        SINGLE = "single", _("Single elimination")
        DOUBLE = "double", _("Double elimination")

    class TimePolicy(models.TextChoices):
        FINISH_HAND = "finish-hand", _("Finish the hand in play")
        ONE_MORE_HAND = "one-more-hand", _("Finish the hand, then one more")

    class Consolation(models.TextChoices):
        NONE = "", _("None")
        THIRD_PLACE = "third_place", _("A match for third place")
        FIRST_ROUND_LOSERS = "first_round_losers", _("A bracket for the first round's losers")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    start_date = models.DateField()
    end_date = models.DateField()
    venue = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)

    # The game: the engine's rule set and the options an event may set (None: the rule set's
    # default for the number of players).
    rules = models.CharField(max_length=16, choices=Rules.choices, default=Rules.FIVE_UP)
    target = models.PositiveIntegerField(null=True, blank=True, help_text=_("Raw points."))
    hand_size = models.PositiveSmallIntegerField(null=True, blank=True)
    entry_kind = models.CharField(
        max_length=16, choices=EntryKind.choices, default=EntryKind.PARTNERSHIP
    )
    # Individual events (``entry_kind`` single): players at a table, 2 (head to head), 3 or 4; a
    # field that does not divide evenly also gets tables of the neighbouring size when
    # ``mixed_table_sizes`` is set, else byes (``tournaments.game.table_sizes`` says which).
    table_size = models.PositiveSmallIntegerField(default=2)
    mixed_table_sizes = models.BooleanField(default=True)
    # Tables of three or four: match points by placing per table size (``{"4": [4, 2, 1, 0],
    # "3": [4, 2, 0]}``), or ``{"proportional": T}`` (T points per table shared in proportion to
    # score); empty: the defaults. Read it through ``tournaments.game``.
    placing_points = models.JSONField(default=dict, blank=True)
    table_confirmation = models.CharField(
        max_length=16, choices=TableConfirmation.choices, default=TableConfirmation.ALL
    )
    time_policy = models.CharField(
        max_length=16, choices=TimePolicy.choices, default=TimePolicy.FINISH_HAND
    )
    round_minutes = models.PositiveSmallIntegerField(default=45)
    allow_final_score_only = models.BooleanField(
        default=False, help_text=_("Tables may submit a final score only (marked unverified).")
    )
    # A claim is confirmed from another phone than the one that sent it (each table phone keeps
    # a device id); off: a confirmation on the sending phone is taken, after "Are you the other
    # team?", and marked for the director ("confirmed on the submitting phone").
    require_other_device = models.BooleanField(
        default=False,
        help_text=_("A result is confirmed only from another phone than the one that sent it."),
    )

    # The format.
    format = models.CharField(max_length=16, choices=Format.choices, default=Format.SWISS)
    swiss_rounds = models.PositiveSmallIntegerField(default=5)
    playoff = models.CharField(max_length=16, choices=Playoff.choices, default=Playoff.NONE)
    playoff_qualifiers = models.PositiveSmallIntegerField(default=8)
    playoff_consolation = models.CharField(
        max_length=24, choices=Consolation.choices, default=Consolation.NONE, blank=True
    )
    # Double elimination: play a second grand final when the losers' bracket champion wins the
    # first (only then has everyone lost once).
    playoff_reset = models.BooleanField(default=True)
    # Per play-off stage (``final``, ``semi_final``, ``quarter_final``, ``third_place``,
    # ``earlier``): ``{"best_of": 1|3|5, "target": raw points or null}``; a stage not listed is
    # best of 1 to the event's target. Read it through ``tournaments.game``.
    playoff_formats = models.JSONField(default=dict, blank=True)
    first_round = models.CharField(
        max_length=16,
        choices=[
            ("random", _("Random draw")),
            ("rating", _("By rating")),
            ("seed", _("By seed")),
        ],
        default="random",
    )

    # Scoring of matches for the standings.
    points_win = models.PositiveSmallIntegerField(default=2)
    points_draw = models.PositiveSmallIntegerField(default=1)
    points_loss = models.PositiveSmallIntegerField(default=0)
    points_bye = models.PositiveSmallIntegerField(default=2)
    margin_bonus_points = models.PositiveSmallIntegerField(default=0)
    margin_bonus_at = models.PositiveIntegerField(
        default=0, help_text=_("Raw winning margin that earns the bonus (0: no bonus).")
    )
    # The director's pairing constraints (every format): keep entries of one club apart while
    # possible (``EntryAvoidance`` names other pairs to keep apart).
    avoid_same_club = models.BooleanField(default=False)
    tiebreaks = models.JSONField(
        default=list, blank=True, help_text=_("Ordered tiebreak names, after match points.")
    )
    # Forfeits: the score the side that turned up wins by (raw points; null: the target, to 0),
    # the match points of a forfeit (null: as a played win / loss), and whether a forfeit's
    # scores count in points for, against and spread.
    forfeit_score = models.PositiveIntegerField(null=True, blank=True, help_text=_("Raw points."))
    points_forfeit_win = models.SmallIntegerField(null=True, blank=True)
    points_forfeit_loss = models.SmallIntegerField(null=True, blank=True)
    points_double_forfeit = models.SmallIntegerField(null=True, blank=True)
    forfeit_spread = models.BooleanField(default=True)

    # Which pages the public may see.
    public_listing = models.BooleanField(default=False)
    public_entries = models.BooleanField(default=True)
    public_pairings = models.BooleanField(default=True)
    public_results = models.BooleanField(default=True)
    public_standings = models.BooleanField(default=True)

    # Ratings (``services/ratings.py``): a rated event's confirmed results rate its players.
    rated = models.BooleanField(default=True)
    # The league season this event counts in (``tournaments/community.py``), if any.
    league = models.ForeignKey(
        "tournaments.League",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="events",
    )
    # The event day (issue 18): the zone every time a person reads is shown in, labelled; players
    # checking themselves in from the event's QR code (with their entry's code or the director's
    # code for the day), until round 1 is generated.
    time_zone = models.CharField(max_length=64, default="UTC", help_text=_("e.g. America/Chicago"))
    self_check_in = models.BooleanField(default=False)
    check_in_day_code = models.CharField(max_length=16, blank=True)
    salt = models.CharField(max_length=64, default=new_salt)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_events", blank=True
    )
    # A finished event: when, and its final placings frozen then (``[{"place", "entry_id",
    # "name", "eliminated_in", "shared"}]``, best first); a director's correction recomputes them.
    finished_at = models.DateTimeField(null=True, blank=True)
    placings = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-start_date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=F("start_date")), name="event_ends_after_it_starts"
            ),
            models.CheckConstraint(
                condition=Q(target__isnull=True) | Q(target__gt=0), name="event_target_positive"
            ),
            models.CheckConstraint(
                condition=Q(hand_size__isnull=True) | Q(hand_size__gte=1, hand_size__lte=14),
                name="event_hand_size_in_range",
            ),
            models.CheckConstraint(
                condition=Q(table_size__gte=2, table_size__lte=4), name="event_table_size_2_to_4"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A partnership (or, in a head-to-head event, one player) taking part in an event."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    partnership = models.ForeignKey(
        Partnership, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="single_entries"
    )
    name = models.CharField(max_length=200, help_text=_("Display name: the team or the player."))
    seed = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTERED)
    late = models.BooleanField(default=False)
    pinned_table = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("Always seat this entry at this table (accessibility).")
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    # How it was checked in: at the desk, or by a player from the event's check-in page.
    checked_in_by_self = models.BooleanField(default=False)
    # The code printed on the entry's registration, for self check-in.
    check_in_code = models.CharField(max_length=16, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "name", "pk"]
        verbose_name_plural = "entries"
        constraints = [
            models.CheckConstraint(
                condition=(Q(partnership__isnull=False) & Q(player__isnull=True))
                | (Q(partnership__isnull=True) & Q(player__isnull=False)),
                name="entry_is_a_partnership_or_a_player",
            ),
            models.UniqueConstraint(
                fields=["event", "partnership"],
                condition=Q(partnership__isnull=False),
                name="entry_partnership_once_per_event",
            ),
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(player__isnull=False),
                name="entry_player_once_per_event",
            ),
            models.UniqueConstraint(
                fields=["event", "seed"], condition=Q(seed__isnull=False), name="entry_seed_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class EntryPlayer(models.Model):
    """Who plays for an entry: a player plays for at most one entry in an event.

    Kept by the registration service beside ``Entry`` so that the database itself refuses a
    player in two entries of the same event, and so that opponent history can be kept per player.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships")
    # The contact details this event collected for the player: its directors read and edit
    # these, never the contact another event (or the player's owner) holds.
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="player_once_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.entry}"


class EntryAvoidance(models.Model):
    """Two entries the director asks to keep apart while possible (a family, a couple): a
    pairing constraint of every format, below "no rematch" and above score groups early on."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="avoidances")
    entry_a = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    entry_b = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "entry_a", "entry_b"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "entry_a", "entry_b"], name="avoidance_once_per_pair"
            ),
            models.CheckConstraint(
                condition=Q(entry_a__lt=F("entry_b")), name="avoidance_entries_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry_a} / {self.entry_b}"


class Table(models.Model):
    """A numbered playing table of an event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField()
    location = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="table_number_per_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"


class Round(models.Model):
    """One round of an event. Draft (pairings being prepared) -> published -> in play -> closed."""

    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round robin")
        PLAYOFF = "playoff", _("Play-off")
        TIEBREAK = "tiebreak", _("Tiebreak")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        IN_PLAY = "in_play", _("In play")
        CLOSED = "closed", _("Closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.SWISS)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.DRAFT)
    time_limit_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    # How the round was made: the method, the salt-derived draws, warnings (rematches forced...).
    explanation = models.JSONField(default=dict, blank=True)
    # Table links are derived from this secret: rotating it revokes every printed link.
    link_secret = models.CharField(max_length=64, default=new_salt)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # The round clock (``services/round_clock.py``): not started while ``clock_started_at`` is
    # null; running until ``clock_ends_at``; paused while ``clock_paused_left`` (seconds) is set;
    # ended early by the director at ``clock_ended_at``.
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_ends_at = models.DateTimeField(null=True, blank=True)
    clock_paused_left = models.PositiveIntegerField(null=True, blank=True)
    clock_ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_per_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"


class Match(models.Model):
    """One match of a round: two entries at a table in seat order, or a bye (one entry).

    ``entry_a`` is the first side (seats 0 and 2 in a partnership game; seat 0 head to head),
    ``entry_b`` the second (seats 1 and 3; seat 1). A bye has no table and no ``entry_b``.
    A table of many (``table_entries`` 3 or 4: individual players at tables of three or four)
    keeps its seats 0 and 1 in ``entry_a`` and ``entry_b`` and every seat in ``RoundSeat``
    (``side`` = the seat).
    The pairing service is the only writer; the database refuses an entry twice in a round on
    the same side and a table twice in a round, and ``RoundSeat`` refuses the rest.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="matches"
    )
    entry_a = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    entry_b = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    is_bye = models.BooleanField(default=False)
    # Why this pairing: score group, float, bye reason, director override and its reason.
    explanation = models.JSONField(default=dict, blank=True)
    bracket_slot = models.CharField(max_length=32, blank=True)
    # A play-off match of several games: one Match row per game (``game_no`` 1, 2, ...), same
    # round, table, entries and bracket slot; game 1 holds the round's seats. ``target``
    # overrides the event's target for this game (raw points; null: the event's).
    game_no = models.PositiveSmallIntegerField(default=1)
    best_of = models.PositiveSmallIntegerField(default=1)
    target = models.PositiveIntegerField(null=True, blank=True, help_text=_("Raw points."))
    # Entries at the table: 2, or 3 and 4 at a table of many (their seats in ``RoundSeat``).
    table_entries = models.PositiveSmallIntegerField(default=2)

    class Meta:
        ordering = ["round", "table__number", "game_no", "pk"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(
                fields=["round", "table", "game_no"],
                condition=Q(table__isnull=False),
                name="table_once_per_round_and_game",
            ),
            models.CheckConstraint(
                condition=Q(game_no__gte=1) & Q(game_no__lte=F("best_of")),
                name="match_game_within_best_of",
            ),
            models.CheckConstraint(
                condition=(Q(is_bye=True) & Q(entry_b__isnull=True) & Q(table__isnull=True))
                | (Q(is_bye=False) & Q(entry_b__isnull=False)),
                name="match_is_two_entries_or_a_bye",
            ),
            models.CheckConstraint(condition=~Q(entry_a=F("entry_b")), name="match_entries_differ"),
            models.CheckConstraint(
                condition=Q(table_entries__gte=2, table_entries__lte=4),
                name="match_table_entries_2_to_4",
            ),
        ]

    def __str__(self) -> str:
        if self.is_bye:
            return f"{self.entry_a} (bye)"
        return f"{self.entry_a} v {self.entry_b}"


class RoundSeat(models.Model):
    """One row per entry per round it plays in: the database's guarantee that an entry plays at
    most once per round (whichever side of whichever match). Written with the match. ``side`` is
    the side (0, 1), or the seat (0 to 3) at a table of many."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    side = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="entry_once_per_round"),
            models.UniqueConstraint(fields=["match", "side"], name="one_entry_per_side"),
            models.CheckConstraint(condition=Q(side__lte=3), name="side_is_a_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} in {self.round} side {self.side}"


class AuditEntry(models.Model):
    """An append-only record of a change a director (or the system) made.

    Never updated or deleted (a database trigger refuses both): who, when, what, the state before
    and after, and the reason where one is asked for.
    """

    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.PROTECT, related_name="audit_entries"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=64)
    object_type = models.CharField(max_length=64)
    object_id = models.CharField(max_length=64, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name_plural = "audit entries"
        indexes = [models.Index(fields=["event", "-at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_type} {self.object_id}"


# --- Results (issue 6): claims, confirmed results, idempotent submissions -------------------


# Ratings' history and leagues live in ``tournaments/community.py``.
# A match's claims and confirmed results live in ``tournaments/result_records.py``.
# The bookkeeping rows (background jobs, idempotency records, standings state and snapshots,
# API keys, the workers' heartbeat) live in
# ``tournaments/bookkeeping.py``; they are the app's models all the same.
from tournaments.bookkeeping import (  # noqa: E402
    ApiToken,
    BackgroundJob,
    IdempotencyRecord,
    StandingsRecompute,
    StandingsSnapshot,
    StandingsState,
    WorkerHeartbeat,
)
from tournaments.community import League, RatingChange  # noqa: E402
from tournaments.integrations import (  # noqa: E402
    PushSubscription,
    WebhookDelivery,
    WebhookEndpoint,
)
from tournaments.result_records import Claim, MatchResult  # noqa: E402

__all__ = [
    "ApiToken",
    "AuditEntry",
    "BackgroundJob",
    "Claim",
    "Entry",
    "EntryAvoidance",
    "EntryPlayer",
    "Event",
    "IdempotencyRecord",
    "League",
    "Match",
    "MatchResult",
    "Partnership",
    "Player",
    "PushSubscription",
    "RatingChange",
    "Round",
    "RoundSeat",
    "StandingsRecompute",
    "StandingsSnapshot",
    "StandingsState",
    "Table",
    "WebhookDelivery",
    "WebhookEndpoint",
    "WorkerHeartbeat",
    "new_salt",
]
