"""The director's results pages: a round's entry board, a match's claims, resolve and enter.

Thin: selectors read, services write, ``SpinnerError`` becomes a message. The board refreshes
itself with htmx every few seconds (its rows only).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournaments import game
from tournaments.errors import SpinnerError
from tournaments.models import Event, Match, Round
from tournaments.permissions import can_direct, director_required
from tournaments.possessive import ends_in_s
from tournaments.presenters import difference as sheet_difference
from tournaments.presenters.table import seat_records
from tournaments.selectors import desk
from tournaments.selectors import forfeits as forfeit_reads
from tournaments.selectors import results as selectors
from tournaments.services import decisions, forfeits, table_links
from tournaments.services import results as services
from tournaments.views.errors import show_error, show_form_errors

POLL_SECONDS = 3


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        label=gettext_lazy("Reason"),
        help_text=gettext_lazy("Goes in the audit log."),
    )


class ResolveForm(ReasonForm):
    side = forms.TypedChoiceField(
        choices=[(0, gettext_lazy("First side")), (1, gettext_lazy("Second side"))],
        coerce=int,
        label=gettext_lazy("Side"),
    )

    def __init__(self, *args: Any, match: Match | None = None, **kwargs: Any) -> None:
        # Its own ids beside the result form's on the match page (both have a reason); the
        # fields keep their names, so what it posts is unchanged.
        kwargs.setdefault("auto_id", "id_resolve_%s")
        super().__init__(*args, **kwargs)
        if match is not None:  # the teams by name, never "side 0/1"
            names = [match.entry_a.name, match.entry_b.name if match.entry_b else ""]
            if match.table_entries > 2:  # a table of many: every seat's player
                names = seat_names(match)
            side = self.fields["side"]
            assert isinstance(side, forms.TypedChoiceField)
            side.choices = [(i, _claim_of(n)) for i, n in enumerate(names)]


def _claim_of(team: str) -> str:
    """ "Ann's claim", "The Closers' claim" (``tournaments.possessive``)."""
    if ends_in_s(team):
        return gettext("%(team)s' claim") % {"team": team}
    return gettext("%(team)s's claim") % {"team": team}


class ResultEntryForm(ReasonForm):
    """A final score (two numbers; at a table of many, one per seat) or a whole sheet (JSON)."""

    score_a = forms.DecimalField(
        required=False, decimal_places=1, label=gettext_lazy("Score of the first side")
    )
    score_b = forms.DecimalField(
        required=False, decimal_places=1, label=gettext_lazy("Score of the second side")
    )
    score_c = forms.DecimalField(
        required=False, decimal_places=1, label=gettext_lazy("Score of the third player")
    )
    score_d = forms.DecimalField(
        required=False, decimal_places=1, label=gettext_lazy("Score of the fourth player")
    )
    # The scores are typed in the event's displayed points (what the paper acta says: 61-40 in
    # five-up); ``final_score`` converts them to the raw score the results service keeps.
    sheet = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        label=gettext_lazy("Or the whole scoresheet (fives-scoresheet/1 JSON)"),
    )
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, seats: int = 2, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats  # scores to type: 2, or the players at a table of many

    @property
    def score_names(self) -> list[str]:
        """The score fields this match takes, seat order."""
        return list(SCORE_FIELDS[: self.seats])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        text = (data.get("sheet") or "").strip()
        has_score = all(data.get(name) is not None for name in self.score_names)
        if bool(text) == has_score and self.seats > 2:
            raise forms.ValidationError(
                gettext("Enter either every player's score (%(seats)s in all) or a scoresheet.")
                % {"seats": self.seats}
            )
        if bool(text) == has_score:
            raise forms.ValidationError(gettext("Enter either both scores or a scoresheet."))
        if text:
            try:
                data["sheet_obj"] = json.loads(text)
            except ValueError as exc:
                raise forms.ValidationError(
                    gettext("The scoresheet is not valid JSON: %(error)s") % {"error": exc}
                ) from exc
            except RecursionError as exc:  # json.loads lets it escape on [[[[... thousands deep
                raise forms.ValidationError(
                    gettext("The scoresheet is nested far too deeply to be a scoresheet.")
                ) from exc
        return data

    def final_score(self, event: Event) -> dict[str, Any] | None:
        """The typed scores as the service's raw ``final_score`` (None for a sheet)."""
        data = self.cleaned_data
        if "sheet_obj" in data:
            return None
        raw = [game.raw_from_displayed(data[f], event) for f in self.score_names]
        return {"scores": [int(r) if r.denominator == 1 else float(r) for r in raw]}


