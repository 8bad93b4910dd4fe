"""Routes of the registration area: the director's event and entry pages, the public event pages.

Names (for ``{% url %}``): director-home, director-event-create, director-event,
director-event-edit, director-event-add-director, director-entries, director-entry-add,
director-entry-late, director-entry, director-entry-action, director-import, director-audit,
public-events, public-event.
"""

from django.urls import path

from tournaments.views import public
from tournaments.views import registration as views

urlpatterns = [
    path("director/", views.director_home, name="director-home"),
    path("director/events/new/", views.event_create, name="director-event-create"),
    path("director/events/<slug:slug>/", views.event_dashboard, name="director-event"),
    path("director/events/<slug:slug>/edit/", views.event_edit, name="director-event-edit"),
    path(
        "director/events/<slug:slug>/directors/",
        views.event_add_director,
        name="director-event-add-director",
    ),
    path("director/events/<slug:slug>/entries/", views.entries, name="director-entries"),
    path("director/events/<slug:slug>/entries/add/", views.entry_add, name="director-entry-add"),
    path(
        "director/events/<slug:slug>/entries/late/",
        views.entry_add,
        {"late": True},
        name="director-entry-late",
    ),
    path(
        "director/events/<slug:slug>/entries/<int:entry_id>/",
        views.entry_detail,
        name="director-entry",
    ),
    path(
        "director/events/<slug:slug>/entries/<int:entry_id>/<str:action>/",
        views.entry_action,
        name="director-entry-action",
    ),
    path("director/events/<slug:slug>/import/", views.import_entries, name="director-import"),
    path("director/events/<slug:slug>/audit/", views.audit_log, name="director-audit"),
    path("events/", public.event_list, name="public-events"),
    path("events/<slug:slug>/", public.event_detail, name="public-event"),
]
