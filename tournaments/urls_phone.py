"""Routes of the phone at the table (issue 7) and the director's printable cards."""

from django.urls import path

from tournaments.views import phone

urlpatterns = [
    path("t/sw.js", phone.service_worker, name="phone-sw"),
    path("t/<str:token>/", phone.table_page, name="phone-table"),
    path("t/<str:token>/status", phone.claim_status, name="phone-status"),
    path("t/<str:token>/position", phone.position, name="phone-position"),
    path(
        "director/events/<slug:slug>/rounds/<int:number>/cards/",
        phone.table_cards,
        name="phone-cards",
    ),
    path(
        "director/events/<slug:slug>/rounds/<int:number>/pairings-sheet/",
        phone.pairings_sheet,
        name="phone-pairings-sheet",
    ),
]
