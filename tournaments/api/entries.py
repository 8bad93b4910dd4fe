"""The entries API, the director's entry pages in another form: list and search entries,
register one (late entries too), import a CSV (with the page's preview as a dry run), edit an
entry's name, seed and pinned table, and the entry list's buttons (check in, undo a check-in,
withdraw, reinstate).

Every write is the pages' own service call (``services.entries``, ``services.entry_import``),
audited there, inside ``run_idempotent``. An entry's name, seed and pinned table have a version
(the ``ETag``); an edit sending it back in ``If-Match`` is refused with 412 ``stale_version``
when one of them changed since. Who may: the event's directors (staff read, change nothing:
403 ``read_only_staff``); anyone else gets 404 for the event, a table link 403.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.entry_serializers import (
    CSV_EXAMPLE,
    LATE_EXAMPLE,
    REGISTER_EXAMPLE,
    UPDATE_EXAMPLE,
    WITHDRAW_EXAMPLE,
    EntryActionSerializer,
    EntryCreateSerializer,
    EntryPageSerializer,
    EntryQuerySerializer,
    EntrySerializer,
    EntryUpdateSerializer,
    ImportPreviewSerializer,
    ImportQuerySerializer,
    ImportResultSerializer,
    preview_body,
)
from tournaments.api.events import EventApi, acting_user
from tournaments.api.idempotency import etag, parse_tag, run_idempotent
from tournaments.api.pagination import Keyset, PageQuerySerializer, query_of
from tournaments.api.parsers import CsvTextParser, PlainTextCsvParser
from tournaments.api.permissions import DirectorOnly
from tournaments.api.serializers import IDEMPOTENCY_OPTIONAL, errors, if_match_tag
from tournaments.api.throttles import UserRateThrottle
from tournaments.errors import ValidationFailed
from tournaments.models import Entry, Event, Player
from tournaments.selectors import players as player_selectors
from tournaments.selectors import registration as selectors
from tournaments.services import entries as entry_services
from tournaments.services import entry_import, versions
from tournaments.services.entries import PlayerSpec

ENTRIES = Keyset("entries", ("name", "pk"))
ENTRY_VERSION = "the entry's name, seed and pinned table (its ETag)"
ACTION = OpenApiParameter(
    "action",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    enum=list(entry_services.ENTRY_ACTIONS),
    description="The entry list's buttons: check-in, undo-check-in, withdraw, reinstate.",
)


def entry_answer(
    entry: Entry, *, code: int = 200, headers: dict[str, str] | None = None
) -> Response:
    body = EntrySerializer(entry).data
    return Response(body, status=code, headers={"ETag": etag(body["version"]), **(headers or {})})


class EntryApi(EventApi):
    """The event's directors only (staff read); counted per account."""

    permission_classes = [DirectorOnly]
    throttle_classes = [UserRateThrottle]

    def get_entry(self, request: Request, slug: str, entry_id: int) -> tuple[Event, Entry]:
        event = self.get_event(request, slug)
        return event, selectors.get_entry(event=event, entry_id=entry_id)


def _known_player(request: Request, index: int, player_id: int) -> Player:
    """A player given by id: one the caller may see (a player of a public event, or of one of
    theirs), as the row it now lives in if it was merged."""
    found = player_selectors.with_public_record(Player.objects.filter(pk=player_id), request.user)
    player = found.first()
    if player is None:
        raise ValidationFailed(
            f"No player {player_id} among those you may see: give the player's name instead.",
            code="player_not_found",
            details={"players": {str(index): "No such player."}},
        )
    return player_selectors.survivor_of(player)


class EntryListApi(EntryApi):
    @extend_schema(
        operation_id="entry_list",
        summary="Director: the event's entries by name, with their players",
        parameters=[EntryQuerySerializer, PageQuerySerializer],
        responses={200: EntryPageSerializer, **errors(400, 401, 403, 404)},
        tags=["director"],
    )
    def get(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)
        asked = EntryQuerySerializer(data=query_of(request))
        asked.is_valid(raise_exception=True)
        entries = selectors.entries_query(
            event=event,
            query=asked.validated_data.get("q", ""),
            status=asked.validated_data.get("status", ""),
        )
        page = ENTRIES.page(request, entries)
        return Response(page.body(EntrySerializer(page.rows, many=True).data))

    @extend_schema(
        operation_id="entry_register",
        summary="Director: register an entry (a late entry with late: true)",
        description="As the 'Add an entry' page: players by name and club (the player of that "
        "exact name and club is reused, else made) or a known player's id. Before any round a "
        "normal entry; once rounds exist a late entry (it plays from the next round).",
        request=EntryCreateSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL],
        examples=[REGISTER_EXAMPLE, LATE_EXAMPLE],
        responses={201: EntrySerializer, **errors(400, 401, 403, 404, 409, 422)},
        tags=["director"],
    )
    def post(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)
        data = EntryCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if values.get("team") and event.entry_kind == Event.EntryKind.SINGLE:
            raise ValidationFailed(
                "A head-to-head entry is named after its player: leave team out.",
                details={"team": "Head to head: no team name."},
            )

        def register() -> Response:
            players = [
                _known_player(request, i, p["id"]) if "id" in p else PlayerSpec(**p)
                for i, p in enumerate(values["players"])
            ]
            service = (
                entry_services.register_late_entry
                if values["late"]
                else entry_services.register_entry
            )
            entry = service(
                actor=acting_user(request),
                event=event,
                players=players,
                team_name=values.get("team", ""),
                seed=values.get("seed"),
            )
            where = reverse("api:entry-detail", args=[event.slug, entry.pk])
            fresh = selectors.get_entry(event=event, entry_id=entry.pk)
            return entry_answer(fresh, code=status.HTTP_201_CREATED, headers={"Location": where})

        return run_idempotent(request, register, required=False)


