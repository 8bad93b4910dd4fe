"""WSGI entry point (gunicorn spinner.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spinner.settings")

application = get_wsgi_application()
