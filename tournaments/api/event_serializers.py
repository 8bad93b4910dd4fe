"""The events API's serializers: an event's settings as the director's settings page has them
(every field of ``services.events.SETTINGS_FIELDS``), what creating one takes, the status steps,
and what the API answers, with the schema's examples.

Scores here are RAW points, as the event keeps them and the results API takes them (the pages
take displayed points and convert): in ``five-up`` and ``five-up-7`` a target of 61 displayed
points is 305 raw; in ``all-fives`` raw and displayed are the same. The serializers check types
and bounds; the settings' rules (dates in order, win >= draw >= loss, a target the engine
accepts...) are the service's, with its own error codes.
"""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from tournaments.api.pagination import page_serializer
from tournaments.api.serializers import STORABLE_TEXT, StrictInput
from tournaments.models import Event
from tournaments.pairing.best_of import BEST_OF
from tournaments.services import events as event_services
from tournaments.services.versions import fingerprint

_RAW = "Raw points (five-up: 61 displayed is 305 raw)"


def name_field(max_length: int, help_text: str, *, required: bool = True) -> serializers.CharField:
    """A name a person reads: at least one visible character, no NUL."""
    return serializers.CharField(
        required=required,
        min_length=1,
        max_length=max_length,
        validators=[RegexValidator(STORABLE_TEXT, message="Give a name (some visible text).")],
        help_text=help_text,
    )


def _int(low: int, high: int, help_text: str, **kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=low, max_value=high, help_text=help_text, **kwargs)


class PlayoffFormatSerializer(StrictInput):
    best_of = serializers.ChoiceField(
        choices=list(BEST_OF), required=False, help_text="Games in the match (1)."
    )
    target = _int(
        1, 1_000_000, f"{_RAW}; null: the event's target.", required=False, allow_null=True
    )


class PlayoffFormatsSerializer(StrictInput):
    """Per play-off stage, best of 1, 3 or 5 games to a target; a stage left out is best of 1
    to the event's target."""

    final = PlayoffFormatSerializer(required=False)
    semi_final = PlayoffFormatSerializer(required=False)
    quarter_final = PlayoffFormatSerializer(required=False)
    third_place = PlayoffFormatSerializer(required=False)
    earlier = PlayoffFormatSerializer(required=False)


class EventSettingsSerializer(StrictInput):
    """Every setting of the event's settings page (a PATCH sends only those it changes)."""

    name = name_field(200, "The event's name.")
    start_date = serializers.DateField(help_text="The first day.")
    end_date = serializers.DateField(help_text="The last day (not before the first).")
    venue = serializers.CharField(max_length=200, allow_blank=True, required=False)
    time_zone = serializers.CharField(
        max_length=64,
        required=False,
        help_text="The venue's IANA time zone (e.g. America/Chicago; default UTC): every time "
        "on the event's pages is shown in it. Not a zone: 422 invalid_time_zone, with the "
        "nearest names.",
    )
    status = serializers.ChoiceField(
        choices=Event.Status.choices,
        required=False,
        help_text="draft (only its directors see it), registration, running, finished. The "
        "publish endpoint takes the same steps.",
    )
    rules = serializers.ChoiceField(choices=Event.Rules.choices, required=False)
    target = _int(1, 1_000_000, f"{_RAW}; null: the rules' usual.", required=False, allow_null=True)
    hand_size = _int(
        1, 14, "Tiles per player; null: the rules' deal.", required=False, allow_null=True
    )
    entry_kind = serializers.ChoiceField(
        choices=Event.EntryKind.choices,
        required=False,
        help_text="Fixed once entries exist (409 entries_exist).",
    )
    table_size = serializers.ChoiceField(
        choices=[2, 3, 4],
        required=False,
        help_text="Players at a table in an individual event (entry_kind single): 2 head to "
        "head, 3 or 4 seated by the Swiss at tables of many. A partnership event: 2 (two "
        "partnerships). Fixed once a round exists.",
    )
    mixed_table_sizes = serializers.BooleanField(
        required=False,
        help_text="A field that does not divide evenly also gets the next smaller table (4: "
        "4s and 3s; 3: 3s and 2s); false: byes.",
    )
    placing_points = serializers.JSONField(
        required=False,
        help_text='Match points by place at tables of 3 or 4: {"4": [4, 2, 1, 0], "3": [4, 2, '
        '0]} (a list per table size, 1st place first; halves as "3/2"), or {"proportional": 10} '
        "(points a table shared in proportion to score); {}: those defaults.",
    )
    table_confirmation = serializers.ChoiceField(
        choices=Event.TableConfirmation.choices,
        required=False,
        help_text="At a table of 3 or 4: every other player confirms the result, or a majority.",
    )
    avoid_same_club = serializers.BooleanField(
        required=False,
        help_text="Keep entries of one club apart while possible (a partnership is of a club "
        "when both partners are); named pairs: the entries' avoidances.",
    )
    time_policy = serializers.ChoiceField(choices=Event.TimePolicy.choices, required=False)
    round_minutes = _int(1, 1440, "How long a round lasts.", required=False)
    allow_final_score_only = serializers.BooleanField(required=False)
    require_other_device = serializers.BooleanField(
        required=False,
        help_text="A result is confirmed only from another phone than the one that sent it.",
    )
    format = serializers.ChoiceField(choices=Event.Format.choices, required=False)
    swiss_rounds = _int(0, 1000, "Swiss rounds (at least 1 in a Swiss event).", required=False)
    playoff = serializers.ChoiceField(choices=Event.Playoff.choices, required=False)
    playoff_qualifiers = _int(0, 1024, "Entries in the play-off (at least 2).", required=False)
    playoff_consolation = serializers.ChoiceField(
        choices=Event.Consolation.choices, required=False, allow_blank=True
    )
    playoff_reset = serializers.BooleanField(required=False)
    playoff_formats = PlayoffFormatsSerializer(required=False)
    first_round = serializers.ChoiceField(
        choices=["random", "rating", "seed"], required=False, help_text="How round 1 pairs."
    )
    rated = serializers.BooleanField(required=False)
    points_win = _int(0, 1000, "Match points for a win.", required=False)
    points_draw = _int(0, 1000, "Match points for a draw.", required=False)
    points_loss = _int(0, 1000, "Match points for a loss.", required=False)
    points_bye = _int(0, 1000, "Match points for a bye.", required=False)
    margin_bonus_points = _int(0, 1000, "Bonus match points for a wide win.", required=False)
    margin_bonus_at = _int(
        0, 1_000_000, f"{_RAW}: the margin earning it (0: none).", required=False
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(event_services.TIEBREAKS)),
        max_length=len(event_services.TIEBREAKS),
        required=False,
        help_text="In order, after match points; each once.",
    )
    forfeit_score = _int(
        1,
        1_000_000,
        f"{_RAW} a forfeit wins by; null: the target.",
        required=False,
        allow_null=True,
    )
    points_forfeit_win = _int(
        -1000, 1000, "Null: as a played win.", required=False, allow_null=True
    )
    points_forfeit_loss = _int(
        -1000, 1000, "Null: as a played loss.", required=False, allow_null=True
    )
    points_double_forfeit = _int(
        -1000, 1000, "Null: as a played loss.", required=False, allow_null=True
    )
    forfeit_spread = serializers.BooleanField(required=False)
    public_listing = serializers.BooleanField(required=False)
    public_entries = serializers.BooleanField(required=False)
    public_pairings = serializers.BooleanField(required=False)
    public_results = serializers.BooleanField(required=False)
    public_standings = serializers.BooleanField(required=False)

    def settings(self) -> dict[str, Any]:
        """The validated settings, as ``create_event`` / ``update_event`` take them."""
        fields = event_services.SETTINGS_FIELDS
        return {k: v for k, v in self.validated_data.items() if k in fields}


