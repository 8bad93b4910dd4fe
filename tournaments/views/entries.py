"""The director's entry pages: the list (check-in, withdraw, reinstate), adding an entry (late
entries too), an entry's name, seed and pinned table.

Entry buttons work with htmx (the row is swapped in place) and without JavaScript (a plain POST,
then a redirect back to the list).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.errors import SpinnerError
from tournaments.models import Entry, Event
from tournaments.permissions import director_required
from tournaments.selectors import avoidances as avoidance_reads
from tournaments.selectors import registration as selectors
from tournaments.services import avoidances as avoidance_services
from tournaments.services import entries as entry_services
from tournaments.services import entry_contacts
from tournaments.services import players as player_services
from tournaments.services.entries import PlayerSpec
from tournaments.views.confirm import confirm_page, confirmed, get_goes_back
from tournaments.views.errors import show_error
from tournaments.views.events import user_of


class EntryForm(forms.Form):
    """One entry: two players (partnership event) or one (head to head), matched by name+club."""

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.partnership = event.entry_kind == Event.EntryKind.PARTNERSHIP
        sides = ["a", "b"] if self.partnership else [""]
        for side in sides:
            suffix = f"_{side}" if side else ""
            labels = _player_labels(side)
            self.fields[f"player{suffix}"] = forms.CharField(label=labels[0], max_length=120)
            self.fields[f"club{suffix}"] = forms.CharField(
                label=labels[1], max_length=120, required=False
            )
            self.fields[f"rating{suffix}"] = forms.IntegerField(
                label=labels[2], required=False, min_value=0
            )
        if self.partnership:
            self.fields["team"] = forms.CharField(
                label=gettext("Team name"),
                max_length=120,
                required=False,
                help_text=gettext("Optional."),
            )
        self.fields["seed"] = forms.IntegerField(required=False, min_value=1, label=gettext("Seed"))
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


def _player_labels(side: str) -> tuple[str, str, str]:
    """The name, club and rating labels of player ``side`` ("a", "b"; "" head to head)."""
    if side == "a":
        return gettext("Player A: name"), gettext("Player A: club"), gettext("Player A: rating")
    if side == "b":
        return gettext("Player B: name"), gettext("Player B: club"), gettext("Player B: rating")
    return gettext("Player: name"), gettext("Player: club"), gettext("Player: rating")


class NameForm(forms.Form):
    name = forms.CharField(
        max_length=200,
        label=gettext_lazy("Name"),
        help_text=gettext_lazy("The name the entry is shown by; the players keep theirs."),
    )


class ContactForm(forms.Form):
    """The contact details this event holds for one of the entry's players."""

    player = forms.IntegerField(widget=forms.HiddenInput)
    email = forms.CharField(max_length=254, required=False, label=gettext_lazy("Email"))
    phone = forms.CharField(max_length=40, required=False, label=gettext_lazy("Phone"))


class SeedForm(forms.Form):
    seed = forms.IntegerField(
        required=False,
        min_value=1,
        label=gettext_lazy("Seed"),
        help_text=gettext_lazy("Empty: no seed."),
    )


class PinForm(forms.Form):
    pinned_table = forms.IntegerField(
        required=False,
        min_value=1,
        label=gettext_lazy("Pinned table"),
        help_text=gettext_lazy("Empty: no pin."),
    )
    reason = forms.CharField(
        required=False,
        max_length=200,
        label=gettext_lazy("Reason"),
        help_text=gettext_lazy("E.g. step-free access."),
    )


class WithdrawForm(forms.Form):
    reason = forms.CharField(required=False, max_length=200, label=gettext_lazy("Reason"))


ENTRY_ACTIONS = entry_services.ENTRY_ACTIONS


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def entries_context(request: HttpRequest, event: Event) -> dict[str, Any]:
    """The entries page's context: the list as searched, the counts, and the pairs kept apart
    (with the form to name another pair)."""
    query = request.GET.get("q", "")
    status = request.GET.get("status", "")
    if status not in Entry.Status.values:
        status = ""
    return {
        "event": event,
        "entries": selectors.list_entries(event=event, query=query, status=status),
        "q": query,
        "status": status,
        "statuses": Entry.Status.choices,
        "counts": selectors.count_entries(event),
        "back": request.get_full_path(),
        "apart": {},
    }


