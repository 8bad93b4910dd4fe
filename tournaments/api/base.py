"""The results API's base views: authentication (table tokens first), throttling per table,
the match lookup with its object checks, and the director-only variant."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request
from rest_framework.views import APIView

from tournaments.api.authentication import TableTokenAuthentication, table_access
from tournaments.api.parsers import SafeJSONParser
from tournaments.api.permissions import (
    DirectorOnly,
    OwnTableOrDirector,
)
from tournaments.api.serializers import match_state
from tournaments.api.throttles import TableTokenThrottle, UserRateThrottle
from tournaments.api.tokens import HashedTokenAuthentication
from tournaments.models import Match
from tournaments.selectors import results as selectors


class ResultsApi(APIView):
    """Shared: authentication (table tokens first), throttling per table, object checks, and
    a JSON parser that answers 400 for a body nested too deeply."""

    # JSON only: a form or multipart body cannot carry a sheet, so none is advertised (415).
    parser_classes = [SafeJSONParser]

    authentication_classes = [
        TableTokenAuthentication,
        HashedTokenAuthentication,
        SessionAuthentication,
    ]
    permission_classes = [OwnTableOrDirector]
    throttle_classes = [TableTokenThrottle]
    throttle_scope = "table_token"

    def get_match(self, request: Request, match_id: int) -> Match:
        access = table_access(request)
        if access is not None and access.match is not None and access.match.pk == match_id:
            # A table's own match: read with the token a moment ago, with its round (and the
            # event), its table and its entries.
            match = access.match
        else:
            match = get_object_or_404(
                Match.objects.select_related("round__event", "table", "entry_a", "entry_b"),
                pk=match_id,
            )
        self.check_object_permissions(request, match)
        return match

    def board(self, match: Match) -> dict[str, Any]:
        board = selectors.match_board(match.pk)
        assert board is not None
        return match_state(board)

    def board_after(self, match: Match, written: Any) -> dict[str, Any]:
        """The match's state after a table's write (a ``services.claims.ClaimOutcome``): from
        the rows the write read under the match's lock and stored, not read again."""
        if written.match is None or written.claims is None:
            return self.board(match)
        return match_state(selectors.board_of(written.match, written.claims, written.result))


class DirectorApi(ResultsApi):
    permission_classes = [DirectorOnly]
    # Directors are always signed in: counted per account (rate "user"), as every API view is.
    throttle_classes = [UserRateThrottle]
