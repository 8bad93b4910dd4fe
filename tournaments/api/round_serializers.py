"""The rounds API's serializers: what a director sends to generate, edit, move and time a
round, and what comes back (a round as the list and the review page show it, a background job,
the play-off's next round, a finished event's placings)."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema_field
from rest_framework import serializers

from tournaments import job_kinds
from tournaments.api.pagination import page_serializer
from tournaments.api.serializers import (
    STORABLE_TEXT,
    FlagField,
    NumberField,
    RoundClockSerializer,
    StrictInput,
    TextField,
    reason_field,
)
from tournaments.models import BackgroundJob, Event, Round
from tournaments.pairing.records import Violation
from tournaments.selectors import rounds as selectors
from tournaments.selectors.desk import playing_after_time, round_clock
from tournaments.selectors.results import round_board

GENERATE_KINDS = {
    "next": "the event's next round: a Swiss or round robin round, or, once the play-off is "
    "seeded, its next bracket round",
    "playoff": "seed the play-off bracket from the final standings (its first round)",
    "tiebreak": "propose a tiebreak round among the entries tied across a place that matters",
}
"""What ``POST rounds/generate/`` can start (``kind``), as the pages offer them: the rounds
page's "Generate", and the standings page's "Seed the play-off" and "Propose a tiebreak
round"."""

GENERATE_KIND_CHOICES = list(GENERATE_KINDS)
"""The same, as the schema's enum (``GenerateKindEnum``)."""

ROUND_ACTIONS = ("publish", "start", "close", "discard")
"""``POST rounds/<n>/<action>/``: the round review page's buttons."""

CLOCK_ACTIONS = ("start", "pause", "resume", "extend", "end")
"""``POST rounds/<n>/clock/<action>/``: the round clock's controls."""


# --- Rounds --------------------------------------------------------------------------------------


class RoundSummarySerializer(serializers.ModelSerializer[Round]):
    """A round as the rounds page lists it."""

    match_count = serializers.SerializerMethodField(help_text="Tables (a best-of match: once).")
    bye_count = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField(help_text="The round's review (round-detail).")

    class Meta:
        model = Round
        fields = [
            "number",
            "kind",
            "status",
            "match_count",
            "bye_count",
            "time_limit_minutes",
            "created_at",
            "published_at",
            "closed_at",
            "url",
        ]

    def get_match_count(self, obj: Round) -> int:
        count = getattr(obj, "match_count", None)
        return (
            int(count) if count is not None else obj.matches.filter(is_bye=False, game_no=1).count()
        )

    def get_bye_count(self, obj: Round) -> int:
        count = getattr(obj, "bye_count", None)
        return int(count) if count is not None else obj.matches.filter(is_bye=True).count()

    def get_url(self, obj: Round) -> str:
        return round_url(obj)


def round_url(rnd: Round) -> str:
    return reverse("api:round-detail", args=[rnd.event.slug, rnd.number])


class RoundListQuerySerializer(serializers.Serializer[Any]):
    """The rounds list's filters (its page: ``limit`` and ``cursor``)."""

    status = serializers.ChoiceField(
        choices=Round.Status.choices, required=False, help_text="Only rounds in this status."
    )
    kind = serializers.ChoiceField(
        choices=Round.Kind.choices, required=False, help_text="Only rounds of this kind."
    )


RoundPageSerializer = page_serializer("RoundPage", RoundSummarySerializer(many=True))


class EntryRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())


class OverrideSerializer(serializers.Serializer[Any]):
    """A director's edit of a pairing (kept on the match)."""

    action = serializers.CharField(help_text="swap_entries or swap_tables.")
    what = serializers.CharField()
    reason = serializers.CharField()
    by = serializers.CharField(help_text="The director's username.")
    at = serializers.DateTimeField()


class RoundTableSerializer(serializers.Serializer[Any]):
    """One table of a round (a best-of play-off match: its first game's match)."""

    match = serializers.IntegerField(help_text="The match's id (matches/<id>/).")
    table = serializers.IntegerField()
    entry_a = EntryRefSerializer(help_text="Side A (side 0).")
    entry_b = EntryRefSerializer(help_text="Side B (side 1).")
    seats = EntryRefSerializer(
        many=True,
        help_text="Every entry at the table in seat order: [A, B], or 3 or 4 at a table of "
        "many (individual players at tables of 3 or 4: seats 0 and 1 are entry_a, entry_b).",
    )
    reason = serializers.CharField(help_text="Why these entries meet, in words.")
    rematch = serializers.BooleanField(help_text="An unavoidable rematch.")
    first_leader = serializers.CharField(help_text="Who leads the first hand (by lot).")
    bracket_slot = serializers.CharField(help_text="A play-off match's bracket id (else '').")
    stage = serializers.CharField(help_text="A play-off match's stage, e.g. Final (else '').")
    series = serializers.CharField(help_text="A best-of match's series so far (else '').")
    why = serializers.JSONField(help_text="The pairing's stored explanation.")
    overrides = OverrideSerializer(many=True)


