from django.apps import AppConfig


class ScoringConfig(AppConfig):
    """Registers the engine's management commands; the engine itself has no models."""

    name = "scoring"
    verbose_name = "Rules engine"
