"""The director's registration pages: events, entries, check-in, CSV import, audit log.

Thin views: forms check types, ``tournaments.services`` write, ``tournaments.selectors`` read, and
application errors become messages or form errors. Entry buttons work with htmx (the row is
swapped in place) and without JavaScript (a plain POST, then a redirect back to the list).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.views.decorators.http import require_POST

from tournaments.errors import SpinnerError
from tournaments.models import Entry, Event
from tournaments.permissions import director_required
from tournaments.selectors import registration as selectors
from tournaments.services import entries as entry_services
from tournaments.services import entry_import
from tournaments.services import events as event_services
from tournaments.services.entries import PlayerSpec

# --- forms -------------------------------------------------------------------------------------

FIELDSETS: list[tuple[str, list[str]]] = [
    ("The event", ["name", "start_date", "end_date", "venue", "status"]),
    (
        "The game",
        [
            "rules",
            "entry_kind",
            "target",
            "hand_size",
            "time_policy",
            "round_minutes",
            "allow_final_score_only",
        ],
    ),
    (
        "The format",
        [
            "format",
            "swiss_rounds",
            "first_round",
            "playoff",
            "playoff_qualifiers",
            "playoff_consolation",
        ],
    ),
    (
        "Match points",
        [
            "points_win",
            "points_draw",
            "points_loss",
            "points_bye",
            "margin_bonus_points",
            "margin_bonus_at",
        ],
    ),
    ("Tiebreaks", ["tiebreaks"]),
    (
        "Public pages",
        [
            "public_listing",
            "public_entries",
            "public_pairings",
            "public_results",
            "public_standings",
        ],
    ),
]

_DATE = forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})


def user_of(request: HttpRequest) -> User:
    """The logged-in user (views here are behind a login)."""
    assert isinstance(request.user, User)
    return request.user


class EventForm(forms.Form):
    """Every event setting, with the model's choices and help texts; the service validates."""

    def __init__(self, *args: Any, creating: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = [f for _, fs in FIELDSETS for f in fs if f != "tiebreaks"]
        self.fields.update(
            forms.fields_for_model(
                Event, fields=names, widgets={"start_date": _DATE, "end_date": _DATE}
            )
        )
        self.fields[
            "target"
        ].help_text = (
            "Raw points (Five Up: 305 raw = 61 shown). Empty: the rule set's usual target."
        )
        self.fields["hand_size"].help_text = "Tiles per player. Empty: the rule set's deal."
        self.fields["tiebreaks"] = forms.CharField(
            required=False,
            help_text="In order, separated by commas, from: "
            + ", ".join(event_services.TIEBREAKS)
            + ".",
        )
        if creating:
            self.fields["slug"] = forms.SlugField(
                required=False,
                label="Web address",
                help_text="Optional: /events/<this>/. Made from the name when empty.",
            )

    def clean_tiebreaks(self) -> list[str]:
        raw = self.cleaned_data.get("tiebreaks") or ""
        return [part.strip().lower().replace(" ", "_") for part in raw.split(",") if part.strip()]

    def settings(self) -> dict[str, Any]:
        return {k: v for k, v in self.cleaned_data.items() if k != "slug"}

    def fieldsets(self) -> list[tuple[str, list[forms.BoundField]]]:
        sets = [(title, [self[f] for f in fs]) for title, fs in FIELDSETS]
        if "slug" in self.fields:
            sets[0][1].insert(1, self["slug"])
        return sets


def apply_error(form: forms.Form, exc: SpinnerError) -> None:
    """Show a service error against the form's fields (or at the top)."""
    errors = exc.details.get("errors") if isinstance(exc.details, dict) else None
    if isinstance(errors, dict) and errors:
        for field, message in errors.items():
            form.add_error(field if field in form.fields else None, message)
    else:
        form.add_error(None, exc.message)


class EntryForm(forms.Form):
    """One entry: two players (partnership event) or one (head to head), matched by name+club."""

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.partnership = event.entry_kind == Event.EntryKind.PARTNERSHIP
        sides = ["a", "b"] if self.partnership else [""]
        for side in sides:
            suffix = f"_{side}" if side else ""
            who = f"Player {side.upper()}" if side else "Player"
            self.fields[f"player{suffix}"] = forms.CharField(label=f"{who}: name", max_length=120)
            self.fields[f"club{suffix}"] = forms.CharField(
                label=f"{who}: club", max_length=120, required=False
            )
            self.fields[f"rating{suffix}"] = forms.IntegerField(
                label=f"{who}: rating", required=False, min_value=0
            )
        if self.partnership:
            self.fields["team"] = forms.CharField(
                label="Team name", max_length=120, required=False, help_text="Optional."
            )
        self.fields["seed"] = forms.IntegerField(required=False, min_value=1)
        self.sides = sides

    def players(self) -> list[PlayerSpec]:
        data = self.cleaned_data
        out = []
        for side in self.sides:
            suffix = f"_{side}" if side else ""
            out.append(
                PlayerSpec(
                    name=data[f"player{suffix}"],
                    club=data.get(f"club{suffix}") or "",
                    rating=data.get(f"rating{suffix}"),
                )
            )
        return out


class SeedForm(forms.Form):
    seed = forms.IntegerField(required=False, min_value=1, help_text="Empty: no seed.")


class PinForm(forms.Form):
    pinned_table = forms.IntegerField(
        required=False, min_value=1, label="Pinned table", help_text="Empty: no pin."
    )
    reason = forms.CharField(required=False, max_length=200, help_text="E.g. step-free access.")


class WithdrawForm(forms.Form):
    reason = forms.CharField(required=False, max_length=200)


class DirectorForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username of the new director")


# --- event pages -------------------------------------------------------------------------------


@login_required
def director_home(request: HttpRequest) -> HttpResponse:
    """/director/: the events I direct (staff: all) and a link to create one."""
    return render(
        request,
        "tournaments/registration/director_home.html",
        {"events": selectors.list_director_events(request.user)},
    )


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    """/director/events/new/: create an event (its creator directs it)."""
    form = EventForm(request.POST or None, creating=True)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_services.create_event(
                actor=user_of(request), slug=form.cleaned_data.get("slug") or "", **form.settings()
            )
        except SpinnerError as exc:
            apply_error(form, exc)
        else:
            messages.success(request, f"{event.name} created. Next: add the entries.")
            return redirect("director-event", slug=event.slug)
    return render(
        request, "tournaments/registration/event_form.html", {"form": form, "event": None}
    )


@director_required
def event_edit(request: HttpRequest, event: Event) -> HttpResponse:
    """/director/events/<slug>/edit/: change the event's settings."""
    initial = {f: getattr(event, f) for _, fs in FIELDSETS for f in fs}
    initial["tiebreaks"] = ", ".join(event.tiebreaks)
    form = EventForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            event_services.update_event(actor=user_of(request), event=event, **form.settings())
        except SpinnerError as exc:
            apply_error(form, exc)
        else:
            messages.success(request, "Settings saved.")
            return redirect("director-event", slug=event.slug)
    return render(
        request, "tournaments/registration/event_form.html", {"form": form, "event": event}
    )


@director_required
def event_dashboard(request: HttpRequest, event: Event) -> HttpResponse:
    """/director/events/<slug>/: settings summary, entry counts, directors, links."""
    return render(
        request,
        "tournaments/registration/event_dashboard.html",
        {
            "event": event,
            "counts": selectors.count_entries(event),
            "rules": selectors.describe_rules(event),
            "directors": list(event.directors.order_by("username")),
            "director_form": DirectorForm(),
            "has_rounds": event.rounds.exists(),
        },
    )


@require_POST
@director_required
def event_add_director(request: HttpRequest, event: Event) -> HttpResponse:
    form = DirectorForm(request.POST)
    if form.is_valid():
        try:
            user = event_services.add_director(
                actor=user_of(request), event=event, username=form.cleaned_data["username"]
            )
        except SpinnerError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"{user.username} now directs this event.")
    return redirect("director-event", slug=event.slug)


