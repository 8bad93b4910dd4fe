"""The Django project: settings, urls, the Celery app, wsgi/asgi. Nothing else lives here."""

from .celery import app as celery_app

__all__ = ["celery_app"]
