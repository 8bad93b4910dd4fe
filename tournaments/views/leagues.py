"""League pages: the public list and each league's season (its table, events and champions, and
the table as CSV); the director's pages to create and change a league and to add its events."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from tournaments.errors import NotFound, SpinnerError
from tournaments.models import Event, League
from tournaments.permissions import can_create_events
from tournaments.presenters import leagues as presenter
from tournaments.selectors import leagues as selectors
from tournaments.selectors import registration as event_reads
from tournaments.services import leagues as services
from tournaments.views.errors import show_error

ROWS_PER_PAGE = 50
"""Season-table rows per page (a long table is paged: ``?page=`` players, ``?pairs=``)."""


def _visible(request: HttpRequest, slug: str) -> League:
    try:
        return selectors.get_visible_league(slug=slug, user=request.user)
    except NotFound as exc:
        raise Http404(exc.message) from exc


@require_GET
def league_list(request: HttpRequest) -> HttpResponse:
    """/leagues/: the public leagues."""
    return render(
        request,
        "tournaments/leagues/list.html",
        {"leagues": selectors.list_public_leagues()},
    )


@require_GET
def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """/leagues/<slug>/: the season table (players, and partnerships where ranked), then the
    events with their dates and champions."""
    league = _visible(request, slug)
    season = selectors.league_season(league)
    names = presenter.player_names(season)
    players = Paginator(season.table.players, ROWS_PER_PAGE).get_page(request.GET.get("page"))
    pairs = Paginator(season.table.partnerships, ROWS_PER_PAGE).get_page(request.GET.get("pairs"))
    return render(
        request,
        "tournaments/leagues/detail.html",
        {
            "league": league,
            "season": season,
            "players": players,
            "player_rows": presenter.rows(list(players), season, names),
            "pairs": pairs,
            "pair_rows": presenter.rows(list(pairs), season, names),
            "is_director": services.can_direct_league(request.user, league),
        },
    )


@require_GET
def league_table_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """/leagues/<slug>/table.csv: the whole season table (formula-safe cells)."""
    league = _visible(request, slug)
    response = HttpResponse(
        presenter.table_csv(selectors.league_season(league)),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{league.slug}-table.csv"'
    return response


# --- The director's pages ---------------------------------------------------------------------


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=200, label=gettext_lazy("Name"))
    season = forms.CharField(
        max_length=40,
        required=False,
        label=gettext_lazy("Season"),
        help_text=gettext_lazy('e.g. "2026".'),
    )
    points = forms.CharField(
        label=gettext_lazy("Points per place"),
        help_text=gettext_lazy(
            "Best place first, separated by commas, e.g. 25, 18, 15, 12, 10, 8, 6, 4, 2, 1. "
            "Places beyond the list earn nothing; entries sharing a place share its points."
        ),
    )
    best_of = forms.IntegerField(
        required=False,
        min_value=1,
        label=gettext_lazy("Count each player's best … events"),
        help_text=gettext_lazy("Empty: every event counts."),
    )
    rank_partnerships = forms.BooleanField(
        required=False, label=gettext_lazy("Rank partnerships too (the same two players)")
    )
    public = forms.BooleanField(
        required=False, initial=True, label=gettext_lazy("Public league page")
    )

    def __init__(self, *args: Any, creating: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if creating:
            self.fields["slug"] = forms.SlugField(
                required=False,
                label=gettext("Web address"),
                help_text=gettext("Optional: /leagues/<this>/. Made from the name when empty."),
            )

    def clean_points(self) -> list[int]:
        raw = self.cleaned_data.get("points") or ""
        try:
            return [int(part) for part in raw.replace(";", ",").split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(
                gettext("Whole numbers separated by commas, e.g. 25, 18, 15.")
            ) from None

    def settings(self) -> dict[str, Any]:
        return {f: self.cleaned_data.get(f) for f in services.LEAGUE_FIELDS}

    @staticmethod
    def initial_of(league: League) -> dict[str, Any]:
        initial = {f: getattr(league, f) for f in services.LEAGUE_FIELDS}
        initial["points"] = ", ".join(map(str, league.points))
        return initial


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


def _directed(request: HttpRequest, slug: str) -> League:
    league = League.objects.filter(slug=slug).first()
    if league is None or not services.can_direct_league(request.user, league):
        raise Http404("No such league.")
    return league


@login_required
def director_leagues(request: HttpRequest) -> HttpResponse:
    """/director/leagues/: the leagues I direct."""
    user = _user(request)
    leagues = League.objects.all() if user.is_superuser else user.directed_leagues.all()
    return render(
        request,
        "tournaments/leagues/director_list.html",
        {"leagues": leagues, "can_create": can_create_events(user)},
    )


@login_required
def league_create(request: HttpRequest) -> HttpResponse:
    """/director/leagues/new/: create a league (organisers; the creator directs it)."""
    if not can_create_events(request.user):
        raise Http404("No such page.")
    form = LeagueForm(request.POST or None, creating=True)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.create_league(
                actor=_user(request), slug=form.cleaned_data.get("slug") or "", **form.settings()
            )
        except SpinnerError as exc:
            show_error(form, exc)
        else:
            messages.success(request, f"{league.name} created. Next: add its events.")
            return redirect("director:league-edit", slug=league.slug)
    return render(request, "tournaments/leagues/form.html", {"form": form, "league": None})


@login_required
def league_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """/director/leagues/<slug>/: the league's settings and its events (add one, take one out)."""
    league = _directed(request, slug)
    form = LeagueForm(request.POST or None, initial=LeagueForm.initial_of(league))
    if request.method == "POST" and form.is_valid():
        try:
            services.update_league(actor=_user(request), league=league, **form.settings())
        except SpinnerError as exc:
            show_error(form, exc)
        else:
            messages.success(request, gettext("League saved."))
            return redirect("director:league-edit", slug=league.slug)
    mine = event_reads.list_director_events(request.user)
    return render(
        request,
        "tournaments/leagues/form.html",
        {
            "form": form,
            "league": league,
            "events": Event.objects.filter(league=league).order_by("start_date", "name"),
            "addable": [e for e in mine if e.league_id is None],
        },
    )


@login_required
@require_POST
def league_event(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """POST /director/leagues/<slug>/events/<add|remove>/ with ``event`` (its slug)."""
    league = _directed(request, slug)
    event = Event.objects.filter(slug=request.POST.get("event", "")).first()
    if event is None or action not in ("add", "remove"):
        raise Http404("No such event.")
    change = services.add_event if action == "add" else services.remove_event
    try:
        change(actor=_user(request), league=league, event=event)
    except SpinnerError as exc:
        show_error(request, exc)
    else:
        verb = "now counts in" if action == "add" else "no longer counts in"
        messages.success(request, f"{event.name} {verb} {league.name}.")
    return redirect("director:league-edit", slug=league.slug)
