"""Crowd campaigns in GraphQL."""
