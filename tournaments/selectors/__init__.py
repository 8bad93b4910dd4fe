"""Reads, one module per area, each with a fixed number of queries."""