SCORE_FIELDS = ("score_a", "score_b", "score_c", "score_d")
"""The entry form's score fields, seat order."""


def seat_names(match: Match) -> list[str]:
    """A table of many's players, seat order."""
    seats = match.seats.order_by("side").select_related("entry")
    return [seat.entry.name for seat in seats]


class ForfeitForm(ReasonForm):
    """Who forfeited (each side by its team's name, both, or a no-show), a reason and a tick."""

    who = forms.ChoiceField(label=gettext_lazy("Who forfeited"), widget=forms.RadioSelect)
    confirm = forms.BooleanField(
        label=gettext_lazy("Record it: the other side wins by the forfeit score"),
        error_messages={"required": gettext_lazy("Tick the box to confirm the forfeit.")},
    )
    version = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "forfeit")  # beside the result form on the match page
        super().__init__(*args, **kwargs)
        self.fields["reason"].error_messages["required"] = gettext(
            "Say why (the reason goes in the audit log)."
        )
        a, b = match.entry_a.name, match.entry_b.name if match.entry_b else ""
        forfeited = gettext("%(team)s forfeited")
        no_show = gettext("%(team)s did not show up (a no-show: withdrawn from later rounds)")
        choices = [("a", forfeited % {"team": a}), ("b", forfeited % {"team": b})]
        if not (match.bracket_slot or match.round.kind == Round.Kind.PLAYOFF):
            choices.append(("both", gettext("Both forfeited (a double forfeit: nobody wins)")))
        choices += [("no_show_a", no_show % {"team": a}), ("no_show_b", no_show % {"team": b})]
        who = self.fields["who"]
        assert isinstance(who, forms.ChoiceField)
        who.choices = choices

    def record(self, match: Match, actor: Any) -> Any:
        """Call the forfeits service the choice names."""
        data = self.cleaned_data
        common = {
            "match": match,
            "reason": data["reason"],
            "actor": actor,
            "expected_version": data.get("version") or None,
        }
        who = data["who"]
        if who == "both":
            return forfeits.record_double_forfeit(**common)
        side = 0 if who.endswith("a") else 1
        if who.startswith("no_show"):
            return forfeits.record_no_show(side=side, **common)
        return forfeits.record_forfeit(side=side, **common)


def _round(event: Event, number: int) -> Round:
    return get_object_or_404(Round, event=event, number=number)


def _links(
    request: HttpRequest, round_: Round, event: Event
) -> dict[int, list[tuple[str, str, str]]]:
    """Each table's two side links, ``(side letter, team, url)``, side A first (at a table of
    many a link per seat, named by its player), on the host the director reached this page by
    (a phone on the venue Wi-Fi opens the same address); printed cards use
    ``SPINNER_BASE_URL`` instead."""
    found: dict[int, list[tuple[str, str, str]]] = {}
    matches = list(
        Match.objects.filter(round=round_, table__isnull=False, entry_b__isnull=False)
        .select_related("table", "entry_a", "entry_b")
        .order_by("table__number")
    )
    holders = table_links.link_seats(matches)
    for match in matches:
        assert match.table is not None and match.entry_b is not None
        found[match.table.number] = [
            (
                # an individual event names a seat by its compass point, never "side A"
                game.side_letter(side)
                if game.plays_in_partnerships(event.entry_kind)
                else game.compass_point(
                    side, game.seats_per_table(event.entry_kind, match.table_entries)
                ),
                entry.name,
                request.build_absolute_uri(
                    table_links.table_link_path(round_=round_, table=match.table, side=side)
                ),
            )
            for side, entry in holders.get(match.pk, [])
        ]
    return found


