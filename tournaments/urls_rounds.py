"""Round control (directors) and the public round pages: ``{% url 'rounds:...' %}``."""

from django.urls import path

from tournaments.views import rounds

app_name = "rounds"

urlpatterns = [
    path("director/events/<slug:slug>/rounds/", rounds.round_list, name="list"),
    path("director/events/<slug:slug>/rounds/generate/", rounds.round_generate, name="generate"),
    path(
        "director/events/<slug:slug>/rounds/jobs/<int:job_id>/",
        rounds.generate_job,
        name="job",
    ),
    path("director/events/<slug:slug>/rounds/<int:number>/", rounds.round_review, name="review"),
    path(
        "director/events/<slug:slug>/rounds/<int:number>/swap-preview/",
        rounds.swap_preview,
        name="swap_preview",
    ),
    *(
        path(
            f"director/events/<slug:slug>/rounds/<int:number>/{action.replace('_', '-')}/",
            rounds.round_action,
            {"action": action},
            name=action,
        )
        for action in rounds.ACTIONS
    ),
    path("events/<slug:slug>/rounds/<int:number>/", rounds.public_round, name="public"),
]
