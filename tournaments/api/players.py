"""``GET /api/players/?q=`` and ``GET /api/players/<id>/``: players across events, public read.

The same visibility as the player pages (``selectors.players``): a player appears only with an
event the caller may see; merged rows are left out of the list, and a merged player's detail
answers the player it was merged into (``merged_into`` says so). Contact details never appear
in these reads. The list is paginated by page number (``page``, ``page_size`` up to 100); scores
are displayed points and ratings the display scale (``tournaments.ratings_scale``).

``PATCH /api/players/<id>/`` is the director's player page: those who may manage the player
(``services.players.may_manage_player``: the player's owner, the account that created the
record, and superusers) edit the name, club and contact details, audited (``player.edit``); the
answer, for them, holds the contact details and the player's version (its ``ETag``, also on
their GET) for ``If-Match``. Staff get 403 ``read_only_staff``; a director who entered the
player in an event of theirs gets 404 ``player_not_found`` (they change their entry instead).
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.event_serializers import name_field
from tournaments.api.events import AUTHENTICATION, PublicReadsSchema, acting_user
from tournaments.api.idempotency import etag, parse_tag, run_idempotent
from tournaments.api.permissions import NotEventScopedKey, PublicReadSignedInWrite
from tournaments.api.serializers import IDEMPOTENCY_OPTIONAL, StrictInput, errors, if_match_tag
from tournaments.models import Player
from tournaments.presenters import players as presenter
from tournaments.selectors import players as selectors
from tournaments.services import players as player_services
from tournaments.services import versions
from tournaments.services.versions import fingerprint

MAX_PAGE_SIZE = 100


class RatingSerializer(serializers.Serializer[Any]):
    rating = serializers.IntegerField(help_text="The display scale: 1500 + 40 × (mu − 25).")
    plus_minus = serializers.IntegerField(help_text="Two standard deviations on that scale.")
    games = serializers.IntegerField(help_text="Rated games the rating rests on.")


class PlayerSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    rating = RatingSerializer(allow_null=True)


class PlayerListSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    results = PlayerSummarySerializer(many=True)


class PartnerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class PlayerMatchSerializer(serializers.Serializer[Any]):
    match_id = serializers.IntegerField()
    round = serializers.IntegerField()
    kind = serializers.CharField()
    game = serializers.IntegerField()
    best_of = serializers.IntegerField()
    bye = serializers.BooleanField()
    opponent = serializers.CharField(allow_blank=True, allow_null=True)
    confirmed = serializers.BooleanField()
    outcome = serializers.CharField(allow_blank=True, help_text="won, lost, draw, bye or empty.")
    own_points = serializers.CharField(allow_blank=True, help_text="Displayed points.")
    other_points = serializers.CharField(allow_blank=True, help_text="Displayed points.")
    forfeit = serializers.CharField(allow_blank=True, help_text='"forfeit", "no-show", ...')


class PlayerEventSerializer(serializers.Serializer[Any]):
    event = serializers.CharField(help_text="The event's slug.")
    event_name = serializers.CharField()
    start_date = serializers.DateField()
    entry_id = serializers.IntegerField()
    entry_name = serializers.CharField()
    partners = PartnerSerializer(many=True)
    place = serializers.IntegerField(allow_null=True)
    shared = serializers.BooleanField()
    final = serializers.BooleanField(help_text="The finished event's frozen placing.")
    results_public = serializers.BooleanField()
    matches = PlayerMatchSerializer(many=True)


class PlayerDetailSerializer(PlayerSummarySerializer):
    merged_into = serializers.IntegerField(
        allow_null=True, help_text="Asked for a merged row: its id (this answer is the survivor)."
    )
    events = PlayerEventSerializer(many=True)


def _summary(player: Player) -> dict[str, Any]:
    return {
        "id": player.pk,
        "name": player.name,
        "club": player.club,
        "rating": presenter.rating_of(player),
    }


_MATCH_FIELDS = list(PlayerMatchSerializer().fields)


class PlayerQuerySerializer(serializers.Serializer[Any]):
    """The list's query: the schema states the same bounds the view checks."""

    q = serializers.CharField(allow_blank=True, help_text="A name.")
    page = serializers.IntegerField(min_value=1, required=False, help_text="From 1.")
    page_size = serializers.IntegerField(
        min_value=1, max_value=MAX_PAGE_SIZE, default=25, help_text="1 to 100 (25)."
    )


