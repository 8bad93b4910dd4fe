"""Round control pages (directors) and the public round page.

Thin: selectors read, services write, and ``SpinnerError`` becomes a message. The director's
pages live under ``/director/events/<slug>/rounds/``; the public page is
``/events/<slug>/rounds/<n>/`` (only published rounds, only where the event shows pairings).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from tournaments import time_zones
from tournaments.errors import SpinnerError, ValidationFailed
from tournaments.models import BackgroundJob, Event, Round
from tournaments.permissions import can_oversee, can_see, director_required
from tournaments.presenters import paging
from tournaments.selectors import desk, matches
from tournaments.selectors import rounds as selectors
from tournaments.selectors.desk import next_step
from tournaments.selectors.pairing_reasons import draw_purposes, round_notes
from tournaments.selectors.results import round_board
from tournaments.selectors.standings import main_rounds_progress
from tournaments.services import playoff_rounds, round_edits, round_generation, round_status
from tournaments.views.confirm import confirm_page, confirmed, get_goes_back
from tournaments.views.errors import show_error

ACTIONS = ("swap_entries", "swap_tables", "publish", "start", "close", "discard")
"""The POST actions on a round (one url each: ``rounds:<action>``)."""

PER_PAGE = paging.TABLES_PER_PAGE


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _round_or_404(event: Event, number: int, *, public: bool = False) -> Round:
    try:
        return selectors.get_round(event, number, public=public)
    except Round.DoesNotExist as exc:
        raise Http404("No such round.") from exc


def _review_url(event: Event, number: int) -> str:
    return reverse("director:round", args=[event.slug, number])


def _int(value: str | None) -> int | None:
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        return None


# --- Director ---------------------------------------------------------------------------------


@require_GET
@director_required
def round_list(request: HttpRequest, *, event: Event) -> HttpResponse:
    """The event's rounds, their states, and the Generate button."""
    job = selectors.latest_generate_job(event)
    running = job is not None and job.status in (
        BackgroundJob.Status.PENDING,
        BackgroundJob.Status.RUNNING,
    )
    return render(
        request,
        "tournaments/rounds/list.html",
        {
            "event": event,
            "rounds": selectors.list_rounds(event),
            "job": job,
            "running": running,
            "playoff_seeded": playoff_rounds.is_seeded(event),
            # after the Swiss rounds: seed the play-off (standings page), finish (the desk)
            "next_step": next_step(event),
        },
    )


@require_POST
@director_required
def playoff_advance(request: HttpRequest, *, event: Event) -> HttpResponse:
    """ "Next play-off round": close the decided play-off round and write the next bracket round
    as a draft (``services.playoff_rounds.advance_playoff``), then review it."""
    try:
        rnd = playoff_rounds.advance_playoff(event=event, actor=request.user)
    except SpinnerError as exc:
        show_error(request, exc)
        return redirect("director:rounds", event.slug)
    messages.success(
        request,
        gettext("Round %(n)s (play-off) is ready to review and publish.") % {"n": rnd.number},
    )
    return redirect("director:round", event.slug, rnd.number)


@require_POST
@director_required
def round_generate(request: HttpRequest, *, event: Event) -> HttpResponse:
    """Start a generation job, then show its progress."""
    try:
        job = round_generation.start_round_generation(event=event, actor=request.user)
    except SpinnerError as exc:
        show_error(request, exc)
        if exc.code == "generation_running":
            return redirect("director:round-job", event.slug, exc.details["job"])
        return redirect("director:rounds", event.slug)
    return redirect("director:round-job", event.slug, job.pk)


