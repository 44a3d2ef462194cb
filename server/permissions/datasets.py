"""Datasets of a task: who may see and manage them."""

from __future__ import annotations

__all__: list[str] = []