def _with_apart(context: dict[str, Any], event: Event) -> dict[str, Any]:
    """The entries page's "keep apart" section: the pairs kept apart and the entries to choose
    from (two queries; not for the list's htmx search)."""
    context["avoidances"] = avoidance_reads.list_avoidances(event)
    context["apart_choices"] = avoidance_reads.entry_choices(event)
    return context


@director_required
def entries(request: HttpRequest, event: Event) -> HttpResponse:
    """/director/events/<slug>/entries/: search (as you type with htmx) and one-tap check-in;
    below, the pairs the director keeps apart."""
    context = entries_context(request, event)
    query, status = context["q"], context["status"]
    if _is_htmx(request) and request.headers.get("HX-Target") == "entry-rows":
        params = urlencode({k: v for k, v in (("q", query), ("status", status)) if v})
        context["back"] = reverse("director:entries", args=[event.slug]) + (
            f"?{params}" if params else ""
        )
        return render(request, "tournaments/registration/_entry_rows.html", context)
    return render(request, "tournaments/registration/entries.html", _with_apart(context, event))


def _safe_back(request: HttpRequest, event: Event, target: str) -> str:
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = ""
    return target or reverse("director:entries", args=[event.slug])


def _back(request: HttpRequest, event: Event) -> HttpResponseRedirect:
    return HttpResponseRedirect(_safe_back(request, event, request.POST.get("next", "")))


@get_goes_back("director:entry", "entry_id")
@require_POST
@director_required
def entry_action(request: HttpRequest, event: Event, entry_id: int, action: str) -> HttpResponse:
    """POST check-in / undo-check-in / withdraw / reinstate: the row (htmx, with the checked-in
    count swapped out of band) or a redirect back (``next``) without JavaScript."""
    service = ENTRY_ACTIONS.get(action)
    if action == "undo-check-in" and not confirmed(request):
        return _confirm_undo(request, event, entry_id)
    try:
        entry = selectors.get_entry(event=event, entry_id=entry_id)
        if service is None:
            raise SpinnerError(
                gettext("Unknown action %(action)r.") % {"action": action}, code="unknown_action"
            )
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


