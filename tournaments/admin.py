"""The Django admin, read-only: staff may look at everything, but every change goes through the
director's pages (and so through the services and the audit log)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments import models


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """View only: no add, change or delete (writes belong to the services)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(models.Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("name", "slug", "start_date", "status", "rules", "entry_kind")
    list_filter = ("status", "rules")
    search_fields = ("name", "slug")


@admin.register(models.Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "rating")
    search_fields = ("name", "club")


@admin.register(models.Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("name", "event", "status", "seed", "late", "pinned_table")
    list_filter = ("status", "late")
    search_fields = ("name",)


@admin.register(models.AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("at", "event", "actor", "action", "object_type", "object_id")
    list_filter = ("action",)


for model in (
    models.Partnership,
    models.EntryPlayer,
    models.Table,
    models.Round,
    models.Match,
    models.BackgroundJob,
):
    admin.site.register(model, ReadOnlyAdmin)
