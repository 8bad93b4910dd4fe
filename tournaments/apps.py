from django.apps import AppConfig

# Registers Spinner's system checks; it imports nothing of the app's models, so it is safe
# before the app registry is ready.
from tournaments import checks  # noqa: F401


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