class RoundByeSerializer(serializers.Serializer[Any]):
    match = serializers.IntegerField()
    entry = EntryRefSerializer()
    reason = serializers.CharField()
    overrides = OverrideSerializer(many=True)


class FindingSerializer(serializers.Serializer[Any]):
    """A finding of the pairing checker."""

    code = serializers.CharField(help_text="rematch, second_bye, missing, pin, ... or override.")
    table = serializers.IntegerField(allow_null=True)
    message = serializers.CharField()
    text = serializers.CharField(help_text="The line the review page shows (entries named).")


class RoundChecksSerializer(serializers.Serializer[Any]):
    violations = FindingSerializer(
        many=True, help_text="What the checker rejects: a draft with any is not published."
    )
    overrides = FindingSerializer(
        many=True, help_text="What the director's edits (with a reason) changed."
    )


class RankedEntrySerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    name = serializers.CharField()


class RoundDetailSerializer(RoundSummarySerializer):
    """A round as its review page shows it."""

    tables = serializers.SerializerMethodField()
    byes = serializers.SerializerMethodField()
    checks = serializers.SerializerMethodField()
    ranking = serializers.SerializerMethodField(
        help_text="The order the round was paired from, best first (names as on the page)."
    )
    explanation = serializers.SerializerMethodField(
        help_text="How the round was made: the salt, the matching's weight and window, the "
        "ranking, rematches, notes and every salted draw (recomputable from the event's salt)."
    )
    clock = serializers.SerializerMethodField()
    late_tables = serializers.SerializerMethodField(
        help_text="Tables still playing after time (no confirmed result once the clock is up)."
    )

    class Meta(RoundSummarySerializer.Meta):
        fields = [
            *RoundSummarySerializer.Meta.fields,
            "tables",
            "byes",
            "checks",
            "ranking",
            "explanation",
            "clock",
            "late_tables",
        ]

    def _view(self, obj: Round) -> selectors.RoundView:
        cache: dict[int, selectors.RoundView] = self.context.setdefault("views", {})
        if obj.pk not in cache:
            cache[obj.pk] = selectors.round_view(obj)
        return cache[obj.pk]

    def _names(self, obj: Round) -> dict[int, str]:
        return {e.entry_id: e.name for e in self._view(obj).entries}

    @extend_schema_field(RoundTableSerializer(many=True))
    def get_tables(self, obj: Round) -> list[dict[str, Any]]:
        return [
            {
                "match": m.match_id,
                "table": m.table,
                "entry_a": _entry(m.entry_a),
                "entry_b": _entry(m.entry_b) if m.entry_b is not None else None,
                "seats": [_entry(e) for e in m.entries],
                "reason": m.reason,
                "rematch": bool(m.explanation.get("rematch", False)),
                "first_leader": m.first_leader,
                "bracket_slot": m.bracket_slot,
                "stage": m.stage,
                "series": m.series,
                "why": {k: v for k, v in m.explanation.items() if k != "overrides"},
                "overrides": [_override(o) for o in m.overrides],
            }
            for m in self._view(obj).matches
        ]

    @extend_schema_field(RoundByeSerializer(many=True))
    def get_byes(self, obj: Round) -> list[dict[str, Any]]:
        return [
            {
                "match": b.match_id,
                "entry": _entry(b.entry_a),
                "reason": b.reason,
                "overrides": [_override(o) for o in b.overrides],
            }
            for b in self._view(obj).byes
        ]

    @extend_schema_field(RoundChecksSerializer)
    def get_checks(self, obj: Round) -> dict[str, Any]:
        names = self._names(obj)
        findings = selectors.round_conflicts(obj)
        return {
            "violations": [_finding(v, names) for v in findings if v.is_violation],
            "overrides": [_finding(v, names) for v in findings if not v.is_violation],
        }

    @extend_schema_field(RankedEntrySerializer(many=True))
    def get_ranking(self, obj: Round) -> list[dict[str, Any]]:
        names = self._names(obj)
        ranking = obj.explanation.get("ranking", []) if isinstance(obj.explanation, dict) else []
        return [
            {"entry": int(e), "name": names.get(int(e), f"entry {e}")}
            for e in ranking
            if str(e).lstrip("-").isdigit()
        ]

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_explanation(self, obj: Round) -> dict[str, Any]:
        return obj.explanation if isinstance(obj.explanation, dict) else {}

    @extend_schema_field(RoundClockSerializer)
    def get_clock(self, obj: Round) -> dict[str, Any]:
        return round_clock(obj).as_dict()

    def get_late_tables(self, obj: Round) -> int:
        clock = round_clock(obj)
        return len(playing_after_time(round_board(obj), clock)) if clock.expired else 0