@director_required
def audit_log(request: HttpRequest, event: Event) -> HttpResponse:
    """/director/events/<slug>/audit/: every change, newest first."""
    return render(
        request,
        "tournaments/registration/audit.html",
        {"event": event, "log": selectors.list_audit(event=event)},
    )


# --- entries -----------------------------------------------------------------------------------

ENTRY_ACTIONS: dict[str, Callable[..., Entry]] = {
    "check-in": entry_services.check_in_entry,
    "undo-check-in": entry_services.undo_check_in,
    "withdraw": entry_services.withdraw_entry,
    "reinstate": entry_services.reinstate_entry,
}


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


@director_required
def entries(request: HttpRequest, event: Event) -> HttpResponse:
    """/director/events/<slug>/entries/: search (as you type with htmx) and one-tap check-in."""
    query = request.GET.get("q", "")
    status = request.GET.get("status", "")
    if status not in Entry.Status.values:
        status = ""
    context = {
        "event": event,
        "entries": selectors.list_entries(event=event, query=query, status=status),
        "q": query,
        "status": status,
        "statuses": Entry.Status.choices,
        "counts": selectors.count_entries(event),
        "back": request.get_full_path(),
    }
    if _is_htmx(request) and request.headers.get("HX-Target") == "entry-rows":
        params = urlencode({k: v for k, v in (("q", query), ("status", status)) if v})
        context["back"] = reverse("director-entries", args=[event.slug]) + (
            f"?{params}" if params else ""
        )
        return render(request, "tournaments/registration/_entry_rows.html", context)
    return render(request, "tournaments/registration/entries.html", context)


def _back(request: HttpRequest, event: Event) -> HttpResponseRedirect:
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = ""
    return HttpResponseRedirect(target or reverse("director-entries", args=[event.slug]))


