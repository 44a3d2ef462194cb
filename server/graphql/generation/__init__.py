"""Generative targets in GraphQL: LLM endpoints (admins) and their usage (owners and admins)."""
