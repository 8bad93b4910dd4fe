"""The director's player page ``/director/players/<id>/``: edit the player's name, club and
contact details, merge the row into another for the same person (a search, then a
confirmation step), and undo a merge from its audit record. Reached from the entries pages.

Who may: ``services.players.may_manage_player`` (the player's owner, superusers); staff get 403,
anyone else 404 (a director who entered the player in their event edits that entry instead).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.errors import SpinnerError
from tournaments.models import AuditEntry, Player
from tournaments.selectors import players as selectors
from tournaments.services import players as services
from tournaments.views.confirm import confirmed
from tournaments.views.errors import show_error
from tournaments.views.events import user_of


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=120, label=gettext_lazy("Name"))
    club = forms.CharField(max_length=120, required=False, label=gettext_lazy("Club"))
    email = forms.CharField(max_length=254, required=False, label=gettext_lazy("Email"))
    phone = forms.CharField(max_length=40, required=False, label=gettext_lazy("Phone"))


def _event_names(memberships: list[Any]) -> str:
    """The events of a player's memberships, in words ("none" for none)."""
    return ", ".join(m.event.name for m in memberships) or gettext("none")


def _player(request: HttpRequest, player_id: int) -> Player:
    try:
        return services.managed_player(request.user, player_id)
    except services.ReadOnlyStaffPlayer as exc:
        raise PermissionDenied(exc.message) from exc
    except SpinnerError as exc:
        raise Http404(exc.message) from exc


def _context(request: HttpRequest, player: Player, form: PlayerForm) -> dict[str, Any]:
    merge_q = request.GET.get("merge_q", "").strip()
    merges = AuditEntry.objects.filter(action="player.merge", after__survivor=player.pk)
    undone = set(
        AuditEntry.objects.filter(action="player.unmerge").values_list("object_id", flat=True)
    )
    return {
        "player": player,
        "form": form,
        "memberships": selectors.director_player_events(player),
        "merge_q": merge_q,
        "candidates": selectors.merge_candidates(player, merge_q, request.user) if merge_q else [],
        "merges": [m for m in merges.order_by("-at") if str(m.pk) not in undone],
        "survivor": selectors.survivor_of(player) if player.merged_into_id else None,
    }


@require_http_methods(["GET", "POST"])
def player_admin(request: HttpRequest, player_id: int) -> HttpResponse:
    """Edit (POST) the player; GET ``?merge_q=`` searches the players to merge into."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    player = _player(request, player_id)
    if request.method == "POST":
        form = PlayerForm(request.POST)
        if form.is_valid():
            try:
                services.edit_player(
                    actor=user_of(request), player_id=player.pk, **form.cleaned_data
                )
            except SpinnerError as exc:
                show_error(form, exc)
            else:
                messages.success(request, gettext("Player saved."))
                return redirect("director:player", player_id=player.pk)
    else:
        form = PlayerForm(
            initial={f: getattr(player, f) for f in ("name", "club", "email", "phone")}
        )
    context = _context(request, player, form)
    return render(request, "tournaments/players/admin.html", context)


@require_http_methods(["GET", "POST"])
def player_merge(request: HttpRequest, player_id: int, into_id: int) -> HttpResponse:
    """``/director/players/<id>/merge/<into>/``: the confirmation step, then the merge."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    loser, survivor = _player(request, player_id), _player(request, into_id)
    if request.method == "POST" and confirmed(request):
        try:
            services.merge_players(
                actor=user_of(request), loser_id=loser.pk, survivor_id=survivor.pk
            )
        except SpinnerError as exc:
            show_error(request, exc)
            return redirect("director:player", player_id=loser.pk)
        messages.success(
            request,
            gettext("%(loser)s merged into %(survivor)s.")
            % {"loser": loser.name, "survivor": survivor.name},
        )
        return redirect("director:player", player_id=survivor.pk)
    return render(
        request,
        "tournaments/players/merge_confirm.html",
        {
            "loser": loser,
            "survivor": survivor,
            "loser_events_text": _event_names(selectors.director_player_events(loser)),
            "survivor_events_text": _event_names(selectors.director_player_events(survivor)),
        },
    )


@require_POST
def player_unmerge(request: HttpRequest, audit_id: int) -> HttpResponse:
    """``/director/players/merges/<audit_id>/unmerge/``: undo a merge from its audit record."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        merge = services.merge_record(audit_id)
        _player(request, int(services.merge_after(merge)["survivor"]))
        restored = services.unmerge_players(actor=user_of(request), audit_id=audit_id)
    except SpinnerError as exc:
        show_error(request, exc)
        return redirect("director:home")
    messages.success(
        request,
        gettext("The merge was undone: %(name)s is a player of their own again.")
        % {"name": restored.name},
    )
    return redirect("director:player", player_id=restored.pk)
