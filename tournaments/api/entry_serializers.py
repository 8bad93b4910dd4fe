"""The entries API's serializers: registering an entry (players by name and club, or a known
player's id), editing one (name, seed, pinned table), its actions, the CSV import's report, and
what the API answers, with the schema's examples."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample
from rest_framework import serializers

from tournaments.api.event_serializers import name_field, optional_reason
from tournaments.api.pagination import page_serializer
from tournaments.api.serializers import StrictInput
from tournaments.models import Entry
from tournaments.services.entries import EDITABLE_FIELDS
from tournaments.services.entry_import import ImportPreview
from tournaments.services.versions import fingerprint

MAX_SEED = 1_000_000
MAX_TABLE = 10_000
# A query holds at most DATA_UPLOAD_MAX_NUMBER_FIELDS (1000) parameters in all.
MAX_REUSE = 500


class EntryPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    club = serializers.CharField(source="player.club", allow_blank=True)


class EntrySerializer(serializers.Serializer[Any]):
    """An entry as the director's entry page shows it (contact details: the player's own
    endpoint)."""

    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The team's name, or the player's (head to head).")
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    seed = serializers.IntegerField(allow_null=True)
    late = serializers.BooleanField(help_text="Registered after the rounds began.")
    pinned_table = serializers.IntegerField(
        allow_null=True, help_text="Always seated at this table (null: anywhere)."
    )
    registered_at = serializers.DateTimeField()
    checked_in_at = serializers.DateTimeField(allow_null=True)
    withdrawn_at = serializers.DateTimeField(allow_null=True)
    players = EntryPlayerSerializer(source="members.all", many=True, help_text="In seat order.")
    version = serializers.SerializerMethodField(
        help_text="The version of its name, seed and pinned table (the ETag)."
    )

    def get_version(self, entry: Entry) -> str:
        return fingerprint(entry, EDITABLE_FIELDS)


EntryPageSerializer = page_serializer("EntryPage", EntrySerializer(many=True))


class EntryQuerySerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=Entry.Status.choices, required=False, help_text="Only entries in this status."
    )
    q = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="Part of the entry's name or of a player's name (any case).",
    )


class PlayerInputSerializer(StrictInput):
    """A player of a new entry: a known player by ``id``, or by ``name`` (and ``club``), which
    finds the player of that exact name and club or makes a new one."""

    id = serializers.IntegerField(
        min_value=1, required=False, help_text="A known player (alone: no other field)."
    )
    name = name_field(120, "The player's name.", required=False)
    club = serializers.CharField(max_length=120, allow_blank=True, required=False)
    rating = serializers.IntegerField(
        min_value=0,
        max_value=100_000,
        allow_null=True,
        required=False,
        help_text="Kept when the player has none yet.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "id" in attrs and len(attrs) > 1:
            raise serializers.ValidationError({"id": ["Give a known player's id alone."]})
        if "id" not in attrs and "name" not in attrs:
            raise serializers.ValidationError({"name": ["Give the player's name, or an id."]})
        return attrs


class EntryCreateSerializer(StrictInput):
    players = serializers.ListField(
        child=PlayerInputSerializer(),
        min_length=1,
        max_length=2,
        help_text="Two in a partnership event (the first is player A), one head to head.",
    )
    team = serializers.CharField(
        max_length=120,
        allow_blank=True,
        required=False,
        help_text="Optional team name (partnerships; the default is 'A & B').",
    )
    seed = serializers.IntegerField(
        min_value=1, max_value=MAX_SEED, allow_null=True, required=False
    )
    late = serializers.BooleanField(
        default=False,
        help_text="A late entry, once rounds exist (it plays from the next round); before any "
        "round, leave it out (409 no_rounds_yet / rounds_started otherwise).",
    )


class EntryUpdateSerializer(StrictInput):
    """What the entry page edits; only the fields sent change (each its own audit entry)."""

    name = name_field(200, "The name the entry is shown by.", required=False)
    seed = serializers.IntegerField(
        min_value=1, max_value=MAX_SEED, allow_null=True, required=False, help_text="Null: none."
    )
    pinned_table = serializers.IntegerField(
        min_value=1,
        max_value=MAX_TABLE,
        allow_null=True,
        required=False,
        help_text="Always seat the entry at this table (e.g. step-free access); null unpins.",
    )
    reason = optional_reason()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "reason" in attrs and "pinned_table" not in attrs:
            raise serializers.ValidationError(
                {"reason": ["A reason goes with a pinned table: send pinned_table too."]}
            )
        return attrs


class EntryActionSerializer(StrictInput):
    reason = optional_reason()


class ImportQuerySerializer(serializers.Serializer[Any]):
    dry_run = serializers.BooleanField(
        default=False,
        help_text="1: check the CSV and answer the preview (what each line would create, "
        "what is wrong); nothing is written.",
    )
    reuse = serializers.ListField(
        child=serializers.RegexField(r"^[0-9]{1,5}:[0-9]$", max_length=7),
        required=False,
        max_length=MAX_REUSE,
        help_text="Accepted offers, 'line:player' as the preview's offer_key: that player is the "
        f"known player offered (same name and club but for accents or case), not a new one. At "
        f"most {MAX_REUSE} in one request.",
    )


class ImportProblemSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField()
    message = serializers.CharField()


class ImportOfferSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)


class ImportPlayerSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    rating = serializers.IntegerField(allow_null=True)
    known = serializers.BooleanField(help_text="A player of this exact name and club exists.")
    offer = ImportOfferSerializer(
        allow_null=True, help_text="A known player who is likely the same person (reuse)."
    )
    offer_key = serializers.CharField(help_text="What reuse takes to accept the offer.")


class ImportRowSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField()
    team = serializers.CharField(allow_blank=True)
    seed = serializers.IntegerField(allow_null=True)
    players = ImportPlayerSerializer(many=True)


class ImportPreviewSerializer(serializers.Serializer[Any]):
    """The import page's preview: every line checked, nothing written."""

    ok = serializers.BooleanField(help_text="Every line is good: the import would take them all.")
    columns = serializers.ListField(child=serializers.CharField(), help_text="In CSV order.")
    rows = ImportRowSerializer(many=True, help_text="The good lines.")
    errors = ImportProblemSerializer(  # type: ignore[assignment]
        many=True, help_text="What to fix, line by line."
    )
    warnings = ImportProblemSerializer(
        many=True, help_text="Importable, but worth a look (cells that start like a formula)."
    )


