"""Crowd quality: the near-duplicate guard, gold items, validator reliability (issue #17)."""
