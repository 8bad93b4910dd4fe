"""Every page a reader or the director reaches on the finished demo event (``manage.py demo
--finish``), for the tests that read all pages at once (``datetime`` values, unique ids, the
descriptions) and the audit in ``benchmarks/audit``.

``public_pages(event)`` and ``director_pages(event)`` are ``(name, path)`` pairs; the director's
need the demo director logged in (``DIRECTOR``). Left out on purpose: the projector, the table
links and the desk (their own tests and owners), the printed cards.
"""

from __future__ import annotations

from django.urls import reverse

from tournaments.models import Entry, Event, Match, Player, Round

DIRECTOR = ("director", "director")
"""The demo's director: username and password (``tournaments/management/commands/demo.py``)."""


def public_pages(event: Event) -> list[tuple[str, str]]:
    """The public pages of ``event`` and the site's own, one of each kind."""
    slug = event.slug
    round_ = event.rounds.order_by("number").first()
    entry = Entry.objects.filter(event=event).order_by("pk").first()
    match = Match.objects.filter(round__event=event, is_bye=False).order_by("pk").first()
    player = Player.objects.order_by("pk").first()
    pages = [
        ("home", reverse("public:home")),
        ("events", reverse("public:events")),
        ("event", reverse("public:event", args=[slug])),
        ("standings", reverse("public:standings", args=[slug])),
        ("bracket", reverse("public:bracket", args=[slug])),
        ("follow", reverse("public:follow", args=[slug])),
        ("players", reverse("public:players")),
        ("leagues", reverse("public:leagues")),
        ("help-table", reverse("public:help-table")),
    ]
    if round_ is not None:
        pages.append(("round", reverse("public:round", args=[slug, round_.number])))
    if entry is not None:
        pages.append(("team", reverse("public:team", args=[slug, entry.pk])))
    if match is not None:
        pages.append(("match", reverse("public:match", args=[slug, match.pk])))
    if player is not None:
        pages.append(("player", reverse("public:player", args=[player.pk])))
    return pages


def director_pages(event: Event) -> list[tuple[str, str]]:
    """The director's pages of ``event`` (the desk left out: see the module)."""
    slug = event.slug
    round_ = event.rounds.filter(kind=Round.Kind.SWISS).order_by("number").first()
    entry = Entry.objects.filter(event=event).order_by("pk").first()
    pages = [
        ("director-home", reverse("director:home")),
        ("entries", reverse("director:entries", args=[slug])),
        ("entry-add", reverse("director:entry-add", args=[slug])),
        ("audit", reverse("director:audit", args=[slug])),
        ("rounds", reverse("director:rounds", args=[slug])),
        ("director-standings", reverse("director:standings", args=[slug])),
        ("webhooks", reverse("director:webhooks", args=[slug])),
        ("event-edit", reverse("director:event-edit", args=[slug])),
        ("api-keys", reverse("director:api-keys")),
        ("director-help", reverse("director:help")),
    ]
    if entry is not None:
        pages.append(("entry", reverse("director:entry", args=[slug, entry.pk])))
    if round_ is not None:
        number = round_.number
        pages.append(("round-review", reverse("director:round", args=[slug, number])))
        pages.append(("results", reverse("director:results", args=[slug, number])))
        match = round_.matches.filter(is_bye=False).order_by("pk").first()
        if match is not None:
            pages.append(("result", reverse("director:result", args=[slug, number, match.pk])))
    return pages
