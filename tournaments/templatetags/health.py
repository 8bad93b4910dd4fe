"""Operations notices on the director's pages: ``{% load health %}{% worker_notice %}``."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from tournaments import job_kinds
from tournaments.selectors.health import worker_health

register = template.Library()


@register.simple_tag
def worker_notice() -> SafeString | str:
    """ "Standings worker down since 14:02" when the workers' heartbeat is stale, "Scheduler
    (beat) down since 14:02" when beat's own is too (beat sends the workers'); nothing
    otherwise."""
    health = worker_health()
    if not health.down:
        return ""
    if health.fault == "beat_down":
        consequence = gettext(
            "Results are kept and the standings still update, but one lost to an outage is not "
            "repaired until it is back."
        )
    else:
        consequence = gettext("Results are kept; the standings update when it is back.")
    return format_html(
        '<p class="notice error" role="alert" data-code="{}">{} {}</p>',
        health.fault,
        health.message,
        consequence,
    )


@register.filter
def job_label(kind: str) -> str:
    """``{{ job.kind|job_label }}``: a background job's kind in words ("Seeding the play-off")."""
    return job_kinds.label(kind)
