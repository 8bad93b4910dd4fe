"""Spinner's rules engine for Five Up, All Fives and 7-tile Five-Up.

Pure Python: nothing in this package imports Django, DRF or Celery, except ``scoring/apps.py``
and ``scoring/management/`` (the ``verify_scoresheet`` and ``simulate`` commands).
"""