def _confirm_undo(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    """Undo check-in asks first: inline in the row (htmx) or on its own page."""
    try:
        entry = selectors.get_entry(event=event, entry_id=entry_id)
    except SpinnerError:
        return HttpResponse(status=404)
    back = _safe_back(request, event, request.POST.get("next", ""))
    if _is_htmx(request):
        return render(
            request,
            "tournaments/registration/_entry_confirm_undo.html",
            {"event": event, "entry": entry, "back": back},
        )
    return confirm_page(
        request,
        event=event,
        question=gettext("Undo the check-in of %(name)s?") % {"name": entry.name},
        consequence=gettext("They will not be paired in the next round until checked in again."),
        button=gettext("Yes, undo the check-in of %(name)s") % {"name": entry.name},
        cancel_url=back,
        keep={"next": back},
    )


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
            show_error(form, exc)
        else:
            done = (
                gettext("%(name)s registered (late entry).")
                if late
                else gettext("%(name)s registered.")
            )
            messages.success(request, done % {"name": entry.name})
            if "another" in request.POST:
                return redirect(request.path)
            return redirect("director:entries", slug=event.slug)
    return render(
        request,
        "tournaments/registration/entry_add.html",
        {"event": event, "form": form, "late": late, "has_rounds": event.rounds.exists()},
    )


ENTRY_FORMS: dict[str, type[forms.Form]] = {
    "name": NameForm,
    "seed": SeedForm,
    "pin": PinForm,
    "contact": ContactForm,
}
"""The entry page's forms by the ``form`` field each posts."""


def _save_entry_form(request: HttpRequest, entry: Entry, which: str, data: dict[str, Any]) -> None:
    """The service of the entry page's form ``which`` (each audited)."""
    if which == "name":
        entry_services.rename_entry(actor=user_of(request), entry=entry, name=data["name"])
    elif which == "seed":
        entry_services.set_seed(actor=user_of(request), entry=entry, seed=data["seed"])
    elif which == "contact":
        entry_contacts.edit_member_contact(
            actor=user_of(request),
            entry=entry,
            player_id=data["player"],
            email=data["email"],
            phone=data["phone"],
        )
    else:
        entry_services.pin_table(
            actor=user_of(request), entry=entry, table=data["pinned_table"], reason=data["reason"]
        )


def _member_rows(
    request: HttpRequest, entry: Entry, bound: forms.Form | None
) -> list[dict[str, Any]]:
    """The entry's players, each with its contact form (the one posted, as typed, when it was
    refused) and whether this user may open the player's record (its owner, a superuser)."""
    posted = bound.data.get("player") if bound is not None else None
    rows = []
    for member in entry.members.select_related("player").order_by("pk"):
        form = (
            bound
            if bound is not None and posted == str(member.player_id)
            else ContactForm(
                initial={"player": member.player_id, "email": member.email, "phone": member.phone},
                auto_id=f"id_%s_{member.player_id}",
            )
        )
        rows.append(
            {
                "member": member,
                "form": form,
                "owns": player_services.may_manage_player(request.user, member.player),
            }
        )
    return rows


@director_required
def entry_detail(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    """/director/events/<slug>/entries/<id>/: the entry's players, name, seed, pinned table,
    status."""
    try:
        entry = selectors.get_entry(event=event, entry_id=entry_id)
    except SpinnerError as exc:
        show_error(request, exc)
        return redirect("director:entries", slug=event.slug)
    shown: dict[str, forms.Form] = {
        "name": NameForm(initial={"name": entry.name}),
        "seed": SeedForm(initial={"seed": entry.seed}),
        "pin": PinForm(initial={"pinned_table": entry.pinned_table}),
    }
    if request.method == "POST":
        which = str(request.POST.get("form"))
        which = which if which in ENTRY_FORMS else "pin"
        bound = shown[which] = ENTRY_FORMS[which](request.POST)
        if bound.is_valid():
            try:
                _save_entry_form(request, entry, which, bound.cleaned_data)
            except SpinnerError as exc:
                show_error(bound, exc)
            else:
                messages.success(request, gettext("Saved."))
                return redirect("director:entry", slug=event.slug, entry_id=entry.pk)
    return render(
        request,
        "tournaments/registration/entry_detail.html",
        {
            "event": event,
            "entry": entry,
            "name_form": shown["name"],
            "seed_form": shown["seed"],
            "pin_form": shown["pin"],
            "members": _member_rows(request, entry, shown.get("contact")),
            # its own ids beside the pin form's (both have a reason)
            "withdraw_form": WithdrawForm(auto_id="id_withdraw_%s"),
        },
    )


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value or "")
    except ValueError:
        return None


@require_POST
@director_required
def avoidance_add(request: HttpRequest, event: Event) -> HttpResponse:
    """POST two entries (and a note) to keep apart while possible. Refused: the entries page
    again with the choices and note as typed, and the error by the form."""
    data = request.POST
    x, y = _int_or_none(data.get("entry_x")), _int_or_none(data.get("entry_y"))
    note = data.get("note", "")
    try:
        if x is None or y is None:
            raise SpinnerError(
                gettext("Choose the two entries to keep apart."), code="avoidance_same_entry"
            )
        pair = avoidance_services.add_avoidance(
            actor=user_of(request), event=event, entry_x=x, entry_y=y, note=note
        )
    except SpinnerError as exc:
        context = _with_apart(entries_context(request, event), event)
        context["apart"] = {"entry_x": x, "entry_y": y, "note": note, "error": exc.message}
        return render(request, "tournaments/registration/entries.html", context, status=400)
    messages.success(
        request,
        gettext("%(a)s and %(b)s are kept apart from the next round.")
        % {"a": pair.entry_a.name, "b": pair.entry_b.name},
    )
    return HttpResponseRedirect(reverse("director:entries", args=[event.slug]) + "#apart")


@require_POST
@director_required
def avoidance_remove(request: HttpRequest, event: Event, avoidance_id: int) -> HttpResponse:
    """POST: stop keeping a pair apart."""
    try:
        avoidance_services.remove_avoidance(
            actor=user_of(request), event=event, avoidance_id=avoidance_id
        )
        messages.success(request, gettext("The pair is no longer kept apart."))
    except SpinnerError as exc:
        show_error(request, exc)
    return HttpResponseRedirect(reverse("director:entries", args=[event.slug]) + "#apart")