def _state_filter(request: HttpRequest) -> str:
    state = request.GET.get("state", "")
    return state if state in selectors.STATES else ""


@director_required
def current_results(request: HttpRequest, *, event: Event) -> HttpResponse:
    """/director/events/<slug>/results/: the board of the latest round that is out (the one in
    play), keeping a ``?state=`` filter; the rounds page when no round is out yet."""
    rnd = (
        Round.objects.filter(event=event)
        .exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .first()
    )
    if rnd is None:
        messages.info(request, gettext("No round is out yet: generate and publish one first."))
        return redirect("director:rounds", slug=event.slug)
    target = reverse("director:results", args=[event.slug, rnd.number])
    state = _state_filter(request)
    return redirect(f"{target}?state={state}" if state else target)


@never_cache  # the board lists the tables' links: no cache keeps them
@director_required
def round_results(request: HttpRequest, number: int, *, event: Event) -> HttpResponse:
    """The round's entry board: missing, pending, conflict, confirmed per table (live)."""
    round_ = _round(event, number)
    boards = selectors.round_board(round_)
    state = _state_filter(request)
    # The links let a table enter results: only for those who may change the event.
    links = _links(request, round_, event) if can_direct(request.user, event) else None
    # Issue 12: the tables still playing once the round's time is up, highlighted.
    late = desk.playing_after_time(boards, desk.round_clock(round_))
    context = {
        "event": event,
        "round": round_,
        "rows": [
            (b, (links or {}).get(b.table_number or 0)) for b in selectors.by_urgency(boards, state)
        ],
        "counts": selectors.count_states(boards),
        "forfeit_marks": forfeit_reads.board_marks((b.result for b in boards), event.pk),
        # a conflict between two sheets: the first difference in words (the match page's)
        "differences": {
            b.match.pk: found["text"]
            for b in boards
            if b.state == "conflict"
            and (
                found := sheet_difference.for_director(
                    b.match, b.claims, b.state, seat_records(b.match)
                )
            )
        },
        "state": state,
        "complete": services.round_results_complete(round_),
        "poll_seconds": POLL_SECONDS,
        "links": links,
        "late": late,
    }
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/results/_board.html", context)
    context["revoke_form"] = ReasonForm()
    return render(request, "tournaments/results/round.html", context)


def _match(round_: Round, match_id: int) -> Match:
    return get_object_or_404(Match, round=round_, pk=match_id)


