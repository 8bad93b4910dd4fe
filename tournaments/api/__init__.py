"""The REST API (DRF), one module per area; its schema (drf-spectacular) is its documentation."""
