"""The director's event pages: the director's home, creating and editing an event (its settings
checked by the services), its dashboard, its directors and its audit log."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.functional import Promise
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from tournaments import game, stage_names, standings, time_zones
from tournaments.errors import SpinnerError
from tournaments.models import Event
from tournaments.pairing.best_of import BEST_OF
from tournaments.pairing.stages import STAGES
from tournaments.permissions import can_create_events, director_required, organisers_only
from tournaments.presenters import audit as audit_presenters
from tournaments.selectors import check_in as check_in_reads
from tournaments.selectors import desk as desk_selectors
from tournaments.selectors import registration as selectors
from tournaments.selectors.final_placings import finish_check
from tournaments.services import events as event_services
from tournaments.views.errors import show_error

FORMAT_PARTS = ("best_of", "target")
"""A play-off stage's two settings (``Event.playoff_formats``), one form field each."""

FIELDSETS: list[tuple[str | Promise, list[str]]] = [
    (gettext_lazy("The event"), ["name", "start_date", "end_date", "venue", "time_zone", "status"]),
    (
        gettext_lazy("The game"),
        [
            "rules",
            "entry_kind",
            "table_size",
            "mixed_table_sizes",
            "table_confirmation",
            "target",
            "hand_size",
            "time_policy",
            "round_minutes",
            "allow_final_score_only",
            "require_other_device",
        ],
    ),
    (
        gettext_lazy("The format"),
        [
            "format",
            "swiss_rounds",
            "first_round",
            "avoid_same_club",
            "rated",
            "playoff",
            "playoff_qualifiers",
            "playoff_consolation",
            "playoff_reset",
        ],
    ),
    (
        gettext_lazy("Play-off matches"),
        [game.playoff_format_field(stage, part) for stage in STAGES for part in FORMAT_PARTS],
    ),
    (
        gettext_lazy("Match points"),
        [
            "points_win",
            "points_draw",
            "points_loss",
            "points_bye",
            "margin_bonus_points",
            "margin_bonus_at",
            "placing_points",
        ],
    ),
    (
        gettext_lazy("Forfeits"),
        [
            "forfeit_score",
            "points_forfeit_win",
            "points_forfeit_loss",
            "points_double_forfeit",
            "forfeit_spread",
        ],
    ),
    (gettext_lazy("Tiebreaks"), ["tiebreaks"]),
    (
        gettext_lazy("Public pages"),
        [
            "public_listing",
            "public_entries",
            "public_pairings",
            "public_results",
            "public_standings",
        ],
    ),
]


LABELS = {
    "name": gettext_lazy("Name"),
    "start_date": gettext_lazy("Start date"),
    "end_date": gettext_lazy("End date"),
    "venue": gettext_lazy("Venue"),
    "status": gettext_lazy("Status"),
    "rules": gettext_lazy("Rules"),
    "entry_kind": gettext_lazy("Entry kind"),
    "hand_size": gettext_lazy("Hand size"),
    "time_policy": gettext_lazy("Time policy"),
    "round_minutes": gettext_lazy("Round minutes"),
    "allow_final_score_only": gettext_lazy("Allow final score only"),
    "require_other_device": gettext_lazy("Require a different device to confirm"),
    "format": gettext_lazy("Format"),
    "swiss_rounds": gettext_lazy("Swiss rounds"),
    "first_round": gettext_lazy("First round"),
    "playoff": gettext_lazy("Playoff"),
    "playoff_qualifiers": gettext_lazy("Playoff qualifiers"),
    "playoff_consolation": gettext_lazy("Playoff consolation"),
    "playoff_reset": gettext_lazy("Playoff reset"),
    "points_win": gettext_lazy("Points win"),
    "points_draw": gettext_lazy("Points draw"),
    "points_loss": gettext_lazy("Points loss"),
    "points_bye": gettext_lazy("Points bye"),
    "margin_bonus_points": gettext_lazy("Margin bonus points"),
    "public_listing": gettext_lazy("Public listing"),
    "public_entries": gettext_lazy("Public entries"),
    "public_pairings": gettext_lazy("Public pairings"),
    "public_results": gettext_lazy("Public results"),
    "public_standings": gettext_lazy("Public standings"),
    "tiebreaks": gettext_lazy("Tiebreaks"),
}
"""The settings' labels as a director reads them (the model's field names, in the reader's
language); the fields the form makes itself carry their own."""