@require_GET
@director_required
def generate_job(request: HttpRequest, job_id: int, *, event: Event) -> HttpResponse:
    """A generation job's progress; polled by htmx, which is sent to the draft when done."""
    job = get_object_or_404(
        BackgroundJob, pk=job_id, event=event, kind=round_generation.GENERATE_JOB
    )
    done = job.status == BackgroundJob.Status.DONE
    if done and job.result.get("round"):
        target = _review_url(event, int(job.result["round"]))
        if _is_htmx(request):
            response = HttpResponse(status=204)
            response["HX-Redirect"] = target
            return response
        return HttpResponseRedirect(target)
    page = "_job.html" if _is_htmx(request) else "job.html"
    return render(request, f"tournaments/rounds/{page}", {"event": event, "job": job})


def _pair_names(pair: Any, names: dict[int, str]) -> str:
    """Two entries of a stored pair (``[a, b]`` or ``"a-b"``) by name."""
    ids = str(pair).split("-") if isinstance(pair, str) else list(pair)
    return " & ".join(names.get(int(i), str(i)) for i in ids if str(i).strip().isdigit())


def table_details(view: selectors.RoundView, names: dict[int, str]) -> dict[int, list[str]]:
    """Per match id of a round at tables of many: its repeat meetings and the director's
    constraints it could not keep, by name, in the reader's language."""
    out: dict[int, list[str]] = {}
    for m in (*view.matches, *view.byes):
        lines = [
            gettext("Repeat meeting (the search found no seating without): %(pair)s")
            % {"pair": _pair_names(pair, names)}
            for pair in m.explanation.get("repeats") or ()
        ]
        for constraint in m.explanation.get("constraints") or ():
            why, _, pair = str(constraint).rpartition(" ")
            kind = (
                gettext("same club (%(club)s)") % {"club": why.partition(":")[2]}
                if why.startswith("club:")
                else gettext("named pair")
            )
            lines.append(
                gettext("Kept together despite the director's constraint, %(kind)s: %(pair)s")
                % {"kind": kind, "pair": _pair_names(pair, names)}
            )
        if lines:
            out[m.match_id] = lines
    return out


def _review_context(event: Event, rnd: Round) -> dict[str, object]:
    view = selectors.round_view(rnd)
    names = {e.entry_id: e.name for e in view.entries}
    findings = selectors.round_conflicts(rnd)
    details = table_details(view, names)
    return {
        "event": event,
        "round": rnd,
        "view": view,
        "violations": [selectors.describe_violation(v, names) for v in findings if v.is_violation],
        "overrides": [
            selectors.describe_violation(v, names) for v in findings if not v.is_violation
        ],
        "entries": view.entries,
        "ranking": [
            names.get(int(entry_id), gettext("entry %(id)s") % {"id": entry_id})
            for entry_id in rnd.explanation.get("ranking", [])
        ],
        "notes": round_notes(rnd.explanation),
        "draw_purposes": draw_purposes(rnd.explanation),
        "draft": rnd.status == Round.Status.DRAFT,
        "tables": [(m, details.get(m.match_id, [])) for m in view.matches],
        "tables_round": rnd.explanation.get("kind") == "swiss_tables",
        **_clock_context(event, rnd),
    }


def _clock_context(event: Event, rnd: Round) -> dict[str, object]:
    """The round's clock, its limit, and how many tables play on after time."""
    clock = desk.round_clock(rnd)
    late = desk.playing_after_time(round_board(rnd), clock) if clock.expired else set()
    return {
        "clock": clock,
        "limit": rnd.time_limit_minutes or event.round_minutes,
        "late": len(late),
    }


@require_GET
@director_required
def round_review(request: HttpRequest, number: int, *, event: Event) -> HttpResponse:
    """Review a round: tables, entries, why each pairing was made, conflicts, and (for a draft)
    the edit forms."""
    rnd = _round_or_404(event, number)
    return render(request, "tournaments/rounds/review.html", _review_context(event, rnd))