class ImportResultSerializer(serializers.Serializer[Any]):
    created = serializers.IntegerField()
    entries = EntrySerializer(many=True)


def preview_body(preview: ImportPreview) -> dict[str, Any]:
    """The import service's preview as the API answers it."""
    return {
        "ok": preview.ok,
        "columns": list(preview.columns),
        "rows": [
            {
                "line": row.line,
                "team": row.team_name,
                "seed": row.seed,
                "players": [
                    {
                        "name": spec.name,
                        "club": spec.club,
                        "rating": spec.rating,
                        "known": known,
                        "offer": None
                        if offer is None
                        else {"id": offer.pk, "name": offer.name, "club": offer.club},
                        "offer_key": key,
                    }
                    for spec, known, offer, key in row.people_offers
                ],
            }
            for row in preview.rows
        ],
        "errors": [{"line": p.line, "message": p.message} for p in preview.errors],
        "warnings": [{"line": p.line, "message": p.message} for p in preview.warnings],
    }


REGISTER_EXAMPLE = OpenApiExample(
    "A partnership: a new player and a known one",
    request_only=True,
    value={
        "players": [{"name": "Ana Ramírez", "club": "Sevilla", "rating": 1500}, {"id": 42}],
        "team": "Aces",
        "seed": 3,
    },
)
LATE_EXAMPLE = OpenApiExample(
    "A late entry",
    request_only=True,
    value={"players": [{"name": "Bo Lee"}, {"name": "Cy Diaz"}], "late": True},
)
UPDATE_EXAMPLE = OpenApiExample(
    "Seed 2, always at table 1",
    request_only=True,
    value={"seed": 2, "pinned_table": 1, "reason": "Step-free access"},
)
WITHDRAW_EXAMPLE = OpenApiExample(
    "Withdraw with a reason", request_only=True, value={"reason": "Feeling unwell"}
)
CSV_EXAMPLE = OpenApiExample(
    "Two partnerships, with a header",
    request_only=True,
    media_type="text/csv",
    value="player_a,club_a,player_b,club_b,team,seed\n"
    "Ana Ramírez,Sevilla,Bo Lee,Sevilla,Aces,1\n"
    "Cy Diaz,,Di Wu,,,\n",
)
