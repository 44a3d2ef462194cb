"""Shared infrastructure: database, settings, errors, request limits, long-lived clients, events, jobs."""