def _entry(view: selectors.EntryView) -> dict[str, Any]:
    return {"id": view.entry_id, "name": view.name, "players": list(view.players)}


def _override(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "action": str(data.get("action", "")),
        "what": str(data.get("what", "")),
        "reason": str(data.get("reason", "")),
        "by": str(data.get("by", "")),
        "at": data.get("at"),
    }


def _finding(v: Violation, names: dict[int, str]) -> dict[str, Any]:
    return {
        "code": v.code,
        "table": v.table,
        "message": v.message,
        "text": selectors.describe_violation(v, names),
    }


class SideLinkSerializer(serializers.Serializer[Any]):
    side = serializers.IntegerField(help_text="0: side A (entry_a), 1: side B (entry_b).")
    letter = serializers.CharField(help_text="A or B.")
    entry = serializers.IntegerField()
    name = serializers.CharField()
    token = serializers.CharField(help_text="For the API: 'Authorization: Table <token>'.")
    url = serializers.CharField(help_text="The side's entry page (/t/<token>/), for a phone.")


class TableLinksSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    match = serializers.IntegerField(help_text="The table's match (a best-of match: game 1).")
    sides = SideLinkSerializer(many=True)


# --- Generation and its job ----------------------------------------------------------------------


class RoundGenerateInputSerializer(StrictInput):
    kind = serializers.ChoiceField(
        choices=GENERATE_KIND_CHOICES,
        default="next",
        help_text="; ".join(f"{k}: {v}" for k, v in GENERATE_KINDS.items()) + ".",
    )


class JobSerializer(serializers.ModelSerializer[BackgroundJob]):
    """A background job a director waits on (poll ``url`` until ``status`` is done or failed)."""

    kind_label = serializers.SerializerMethodField(help_text="The job's kind in words.")
    round = serializers.SerializerMethodField(
        help_text="The round the job made (done; null before, and when it failed)."
    )
    error = serializers.SerializerMethodField(
        help_text="Why it failed ({code, message, details}; null unless failed)."
    )
    url = serializers.SerializerMethodField()

    class Meta:
        model = BackgroundJob
        fields = [
            "id",
            "kind",
            "kind_label",
            "status",
            "progress",
            "message",
            "result",
            "round",
            "error",
            "created_at",
            "updated_at",
            "url",
        ]
        extra_kwargs = {
            "result": {"help_text": "What the job returned (done) or its error (failed)."},
            "progress": {"help_text": "0 to 100."},
        }

    def get_kind_label(self, obj: BackgroundJob) -> str:
        return job_kinds.label(obj.kind)

    @extend_schema_field(RoundSummarySerializer(allow_null=True))
    def get_round(self, obj: BackgroundJob) -> dict[str, Any] | None:
        number = obj.result.get("round") if obj.status == BackgroundJob.Status.DONE else None
        if number is None or obj.event is None:
            return None
        rnd = Round.objects.filter(event=obj.event, number=number).select_related("event").first()
        return RoundSummarySerializer(rnd).data if rnd is not None else None

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_error(self, obj: BackgroundJob) -> dict[str, Any] | None:
        if obj.status != BackgroundJob.Status.FAILED:
            return None
        result = obj.result if isinstance(obj.result, dict) else {}
        return {
            "code": str(result.get("code", "internal_error")),
            "message": obj.message,
            "details": result.get("details", {}),
        }

    def get_url(self, obj: BackgroundJob) -> str:
        assert obj.event is not None
        return job_url(obj.event, obj.pk)


def job_url(event: Event, job_id: int) -> str:
    return reverse("api:job-detail", args=[event.slug, job_id])


class JobAnswerSerializer(serializers.Serializer[Any]):
    job = JobSerializer()