@require_GET
@director_required
def swap_preview(request: HttpRequest, number: int, *, event: Event) -> HttpResponse:
    """The conflicts the chosen swap would cause (htmx, while the director picks two entries)."""
    rnd = _round_or_404(event, number)
    x, y = _int(request.GET.get("entry_x")), _int(request.GET.get("entry_y"))
    problems: list[str] = []
    ready = x is not None and y is not None and x != y
    if ready:
        assert x is not None and y is not None
        view = selectors.round_view(rnd)
        names = {e.entry_id: e.name for e in view.entries}
        if x in names and y in names:
            problems = [
                selectors.describe_violation(v, names)
                for v in selectors.round_conflicts(rnd, swap=(x, y))
            ]
        else:
            ready = False
    return render(
        request,
        "tournaments/rounds/_swap_preview.html",
        {"ready": ready, "problems": problems},
    )


CONFIRM = {
    "publish": (
        gettext_lazy("Publish round %(n)s?"),
        gettext_lazy(
            "Its pairings go to the players (and the public pages, where the event shows them); "
            "the draft can no longer be edited."
        ),
        gettext_lazy("Yes, publish round %(n)s"),
    ),
    "close": (
        gettext_lazy("Close round %(n)s?"),
        gettext_lazy(
            "Its results count in the standings and the next round can be generated; the "
            "tables' links stop working."
        ),
        gettext_lazy("Yes, close round %(n)s"),
    ),
}
"""The actions that ask first: (question, what follows, the confirming button)."""


def _generate_after(event: Event, rnd: Round) -> bool:
    """Whether closing ``rnd`` leaves a Swiss round to generate (then its confirmation offers
    "close and generate the next round")."""
    if rnd.kind != Round.Kind.SWISS or event.format != Event.Format.SWISS:
        return False
    progress = main_rounds_progress(event)
    return progress.closed + 1 < progress.expected and progress.total == progress.closed + 1


def _close_then_generate(request: HttpRequest, event: Event, rnd: Round) -> HttpResponse:
    """Close ``rnd``, then start generating the next round and show its job (to the draft)."""
    try:
        round_status.close_round(round=rnd, actor=request.user)
        messages.success(request, gettext("Round %(n)s is closed.") % {"n": rnd.number})
        job = round_generation.start_round_generation(event=event, actor=request.user)
    except SpinnerError as exc:
        show_error(request, exc)
        return redirect("director:event", event.slug)
    return redirect("director:round-job", event.slug, job.pk)


def _ask_first(request: HttpRequest, event: Event, rnd: Round, action: str) -> HttpResponse:
    if action == "close":
        try:  # tables still without a result: say so now, not after "Yes, close"
            round_status.ensure_round_can_close(rnd)
        except SpinnerError as exc:
            show_error(request, exc)
            target = reverse("director:results", args=[event.slug, rnd.number])
            return redirect(f"{target}?state=missing")
    question, consequence, button = (str(t) % {"n": rnd.number} for t in CONFIRM[action])
    also = None
    if action == "close" and _generate_after(event, rnd):
        label = gettext("Yes, close round %(n)s and generate round %(next)s")
        also = ("then", "generate", label % {"n": rnd.number, "next": rnd.number + 1})
    return confirm_page(
        request,
        event=event,
        question=question,
        consequence=consequence,
        button=button,
        cancel_url=_review_url(event, rnd.number),
        also=also,
    )


