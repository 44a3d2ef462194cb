"""Webhooks: task owners' HTTPS endpoints told about a task's examples, models and rounds (docs/design.md §9)."""