@require_POST
@director_required
def entry_action(request: HttpRequest, event: Event, entry_id: int, action: str) -> HttpResponse:
    """POST check-in / undo-check-in / withdraw / reinstate: the row (htmx, with the checked-in
    count swapped out of band) or a redirect back (``next``) without JavaScript."""
    service = ENTRY_ACTIONS.get(action)
    try:
        entry = selectors.get_entry(event=event, entry_id=entry_id)
        if service is None:
            raise SpinnerError(f"Unknown action {action!r}.", code="unknown_action")
        kwargs: dict[str, Any] = {"actor": user_of(request), "entry": entry}
        if action == "withdraw":
            kwargs["reason"] = request.POST.get("reason", "")
        service(**kwargs)
        error = ""
    except SpinnerError as exc:
        error = exc.message
    if _is_htmx(request):
        try:
            fresh = selectors.get_entry(event=event, entry_id=entry_id)
        except SpinnerError:
            return HttpResponse(status=404)
        return render(
            request,
            "tournaments/registration/_entry_action.html",
            {
                "event": event,
                "entry": fresh,
                "error": error,
                "back": request.POST.get("next"),
                "counts": selectors.count_entries(event),
            },
        )
    if error:
        messages.error(request, error)
    return _back(request, event)


@director_required
def entry_add(request: HttpRequest, event: Event, late: bool = False) -> HttpResponse:
    """/director/events/<slug>/entries/add/ (and /late/): register one entry."""
    form = EntryForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        register = entry_services.register_late_entry if late else entry_services.register_entry
        try:
            entry = register(
                actor=user_of(request),
                event=event,
                players=form.players(),
                team_name=form.cleaned_data.get("team") or "",
                seed=form.cleaned_data.get("seed"),
            )
        except SpinnerError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"{entry.name} registered{' (late entry)' if late else ''}.")
            if "another" in request.POST:
                return redirect(request.path)
            return redirect("director-entries", slug=event.slug)
    return render(
        request,
        "tournaments/registration/entry_add.html",
        {"event": event, "form": form, "late": late, "has_rounds": event.rounds.exists()},
    )


@director_required
def entry_detail(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    """/director/events/<slug>/entries/<id>/: the entry's players, seed, pinned table, status."""
    try:
        entry = selectors.get_entry(event=event, entry_id=entry_id)
    except SpinnerError as exc:
        messages.error(request, exc.message)
        return redirect("director-entries", slug=event.slug)
    seed_form = SeedForm(initial={"seed": entry.seed})
    pin_form = PinForm(initial={"pinned_table": entry.pinned_table})
    if request.method == "POST":
        which = request.POST.get("form")
        bound: forms.Form
        if which == "seed":
            bound = seed_form = SeedForm(request.POST)
        else:
            bound = pin_form = PinForm(request.POST)
        if bound.is_valid():
            try:
                if which == "seed":
                    entry_services.set_seed(
                        actor=user_of(request), entry=entry, seed=bound.cleaned_data["seed"]
                    )
                else:
                    entry_services.pin_table(
                        actor=user_of(request),
                        entry=entry,
                        table=bound.cleaned_data["pinned_table"],
                        reason=bound.cleaned_data["reason"],
                    )
            except SpinnerError as exc:
                bound.add_error(None, exc.message)
            else:
                messages.success(request, "Saved.")
                return redirect("director-entry", slug=event.slug, entry_id=entry.pk)
    return render(
        request,
        "tournaments/registration/entry_detail.html",
        {
            "event": event,
            "entry": entry,
            "seed_form": seed_form,
            "pin_form": pin_form,
            "withdraw_form": WithdrawForm(),
        },
    )


# --- CSV import --------------------------------------------------------------------------------


def _read_upload(request: HttpRequest) -> str:
    upload = request.FILES.get("file")
    if upload is None:
        return request.POST.get("text", "")
    raw: bytes = upload.read(entry_import.MAX_IMPORT_LINES * 400)
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):  # Excel's "Unicode text" is UTF-16
        return raw.decode("utf-16", errors="replace")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


@director_required
def import_entries(request: HttpRequest, event: Event) -> HttpResponse:
    """/director/events/<slug>/import/: paste or upload a CSV, preview it, then confirm.

    The preview page carries the text in a hidden field of the confirm form (and in the edit
    box), so nothing typed is lost; confirming parses it again and saves all lines or none.
    """
    text = ""
    preview = None
    if request.method == "POST":
        text = _read_upload(request)
        if request.POST.get("action") == "confirm":
            try:
                created = entry_import.import_entries(
                    actor=user_of(request), event=event, text=text
                )
            except SpinnerError as exc:
                messages.error(request, exc.message)
                preview = entry_import.preview_import(event=event, text=text)
            else:
                messages.success(request, f"Imported {len(created)} entries.")
                return redirect("director-entries", slug=event.slug)
        else:
            preview = entry_import.preview_import(event=event, text=text)
    return render(
        request,
        "tournaments/registration/import.html",
        {
            "event": event,
            "text": text,
            "preview": preview,
            "columns": entry_import.import_columns(event),
            "has_rounds": event.rounds.exists(),
        },
    )
