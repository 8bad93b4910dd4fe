"""``GET /api/leagues/`` and ``GET /api/leagues/<slug>/``: public leagues and one league's season
table, for a club's website. Read only, open to anyone; a league that is not public is a 404
(its directors and superusers see it, as on the page). Points are strings of the displayed value
(``"25"``, a shared place's ``"13.5"``), as the page and the CSV show them.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.errors import NotFound
from tournaments.models import League
from tournaments.presenters import leagues as presenter
from tournaments.selectors import leagues as selectors


class LeagueSummarySerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    season = serializers.CharField(allow_blank=True)
    points = serializers.ListField(child=serializers.IntegerField(min_value=0))
    best_of = serializers.IntegerField(
        allow_null=True, help_text="Each player's best N events count; null: all."
    )
    rank_partnerships = serializers.BooleanField()


class RowEventSerializer(serializers.Serializer[Any]):
    event = serializers.SlugField()
    place = serializers.IntegerField(min_value=1)
    points = serializers.CharField()
    counted = serializers.BooleanField(help_text="False: not among the best N events.")


class SeasonRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(min_value=1, help_text="Equal totals share a rank.")
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField(), help_text="Player ids.")
    points = serializers.CharField()
    events_counted = serializers.IntegerField()
    events_played = serializers.IntegerField()
    events = RowEventSerializer(many=True)


class LeagueEventSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(min_value=1)
    slug = serializers.SlugField()
    name = serializers.CharField()
    start_date = serializers.DateField()
    end_date = serializers.DateField()
    status = serializers.CharField()
    champion = serializers.CharField(allow_blank=True)


class LeagueDetailSerializer(LeagueSummarySerializer):
    events = LeagueEventSerializer(many=True)
    players = SeasonRowSerializer(many=True)
    partnerships = SeasonRowSerializer(many=True)


def _summary(league: League) -> dict[str, Any]:
    return {
        "slug": league.slug,
        "name": league.name,
        "season": league.season,
        "points": list(league.points),
        "best_of": league.best_of,
        "rank_partnerships": league.rank_partnerships,
    }


class LeagueListApi(APIView):
    """The public leagues."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="league_list",
        summary="The public leagues",
        responses={200: LeagueSummarySerializer(many=True)},
        tags=["leagues"],
    )
    def get(self, request: Request) -> Response:
        return Response([_summary(league) for league in selectors.list_public_leagues()])


class LeagueDetailApi(APIView):
    """A league, its events with their champions, and its season table."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="league_detail",
        summary="A league's events and season table",
        responses={200: LeagueDetailSerializer},
        tags=["leagues"],
    )
    def get(self, request: Request, slug: str) -> Response:
        try:
            league = selectors.get_visible_league(slug=slug, user=request.user)
        except NotFound:
            raise exceptions.NotFound("No such league.") from None
        season = selectors.league_season(league)
        finished = season.finished_events
        body = {
            **_summary(league),
            "events": [
                {
                    "number": e.number,
                    "slug": e.event.slug,
                    "name": e.event.name,
                    "start_date": e.event.start_date.isoformat(),
                    "end_date": e.event.end_date.isoformat(),
                    "status": e.event.status,
                    "champion": e.champion,
                }
                for e in season.events
            ],
            "players": [presenter.row_json(r, finished) for r in season.table.players],
            "partnerships": [presenter.row_json(r, finished) for r in season.table.partnerships],
        }
        return Response(body)
