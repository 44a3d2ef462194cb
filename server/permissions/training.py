"""Retraining runs of a task's target model."""

from __future__ import annotations

__all__: list[str] = []
