"""The operators' routes (namespace ``ops``): liveness, readiness and metrics."""

from django.urls import path

from tournaments.views import ops

app_name = "ops"

urlpatterns = [
    path("healthz", ops.healthz, name="healthz"),
    path("readyz", ops.readyz, name="readyz"),
    path("metrics", ops.metrics, name="metrics"),
]
