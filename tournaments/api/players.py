"""``GET /api/players/?q=`` and ``GET /api/players/<id>/``: players across events, public read.

The same visibility as the player pages (``selectors.players``): a player appears only with an
event the caller may see; merged rows are left out of the list, and a merged player's detail
answers the player it was merged into (``merged_into`` says so). Contact details never appear.
The list is paginated by page number (``page``, ``page_size`` up to 100); scores are displayed
points and ratings the display scale (``tournaments.ratings_scale``).
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import errors
from tournaments.models import Player
from tournaments.presenters import players as presenter
from tournaments.selectors import players as selectors

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


class PlayerDetailApi(APIView):
    """A player's record across the events the caller may see."""

    permission_classes = [permissions.AllowAny]

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
        return Response(PlayerDetailSerializer(body).data)
