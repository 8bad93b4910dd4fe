"""The REST API (DRF): one module per resource, views named ``<Entity><Action>Api``.

Routes are in ``tournaments/api/urls.py`` (mounted at ``/api/``).
"""