class PlayerListApi(APIView):
    """Players by name, accents and case ignored."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="player_list",
        summary="Players whose name (or a later word of it) starts with q, accents ignored",
        parameters=[PlayerQuerySerializer],
        responses={200: PlayerListSerializer, **errors(400, 404)},
        tags=["players"],
    )
    def get(self, request: Request) -> Response:
        query = str(request.query_params.get("q", ""))[: selectors.MAX_QUERY]
        asked = PlayerQuerySerializer(data={**request.query_params.dict(), "q": query})
        asked.is_valid(raise_exception=True)
        size = int(asked.validated_data["page_size"])
        paginator = Paginator(selectors.search_players(query, request.user), size)
        try:
            page = paginator.page(request.query_params.get("page", 1))
        except PageNotAnInteger:
            raise exceptions.ValidationError({"page": "a whole number from 1"}) from None
        except EmptyPage:
            if paginator.count or str(request.query_params.get("page", "1")) != "1":
                raise exceptions.NotFound("No such page.") from None
            return Response({"count": 0, "page": 1, "pages": 0, "results": []})
        body = {
            "count": paginator.count,
            "page": page.number,
            "pages": paginator.num_pages,
            "results": [_summary(p) for p in page.object_list],
        }
        return Response(PlayerListSerializer(body).data)


class PlayerUpdateSerializer(StrictInput):
    """What the director's player page edits; fields left out keep their value."""

    name = name_field(120, "The player's name.", required=False)
    club = serializers.CharField(max_length=120, allow_blank=True, required=False)
    email = serializers.CharField(
        max_length=254, allow_blank=True, required=False, help_text="Empty: none."
    )
    phone = serializers.CharField(
        max_length=40, allow_blank=True, required=False, help_text="Empty: none."
    )


class PlayerContactSerializer(PlayerUpdateSerializer):
    """A player as their manager sees them: with contact details and the version (ETag)."""

    id = serializers.IntegerField()
    version = serializers.SerializerMethodField(help_text="The version edited (the ETag).")

    def get_version(self, player: Player) -> str:
        return fingerprint(player, player_services.EDIT_FIELDS)


UPDATE_EXAMPLE = OpenApiExample(
    "A new club and phone",
    request_only=True,
    value={"club": "Sevilla DC", "phone": "+34 600 000 000"},
)


class PlayerDetailApi(APIView):
    """A player's record across the events the caller may see; its managers (the player's
    owner, superusers) edit the player as the player page does."""

    authentication_classes = AUTHENTICATION
    permission_classes = [PublicReadSignedInWrite, NotEventScopedKey]
    schema = PublicReadsSchema()

    @extend_schema(
        operation_id="player_detail",
        summary="A player's events, partners, matches, placings and rating",
        responses={200: PlayerDetailSerializer, **errors(404)},
        tags=["players"],
    )
    def get(self, request: Request, player_id: int) -> Response:
        asked = Player.objects.filter(pk=player_id).first()
        if asked is None:
            raise exceptions.NotFound("No such player.")
        player = selectors.survivor_of(asked)
        record = selectors.player_record(player, request.user)
        if not record.events:
            raise exceptions.NotFound("No such player.")
        events = []
        for item in record.events:
            events.append(
                {
                    "event": item.event.slug,
                    "event_name": item.event.name,
                    "start_date": item.event.start_date,
                    "entry_id": item.entry_id,
                    "entry_name": item.entry_name,
                    "partners": [{"id": p.pk, "name": p.name} for p in item.partners],
                    "place": item.place,
                    "shared": item.shared,
                    "final": item.final,
                    "results_public": item.show_results,
                    "matches": [
                        {k: m.get(k) for k in _MATCH_FIELDS} for m in presenter.match_lines(item)
                    ],
                }
            )
        body = {
            **_summary(player),
            "merged_into": player.pk if asked.pk != player.pk else None,
            "events": events,
        }
        headers = {}
        if player_services.may_manage_player(request.user, player):
            headers["ETag"] = etag(fingerprint(player, player_services.EDIT_FIELDS))
        return Response(PlayerDetailSerializer(body).data, headers=headers)

    @extend_schema(
        operation_id="player_update",
        summary="The player's owner: edit a player's name, club and contact details",
        description="As the director's player page: the player's owner (the account that "
        "created the record) or a superuser; audited. Staff: 403 read_only_staff; anyone else, "
        "the director of another event the player entered included: 404 player_not_found. "
        "If-Match: the player's ETag (412 stale_version). A merged row: 409 player_merged "
        "(edit the player it was merged into).",
        request=PlayerUpdateSerializer,
        parameters=[IDEMPOTENCY_OPTIONAL, if_match_tag("the player (its ETag)")],
        examples=[UPDATE_EXAMPLE],
        responses={200: PlayerContactSerializer, **errors(400, 401, 403, 404, 409, 412, 422)},
        tags=["director"],
    )
    def patch(self, request: Request, player_id: int) -> Response:
        player = player_services.managed_player(request.user, player_id)
        data = PlayerUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        expected = parse_tag(request)

        def update() -> Response:
            locked = versions.lock_at_version(
                Player,
                pk=player.pk,
                fields=player_services.EDIT_FIELDS,
                expected=expected,
                what="player",
            )
            values = {f: getattr(locked, f) for f in ("name", "club", "email", "phone")}
            values.update(data.validated_data)
            edited = player_services.edit_player(
                actor=acting_user(request), player_id=locked.pk, **values
            )
            body = PlayerContactSerializer(edited).data
            return Response(body, headers={"ETag": etag(body["version"])})

        return run_idempotent(request, update, required=False)