def optional_reason() -> serializers.CharField:
    """An optional reason for the audit log: when sent, some visible text."""
    return serializers.CharField(
        required=False,
        max_length=2000,
        validators=[RegexValidator(STORABLE_TEXT, message="Give a reason (some visible text).")],
        help_text="Optional: why (goes in the audit log).",
    )


class EventUpdateSerializer(EventSettingsSerializer):
    reason = optional_reason()


class EventCreateSerializer(EventSettingsSerializer):
    slug = serializers.SlugField(
        max_length=80,
        required=False,
        help_text="The web address (/events/<slug>/); made from the name when left out.",
    )


class EventStatusSerializer(StrictInput):
    status = serializers.ChoiceField(
        choices=Event.Status.choices,
        default=Event.Status.REGISTRATION,
        help_text="The step to take (registration: publish and open registration). finished "
        'on an event with rounds is "Finish the event": it freezes the final placings and is '
        "refused until the final is decided.",
    )
    reason = optional_reason()


class EventSerializer(EventSettingsSerializer):
    """An event and all its settings, with its version (the ``ETag``)."""

    slug = serializers.SlugField()
    venue = serializers.CharField(allow_blank=True)
    salt = serializers.CharField(help_text="Published: it seeds the event's random draws.")
    league = serializers.CharField(
        source="league.slug", allow_null=True, help_text="The league it counts in (its slug)."
    )
    finished_at = serializers.DateTimeField(allow_null=True)
    placings = serializers.JSONField(
        allow_null=True, help_text="A finished event's final placings, best first."
    )
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    version = serializers.SerializerMethodField(help_text="The settings' version (the ETag).")

    def get_version(self, event: Event) -> str:
        return fingerprint(event, event_services.SETTINGS_FIELDS)


class EventSummarySerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    start_date = serializers.DateField()
    end_date = serializers.DateField()
    venue = serializers.CharField(allow_blank=True)
    status = serializers.ChoiceField(choices=Event.Status.choices)
    rules = serializers.ChoiceField(choices=Event.Rules.choices)
    entry_kind = serializers.ChoiceField(choices=Event.EntryKind.choices)
    format = serializers.ChoiceField(choices=Event.Format.choices)
    playoff = serializers.ChoiceField(choices=Event.Playoff.choices)
    public_listing = serializers.BooleanField()


EventPageSerializer = page_serializer("EventPage", EventSummarySerializer(many=True))


class EventQuerySerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=Event.Status.choices, required=False, help_text="Only events in this status."
    )


CREATE_EXAMPLE = OpenApiExample(
    "A one-day Five Up open",
    request_only=True,
    value={
        "name": "Spring Open",
        "slug": "spring-open",
        "start_date": "2026-04-11",
        "end_date": "2026-04-11",
        "venue": "Club house",
        "rules": "five-up",
        "swiss_rounds": 5,
        "playoff": "single",
        "playoff_qualifiers": 8,
        "playoff_formats": {"final": {"best_of": 3, "target": 605}},
        "tiebreaks": ["buchholz", "spread"],
        "public_listing": True,
    },
)
UPDATE_EXAMPLE = OpenApiExample(
    "Longer rounds, one more round",
    request_only=True,
    value={"round_minutes": 50, "swiss_rounds": 6, "reason": "Late start"},
)
PUBLISH_EXAMPLE = OpenApiExample(
    "Publish and open registration", request_only=True, value={"status": "registration"}
)