def _match_page(
    request: HttpRequest,
    event: Event,
    round_: Round,
    match: Match,
    *,
    resolve_form: ResolveForm | None = None,
    entry_form: ResultEntryForm | None = None,
    forfeit_form: ForfeitForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The match page; after a refused action, with the bound form (what the director typed
    kept, its errors shown) and ``status`` 400."""
    board = selectors.match_board(match.pk)
    if board is None:  # pragma: no cover - _match found it
        raise Http404
    version = board.result.version if board.result else None
    seats = max(2, match.table_entries)
    entry_form = entry_form or ResultEntryForm(initial={"version": version}, seats=seats)
    return render(
        request,
        "tournaments/results/match.html",
        {
            "event": event,
            "round": round_,
            "board": board,
            "divergence": board.divergence(),
            "difference": sheet_difference.for_director(
                match, board.claims, board.state, seat_records(match)
            ),
            "resolve_form": resolve_form or ResolveForm(match=match),
            "entry_form": entry_form,
            # each score to type, with whose it is (seat order)
            "score_fields": list(
                zip(board.side_names, (entry_form[n] for n in entry_form.score_names), strict=False)
            ),
            "forfeit_form": forfeit_form or ForfeitForm(match=match, initial={"version": version}),
            "forfeit_mark": forfeit_reads.board_marks([board.result], event.pk).get(match.pk, ""),
            "forfeit_score": game.format_displayed(
                forfeit_reads.forfeit_score(event, match), event
            ),
            "score_unit": game.unit_label(event),
        },
        status=status,
    )


@director_required
def match_results(
    request: HttpRequest, number: int, match_id: int, *, event: Event
) -> HttpResponse:
    """One match: both sides' claims, where they diverge, and the director's actions."""
    round_ = _round(event, number)
    return _match_page(request, event, round_, _match(round_, match_id))


def _back(event: Event, number: int, match_id: int) -> HttpResponse:
    return redirect("director:result", slug=event.slug, number=number, match_id=match_id)


@require_POST
@director_required
def resolve(request: HttpRequest, number: int, match_id: int, *, event: Event) -> HttpResponse:
    """Accept a side's claim (with a reason). Refused: the page again, the form kept, 400."""
    round_ = _round(event, number)
    match = _match(round_, match_id)
    form = ResolveForm(request.POST, match=match)
    if form.is_valid():
        try:
            decisions.resolve_conflict(
                match=match,
                side=form.cleaned_data["side"],
                reason=form.cleaned_data["reason"],
                actor=request.user,
            )
        except SpinnerError as exc:
            show_error(form, exc)
        else:
            messages.success(request, gettext("The conflict is resolved."))
            return _back(event, number, match_id)
    return _match_page(request, event, round_, match, resolve_form=form, status=400)


@require_POST
@director_required
def enter_result(request: HttpRequest, number: int, match_id: int, *, event: Event) -> HttpResponse:
    """Override (an arbitral result) or, over a confirmed result, correct it: a new version.

    Refused (a form error, a stale version, a sheet the engine does not accept): the page
    again with everything typed kept (the sheet, the scores, the reason), the errors, 400.
    """
    round_ = _round(event, number)
    match = _match(round_, match_id)
    form = ResultEntryForm(request.POST, seats=max(2, match.table_entries))
    if form.is_valid():
        data = form.cleaned_data
        final = form.final_score(event)
        try:
            if data.get("version"):
                decisions.correct_result(
                    match=match,
                    sheet=data.get("sheet_obj"),
                    final_score=final,
                    reason=data["reason"],
                    actor=request.user,
                    expected_version=data["version"],
                )
            else:
                decisions.override_result(
                    match=match,
                    sheet=data.get("sheet_obj"),
                    final_score=final,
                    reason=data["reason"],
                    actor=request.user,
                )
        except SpinnerError as exc:
            show_error(form, exc)
        else:
            messages.success(request, gettext("The result is entered."))
            return _back(event, number, match_id)
    return _match_page(request, event, round_, match, entry_form=form, status=400)


@require_POST
@director_required
def record_forfeit(
    request: HttpRequest, number: int, match_id: int, *, event: Event
) -> HttpResponse:
    """Record a forfeit, a double forfeit or a no-show (a new result version over a confirmed
    one). Refused: the match page again, the choice and the reason kept, the error shown, 400."""
    round_ = _round(event, number)
    match = _match(round_, match_id)
    form = ForfeitForm(request.POST, match=match)
    if form.is_valid():
        try:
            result = form.record(match, request.user)
        except SpinnerError as exc:
            show_error(form, exc)
        else:
            mark = forfeit_reads.forfeit_mark(
                result.forfeit, no_show=form.cleaned_data["who"].startswith("no_show")
            )
            messages.success(request, forfeit_reads.RECORDED_AS[mark])
            return _back(event, number, match_id)
    return _match_page(request, event, round_, match, forfeit_form=form, status=400)


@require_POST
@director_required
def revoke_links(request: HttpRequest, number: int, *, event: Event) -> HttpResponse:
    round_ = _round(event, number)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        show_form_errors(request, form)
    else:
        try:
            table_links.revoke_table_links(
                round_=round_, actor=request.user, reason=form.cleaned_data["reason"]
            )
        except SpinnerError as exc:
            show_error(request, exc)
        else:
            messages.success(
                request, gettext("Every table link of this round is revoked; new ones below.")
            )
    return redirect("director:results", slug=event.slug, number=number)