def _act(request: HttpRequest, event: Event, number: int, action: str) -> HttpResponse:
    rnd = _round_or_404(event, number)
    data = request.POST
    if action in CONFIRM and not confirmed(request):
        return _ask_first(request, event, rnd, action)
    if action == "close" and data.get("then") == "generate":
        return _close_then_generate(request, event, rnd)
    reason = data.get("reason", "")
    try:
        if action == "swap_entries":
            x, y = _int(data.get("entry_x")), _int(data.get("entry_y"))
            if x is None or y is None:
                raise ValidationFailed(
                    gettext("Choose the two entries to swap."), code="invalid", details={}
                )
            round_edits.swap_entries(
                round=rnd, entry_x=x, entry_y=y, reason=reason, actor=request.user
            )
            messages.success(request, gettext("Entries swapped."))
        elif action == "swap_tables":
            tx, ty = _int(data.get("table_x")), _int(data.get("table_y"))
            if tx is None or ty is None:
                raise ValidationFailed(
                    gettext("Choose the two tables to swap."), code="invalid", details={}
                )
            round_edits.swap_tables(
                round=rnd, table_x=tx, table_y=ty, reason=reason, actor=request.user
            )
            messages.success(
                request, gettext("Tables %(x)s and %(y)s swapped.") % {"x": tx, "y": ty}
            )
        elif action == "publish":
            round_status.publish_round(round=rnd, actor=request.user)
            messages.success(request, gettext("Round %(n)s is published.") % {"n": rnd.number})
        elif action == "start":
            round_status.start_round(round=rnd, actor=request.user)
            messages.success(request, gettext("Round %(n)s is in play.") % {"n": rnd.number})
        elif action == "close":
            round_status.close_round(round=rnd, actor=request.user)
            messages.success(request, gettext("Round %(n)s is closed.") % {"n": rnd.number})
        elif action == "discard":
            round_edits.discard_draft_round(round=rnd, reason=reason, actor=request.user)
            messages.success(
                request,
                gettext("The draft of round %(n)s was discarded.") % {"n": rnd.number},
            )
            return redirect("director:rounds", event.slug)
        else:  # pragma: no cover - the url patterns name every action
            raise Http404("No such action.")
    except SpinnerError as exc:
        show_error(request, exc)
    return redirect("director:round", event.slug, number)


@get_goes_back("director:round", "number")
@require_POST
@director_required
def round_action(request: HttpRequest, number: int, action: str, *, event: Event) -> HttpResponse:
    """Swap entries or tables, publish, start, close or discard (POST; then back to review)."""
    return _act(request, event, number, action)


# --- Public -----------------------------------------------------------------------------------


@require_GET
def public_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The pairings by table, the byes, and "find my table" (htmx as you type; ``?q=`` without
    JavaScript). 404 unless the round is published and the event shows its pairings."""
    event = get_object_or_404(Event, slug=slug)
    if not can_see(request.user, event, "pairings"):
        raise Http404("No such round.")
    time_zones.activate_for(event)
    rnd = _round_or_404(event, number, public=True)
    query = request.GET.get("q", "").strip()[:80]
    part = None
    if query:  # a search looks through every table
        view = selectors.round_view(rnd)
        total = view.size
        shown = view.filtered(query)
        if query.isdigit():  # a table's number too
            numbered = [m for m in view.matches if str(m.table) == query and m not in shown.matches]
            shown = selectors.RoundView(
                round=rnd,
                matches=tuple(sorted((*numbered, *shown.matches), key=lambda m: m.table or 0)),
                byes=shown.byes,
            )
    else:
        # A long round in slices (presenters/paging.py), each read alone: 50 tables, not 500.
        tables, byes = selectors.round_counts(rnd)
        total = tables + byes
        part = paging.slice_of(tables, request.GET.get("from"), PER_PAGE)
        if part is not None and request.GET.get("from", str(part.first)) != str(part.first):
            return redirect(f"{request.path}?from={part.first}")
        shown = (
            selectors.round_view(rnd)
            if part is None
            else selectors.round_view(rnd, (part.start, part.last), with_byes=part.is_last)
        )
    context = {
        "event": event,
        "round": rnd,
        "view": shown,
        "part": part,
        "query": query,
        "total": total,
        "rounds": selectors.list_public_rounds(event),
        "director": can_oversee(request.user, event),
        # Issue 8: each table's confirmed result, where the event shows results.
        "results": (
            matches.round_results(rnd.pk, [m.match_id for m in (*shown.matches, *shown.byes)])
            if can_see(request.user, event, "results")
            else None
        ),
    }
    if _is_htmx(request) and request.headers.get("HX-Target") == "pairings":
        return render(request, "tournaments/rounds/_public_tables.html", context)
    return render(request, "tournaments/rounds/public.html", context)