_OWN_LABELS = frozenset(
    {
        "target",
        "margin_bonus_at",
        "forfeit_score",
        "rated",
        "forfeit_spread",
        "table_size",
        "mixed_table_sizes",
        "placing_points",
        "table_confirmation",
        "avoid_same_club",
    }
)
"""The fields whose label the form sets itself (a unit or a sentence)."""

SCORE_FIELDS = ("target", "margin_bonus_at", "forfeit_score")
"""Settings typed and shown in the game's displayed points, kept raw by the event."""

_DATE = forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})


def user_of(request: HttpRequest) -> User:
    """The logged-in user (views here are behind a login)."""
    assert isinstance(request.user, User)
    return request.user


class TimeZoneInput(forms.TextInput):
    """A zone name typed with the zone database's names offered as you type (a ``datalist``)."""

    LIST_ID = "time-zone-names"

    def render(
        self,
        name: str,
        value: Any,
        attrs: dict[str, Any] | None = None,
        renderer: Any = None,
    ) -> SafeString:
        attrs = {**(attrs or {}), "list": self.LIST_ID, "autocomplete": "off"}
        field = super().render(name, value, attrs, renderer)
        options = format_html_join("", '<option value="{}">', ((z,) for z in time_zones.offered()))
        return format_html('{}<datalist id="{}">{}</datalist>', field, self.LIST_ID, options)


def _score_fields() -> dict[str, forms.Field]:
    """The form's scores and forfeit match points: typed as people count them (the target, the
    margin bonus, the forfeit score) or as whole match points (empty: as a win or a loss)."""
    fields: dict[str, forms.Field] = {}
    # Scores a person types are in the game's displayed points (Five Up: 61, not 305 pips);
    # ``settings()`` converts them to the raw points the event keeps, by the chosen rules.
    fields["target"] = forms.DecimalField(
        required=False,
        min_value=0,
        label=gettext_lazy("Target (points)"),
        help_text=gettext_lazy(
            "In the points players count (Five Up: 61). Empty: the rule set's usual target."
        ),
    )
    fields["margin_bonus_at"] = forms.DecimalField(
        min_value=0,
        initial=0,
        label=gettext_lazy("Winning margin for the bonus (points)"),
        help_text=gettext_lazy("In the points players count; 0: no margin bonus."),
    )
    fields["forfeit_score"] = forms.DecimalField(
        required=False,
        min_value=0,
        label=gettext_lazy("Forfeit score (points)"),
        help_text=gettext_lazy(
            "What the side that turned up wins by, to 0, in the points players count. "
            "Empty: the target."
        ),
    )
    as_win = gettext_lazy("A whole number; negative for a penalty. Empty: as a win.")
    as_loss = gettext_lazy("A whole number; negative for a penalty. Empty: as a loss.")
    for field, label, help_text in (
        ("points_forfeit_win", gettext_lazy("Match points for a win by forfeit"), as_win),
        ("points_forfeit_loss", gettext_lazy("Match points for forfeiting"), as_loss),
        (
            "points_double_forfeit",
            gettext_lazy("Match points for a double forfeit (each side)"),
            as_loss,
        ),
    ):
        fields[field] = forms.IntegerField(required=False, label=label, help_text=help_text)
    return fields