# --- Edits, status moves, the clock --------------------------------------------------------------


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 1, "maximum": 2147483647},
        "minItems": 2,
        "maxItems": 2,
    }
)
class PairField(serializers.ListField):
    """Two ids (entries) or numbers (tables)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            child=NumberField(min_value=1, max_value=2147483647),
            min_length=2,
            max_length=2,
            **kwargs,
        )


class RoundSwapInputSerializer(StrictInput):
    entries = PairField(
        required=False, help_text="Two entry ids: each takes the other's place (match and side)."
    )
    tables = PairField(required=False, help_text="Two table numbers: their matches swap tables.")
    reason = reason_field("Why the pairing changes (goes in the audit log and on the match).")
    dry_run = FlagField(
        default=False,
        help_text="Entries only: answer the checker's findings as if swapped; nothing changes.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("entries" in attrs) == ("tables" in attrs):
            raise serializers.ValidationError(
                {"entries": ["Send exactly one of 'entries' and 'tables'."]}
            )
        if attrs.get("dry_run") and "tables" in attrs:
            raise serializers.ValidationError(
                {"dry_run": ["A dry run previews a swap of entries; tables change no pairing."]}
            )
        return attrs


class SwapPreviewSerializer(serializers.Serializer[Any]):
    findings = FindingSerializer(
        many=True, help_text="The checker's findings on the round as if the entries swapped."
    )


class RoundActionInputSerializer(StrictInput):
    reason = TextField(
        required=False,
        min_length=1,
        max_length=2000,
        validators=[RegexValidator(STORABLE_TEXT, message="Give a reason (some visible text).")],
        help_text="discard: why the draft goes (required: 400 reason_required without it). "
        "Ignored otherwise.",
    )


class ClockInputSerializer(StrictInput):
    minutes = NumberField(
        min_value=1,
        max_value=120,
        required=False,
        help_text="extend: the whole minutes to add, 1 to 120 (required). Ignored otherwise.",
    )


class RoundClockAnswerSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    status = serializers.CharField()
    clock = RoundClockSerializer()


# --- The play-off and the finish -----------------------------------------------------------------


class RoundAnswerSerializer(serializers.Serializer[Any]):
    round = RoundSummarySerializer()


class PlacingSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    entry_id = serializers.IntegerField()
    name = serializers.CharField()
    eliminated_in = serializers.CharField(allow_null=True)
    shared = serializers.BooleanField(help_text="The place is shared with other entries.")


class FinishCheckSerializer(serializers.Serializer[Any]):
    ready = serializers.BooleanField(help_text="The event may finish now.")
    error = serializers.JSONField(
        allow_null=True, help_text="Why not ({code, message, details}), or null."
    )
    placings = PlacingSerializer(many=True, help_text="What finishing now would freeze.")
    unplayed = serializers.ListField(
        child=serializers.CharField(),
        help_text="Play-off matches still to play (a third-place match...): finishing now counts "
        "them as not played.",
    )


class EventFinishedSerializer(serializers.Serializer[Any]):
    event = serializers.CharField(help_text="The event's slug.")
    status = serializers.CharField()
    finished_at = serializers.DateTimeField()
    placings = PlacingSerializer(many=True)


# --- Examples ------------------------------------------------------------------------------------

GENERATE_EXAMPLES = [
    OpenApiExample("The next round", value={"kind": "next"}, request_only=True),
    OpenApiExample("Seed the play-off", value={"kind": "playoff"}, request_only=True),
    OpenApiExample("A tiebreak round", value={"kind": "tiebreak"}, request_only=True),
    OpenApiExample(
        "Started",
        value={
            "job": {
                "id": 42,
                "kind": "generate_round",
                "kind_label": "Generating a round",
                "status": "pending",
                "progress": 0,
                "message": "Waiting for a worker to pair round 3",
                "result": {},
                "round": None,
                "error": None,
                "created_at": "2026-12-05T10:00:00Z",
                "updated_at": "2026-12-05T10:00:00Z",
                "url": "/api/events/winter-open/jobs/42/",
            }
        },
        response_only=True,
        status_codes=["202"],
    ),
]
SWAP_EXAMPLES = [
    OpenApiExample(
        "Swap two entries",
        value={"entries": [12, 17], "reason": "Club mates: keep them apart"},
        request_only=True,
    ),
    OpenApiExample(
        "Swap two tables",
        value={"tables": [1, 4], "reason": "Table 1 needs step-free access"},
        request_only=True,
    ),
    OpenApiExample(
        "Preview a swap",
        value={"entries": [12, 17], "reason": "checking", "dry_run": True},
        request_only=True,
    ),
]