class EntryImportApi(EntryApi):
    parser_classes = [CsvTextParser, PlainTextCsvParser]

    @extend_schema(
        operation_id="entry_import",
        summary="Director: import entries from CSV (all lines or none); dry_run=1 previews",
        description="The import page's CSV: one entry per line, the event's columns "
        "(partnerships: player_a, club_a, rating_a, player_b, club_b, rating_b, team, seed; "
        "head to head: player, club, rating, seed) in that order, or any order under a header "
        "row naming them; comma, semicolon or tab separated; UTF-8, UTF-16 or Windows-1252. "
        "A dry run answers the preview (200; it writes nothing, so no Idempotency-Key "
        "keeps it); an import answers 201, or 400 import_invalid "
        "with each bad line in details.errors and nothing saved. Once rounds exist: 409 "
        "rounds_started (register late entries one by one).",
        request={"text/csv": {"type": "string"}},
        parameters=[ImportQuerySerializer, IDEMPOTENCY_OPTIONAL],
        examples=[CSV_EXAMPLE],
        responses={
            200: ImportPreviewSerializer,
            201: ImportResultSerializer,
            **errors(400, 401, 403, 404, 409, 415, 422),
        },
        tags=["director"],
    )
    def post(self, request: Request, slug: str) -> Response:
        event = self.get_event(request, slug)
        asked = ImportQuerySerializer(data=query_of(request, "reuse"))
        asked.is_valid(raise_exception=True)
        text = request.data if isinstance(request.data, str) else ""
        if asked.validated_data["dry_run"]:
            preview = entry_import.preview_import(event=event, text=text)
            return Response(preview_body(preview))

        def run() -> Response:
            created = entry_import.import_entries(
                actor=acting_user(request),
                event=event,
                text=text,
                reuse=set(asked.validated_data.get("reuse", [])),
            )
            rows = selectors.entries_query(event=event).filter(pk__in=[e.pk for e in created])
            body = {"created": len(created), "entries": EntrySerializer(rows, many=True).data}
            return Response(body, status=status.HTTP_201_CREATED)

        return run_idempotent(request, run, required=False)


class EntryDetailApi(EntryApi):
    @extend_schema(
        operation_id="entry_detail",
        summary="Director: one entry with its players",
        responses={200: EntrySerializer, **errors(401, 403, 404)},
        tags=["director"],
    )
    def get(self, request: Request, slug: str, entry_id: int) -> Response:
        return entry_answer(self.get_entry(request, slug, entry_id)[1])

    @extend_schema(
        operation_id="entry_update",
        summary="Director: rename an entry, set its seed, pin it to a table",
        description="As the entry page: only the fields sent change, each audited (a seed "
        "another entry has: 409 seed_taken). If-Match: the entry's ETag.",
        request=EntryUpdateSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL, if_match_tag(ENTRY_VERSION)],
        examples=[UPDATE_EXAMPLE],
        responses={200: EntrySerializer, **errors(400, 401, 403, 404, 409, 412, 422)},
        tags=["director"],
    )
    def patch(self, request: Request, slug: str, entry_id: int) -> Response:
        event, entry = self.get_entry(request, slug, entry_id)
        data = EntryUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        expected = parse_tag(request)

        def update() -> Response:
            actor = acting_user(request)
            locked = versions.lock_at_version(
                Entry,
                pk=entry.pk,
                fields=entry_services.EDITABLE_FIELDS,
                expected=expected,
                what="entry",
            )
            if "name" in values:
                entry_services.rename_entry(actor=actor, entry=locked, name=values["name"])
            if "seed" in values:
                entry_services.set_seed(actor=actor, entry=locked, seed=values["seed"])
            if "pinned_table" in values:
                entry_services.pin_table(
                    actor=actor,
                    entry=locked,
                    table=values["pinned_table"],
                    reason=values.get("reason", ""),
                )
            return entry_answer(selectors.get_entry(event=event, entry_id=entry.pk))

        return run_idempotent(request, update, required=False)


class EntryActionApi(EntryApi):
    @extend_schema(
        operation_id="entry_action",
        summary="Director: check in, undo a check-in, withdraw or reinstate an entry",
        description="The entry list's buttons. withdraw and reinstate take an optional reason "
        "(the audit log's); check-in and undo-check-in take none. 409 with the state's code: "
        "already_checked_in, entry_withdrawn, not_checked_in, already_withdrawn, "
        "not_withdrawn.",
        request=EntryActionSerializer,
        parameters=[ACTION, IDEMPOTENCY_OPTIONAL],
        examples=[WITHDRAW_EXAMPLE],
        responses={200: EntrySerializer, **errors(400, 401, 403, 404, 409, 422)},
        tags=["director"],
    )
    def post(self, request: Request, slug: str, entry_id: int, action: str) -> Response:
        service = entry_services.ENTRY_ACTIONS.get(action)
        if service is None:
            raise exceptions.NotFound(
                f"No entry action {action[:40]!r}: use {', '.join(entry_services.ENTRY_ACTIONS)}."
            )
        event, entry = self.get_entry(request, slug, entry_id)
        data = EntryActionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        takes_reason = action in entry_services.ACTIONS_WITH_REASON
        if "reason" in data.validated_data and not takes_reason:
            raise exceptions.ValidationError({"reason": [f"{action} takes no reason."]})

        def act() -> Response:
            kwargs: dict[str, Any] = {"actor": acting_user(request), "entry": entry}
            if takes_reason:
                kwargs["reason"] = data.validated_data.get("reason", "")
            service(**kwargs)
            return entry_answer(selectors.get_entry(event=event, entry_id=entry.pk))

        return run_idempotent(request, act, required=False)