class EventForm(forms.Form):
    """Every event setting, with the model's choices and help texts; the service validates."""

    def __init__(self, *args: Any, creating: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = [f for _, fs in FIELDSETS for f in fs if f != "tiebreaks" and f in MODEL_FIELDS]
        self.fields.update(
            forms.fields_for_model(
                Event, fields=names, widgets={"start_date": _DATE, "end_date": _DATE}
            )
        )
        self.fields.update(_score_fields())
        self.fields["forfeit_spread"].label = gettext_lazy(
            "A forfeit's score counts in points for and spread"
        )
        self.fields["forfeit_spread"].help_text = gettext_lazy(
            "Unticked: a forfeit adds nothing to points for, against or spread (like a bye)."
        )
        self.fields.update(_tables_fields())
        self.fields["time_zone"] = _time_zone_field()
        self.fields["hand_size"].help_text = gettext_lazy(
            "Tiles per player. Empty: the rule set's deal."
        )
        self.fields["rated"].label = gettext_lazy("Rated")
        self.fields["rated"].help_text = gettext_lazy(
            "Its played results rate the players (forfeits never do). Untick for a friendly."
        )
        self.fields["tiebreaks"] = forms.CharField(required=False, help_text=_tiebreaks_help())
        for name, label in LABELS.items():
            if name in self.fields and name not in _OWN_LABELS:
                self.fields[name].label = label
        self.fields.update(_format_fields())
        if creating:
            self.fields["slug"] = forms.SlugField(
                required=False,
                label=gettext_lazy("Web address"),
                help_text=gettext_lazy("Optional: /events/<this>/. Made from the name when empty."),
            )

    def clean_time_zone(self) -> str:
        """The zone as the zone database spells it ("america/new york" is America/New_York);
        a name it does not know is left for the service to refuse (``invalid_time_zone``);
        empty is UTC."""
        typed = str(self.cleaned_data.get("time_zone") or "").strip()
        return time_zones.canonical(typed) or typed or time_zones.DEFAULT

    def clean_table_size(self) -> int:
        """Not sent (an older form): 2, head to head or two partnerships."""
        return int(self.cleaned_data.get("table_size") or 2)

    def clean_placing_points(self) -> dict[str, Any]:
        """The points by place as typed ("4,2,1,0; 4,2,0" or "proportional 10"), as the event
        keeps them; what cannot be read is this field's error, saying what to fix."""
        try:
            return game.parse_placing_points(str(self.cleaned_data.get("placing_points") or ""))
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def clean_tiebreaks(self) -> list[str]:
        raw = self.cleaned_data.get("tiebreaks") or ""
        return [part.strip().lower().replace(" ", "_") for part in raw.split(",") if part.strip()]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        rules = data.get("rules")
        if not rules:
            return data
        for field in SCORE_FIELDS:
            points = data.get(field)
            if points is None:
                continue
            raw = game.raw_from_displayed(points, rules)
            if raw.denominator != 1:
                self.add_error(
                    field,
                    _between_steps(rules, points),
                )
            else:
                data[field] = int(raw)
        data["playoff_formats"] = self._formats(data, rules)
        return data

    def _formats(self, data: dict[str, Any], rules: str) -> dict[str, dict[str, Any]]:
        """The stage formats typed (targets in displayed points) as ``Event.playoff_formats``
        (raw targets); a target between two steps of the rules' points is this field's error."""
        formats: dict[str, dict[str, Any]] = {}
        for stage in STAGES:
            best_of = data.pop(game.playoff_format_field(stage, "best_of"), None)
            target_field = game.playoff_format_field(stage, "target")
            points = data.pop(target_field, None)
            target: int | None = None
            if points is not None:
                raw = game.raw_from_displayed(points, rules)
                if raw.denominator != 1:
                    self.add_error(
                        target_field,
                        _between_steps(rules, points),
                    )
                target = int(raw)
            formats[stage] = {"best_of": int(best_of or 1), "target": target}
        return formats

    def settings(self) -> dict[str, Any]:
        fields = event_services.SETTINGS_FIELDS
        return {k: v for k, v in self.cleaned_data.items() if k in fields}

    @staticmethod
    def initial_of(event: Event) -> dict[str, Any]:
        """The form's values for an event: scores in displayed points."""
        initial = {f: getattr(event, f) for _, fs in FIELDSETS for f in fs if f in MODEL_FIELDS}
        initial["tiebreaks"] = ", ".join(event.tiebreaks)
        initial["placing_points"] = game.placing_points_text(event.placing_points)
        for stage in STAGES:
            best_of, target = game.playoff_format(event, stage)
            initial[game.playoff_format_field(stage, "best_of")] = str(best_of)
            initial[game.playoff_format_field(stage, "target")] = (
                None if target is None else game.format_displayed(target, event)
            )
        for field in SCORE_FIELDS:
            if initial[field] is not None:
                initial[field] = game.format_displayed(initial[field], event)
        return initial

    def fieldsets(self) -> list[tuple[str | Promise, list[forms.BoundField]]]:
        sets = [(title, [self[f] for f in fs]) for title, fs in FIELDSETS]
        if "slug" in self.fields:
            sets[0][1].insert(1, self["slug"])
        return sets


def _between_steps(rules: str, points: Any) -> str:
    """The error of a score typed between two of the rules' displayed points."""
    return gettext(
        "%(rules)s counts points in steps of %(step)s: %(points)s is between two of them."
    ) % {
        "rules": Event.Rules(rules).label,
        "step": game.format_displayed(1, rules),
        "points": points,
    }


def _tables_fields() -> dict[str, forms.Field]:
    """Individual events at tables of 2, 3 or 4 (``Event.table_size`` and its neighbours),
    their match points by place, how a table's result is confirmed, and the director's "keep
    clubs apart"."""
    return {
        "table_size": forms.TypedChoiceField(
            choices=[
                (2, gettext_lazy("2 (head to head)")),
                (3, gettext_lazy("3 players")),
                (4, gettext_lazy("4 players")),
            ],
            coerce=int,
            required=False,
            empty_value=None,
            initial=2,
            label=gettext_lazy("Players at a table"),
            help_text=gettext_lazy(
                "Individual players only: a partnership event always plays two partnerships "
                "at a table (choose 2)."
            ),
        ),
        "mixed_table_sizes": forms.BooleanField(
            required=False,
            initial=True,
            label=gettext_lazy("Mix in the next smaller table when the field does not divide"),
            help_text=gettext_lazy(
                "Tables of 4 take tables of 3 (10 players: 4 + 3 + 3); tables of 3 take tables "
                "of 2. Unticked: the players left over sit out with a bye."
            ),
        ),
        "table_confirmation": forms.TypedChoiceField(
            choices=Event.TableConfirmation.choices,
            required=False,
            empty_value=Event.TableConfirmation.ALL,
            initial=Event.TableConfirmation.ALL,
            label=gettext_lazy("At a table of 3 or 4, the result stands when"),
        ),
        "placing_points": forms.CharField(
            required=False,
            max_length=200,
            label=gettext_lazy("Match points by place at tables of 3 or 4"),
            help_text=gettext_lazy(
                "Points of 1st, 2nd, ... place, one list per table size, e.g. “4,2,1,0; 4,2,0”; "
                "or “proportional 10” to share 10 points a table in proportion to score. Empty: "
                "4,2,1,0 at four, 4,2,0 at three."
            ),
        ),
        "avoid_same_club": forms.BooleanField(
            required=False,
            label=gettext_lazy("Keep players of one club apart while possible"),
            help_text=gettext_lazy(
                "Pairing avoids putting two entries of the same club together (a partnership "
                "counts when both partners are of that club). Name other pairs to keep apart on "
                "the entries page."
            ),
        ),
    }


def _tiebreaks_help() -> str:
    """The tiebreaks' help: the names to choose from, and the formats' defaults (the
    standings' ``DEFAULT_TIEBREAKS``, as the help page explains)."""
    swiss = ", ".join(standings.DEFAULT_TIEBREAKS[Event.Format.SWISS])
    robin = ", ".join(standings.DEFAULT_TIEBREAKS[Event.Format.ROUND_ROBIN])
    return gettext(
        "After match points, in order, separated by commas, from: %(names)s. Empty: the "
        "format's defaults (Swiss: %(swiss)s; round robin: %(robin)s). A change re-ranks the "
        "standings at once; fixed once the event is finished."
    ) % {"names": ", ".join(event_services.TIEBREAKS), "swiss": swiss, "robin": robin}


def _time_zone_field() -> forms.CharField:
    """The event's zone, typed with the zone database's names offered (checked by the service)."""
    return forms.CharField(
        max_length=64,
        required=False,
        initial=time_zones.DEFAULT,
        label=_("Time zone"),
        help_text=_(
            "Every time on the event's pages is shown in this zone, labelled: type the "
            "city's zone, e.g. America/Chicago or Europe/Madrid. Empty: UTC."
        ),
        widget=TimeZoneInput,
    )


def _format_fields() -> dict[str, forms.Field]:
    """Per play-off stage: best of 1, 3 or 5, and its target in displayed points (empty: the
    event's target)."""
    fields: dict[str, forms.Field] = {}
    for stage in STAGES:
        label = stage_names.STAGE_NAMES[stage]
        fields[game.playoff_format_field(stage, "best_of")] = forms.TypedChoiceField(
            choices=[(str(n), gettext("Best of %(n)s") % {"n": n}) for n in BEST_OF],
            coerce=int,
            required=False,
            empty_value=None,
            initial="1",
            label=format_lazy(gettext_lazy("{stage}: games"), stage=label),
        )
        fields[game.playoff_format_field(stage, "target")] = forms.DecimalField(
            required=False,
            min_value=1,
            label=format_lazy(gettext_lazy("{stage}: target (points)"), stage=label),
            help_text=gettext_lazy(
                "In the points players count (e.g. 121 for a long final). Empty: the event's "
                "target."
            ),
        )
    return fields


MODEL_FIELDS = frozenset(f.name for f in Event._meta.get_fields())
"""The settings that are the event's own columns (the stage formats are one JSON column)."""


class DirectorForm(forms.Form):
    username = forms.CharField(max_length=150, label=gettext_lazy("Username of the new director"))


@login_required
def director_home(request: HttpRequest) -> HttpResponse:
    """/director/: the events I direct (staff: all) and a link to create one."""
    return render(
        request,
        "tournaments/registration/director_home.html",
        {
            "events": selectors.list_director_events(request.user),
            "can_create_events": can_create_events(request.user),
        },
    )


@organisers_only
def event_create(request: HttpRequest) -> HttpResponse:
    """/director/events/new/: create an event (its creator directs it)."""
    form = EventForm(request.POST or None, creating=True)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_services.create_event(
                actor=user_of(request), slug=form.cleaned_data.get("slug") or "", **form.settings()
            )
        except SpinnerError as exc:
            show_error(form, exc)
        else:
            messages.success(
                request, gettext("%(name)s created. Next: add the entries.") % {"name": event.name}
            )
            return redirect("director:event", slug=event.slug)
    return render(
        request, "tournaments/registration/event_form.html", {"form": form, "event": None}
    )


@director_required
def event_edit(request: HttpRequest, event: Event) -> HttpResponse:
    """/director/events/<slug>/edit/: change the event's settings."""
    form = EventForm(request.POST or None, initial=EventForm.initial_of(event))
    if request.method == "POST" and form.is_valid():
        try:
            event_services.update_event(actor=user_of(request), event=event, **form.settings())
        except SpinnerError as exc:
            show_error(form, exc)
        else:
            messages.success(request, gettext("Settings saved."))
            return redirect("director:event", slug=event.slug)
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
            "desk": desk_selectors.desk(event),
            "check_in_state": check_in_reads.window(event),
            "finish": None if event.status == Event.Status.FINISHED else finish_check(event),
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
            show_error(request, exc)
        else:
            messages.success(
                request, gettext("%(user)s now directs this event.") % {"user": user.username}
            )
    return redirect("director:event", slug=event.slug)


@director_required
def audit_log(request: HttpRequest, event: Event) -> HttpResponse:
    """/director/events/<slug>/audit/: every change, newest first."""
    entries, matches, rounds = selectors.audit_names(event)
    names = audit_presenters.AuditNames(entries=entries, matches=matches)
    log = audit_presenters.audit_lines(selectors.list_audit(event=event), event, names, rounds)
    return render(request, "tournaments/registration/audit.html", {"event": event, "log": log})
