"""What a model build reports: progress events, the models it built, and the one error it raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class BuildEvent:
    """Progress report: ``stage`` is one of start, skipped, data, train, evaluate, offline, save, done."""

    task: str
    model_name: str
    stage: str
    step: int = 0
    total: int = 0
    message: str = ""
    loss: float | None = None


@dataclass
class BuiltModel:
    task: str
    name: str  # Triton model name (= directory in the repository)
    path: Path  # <output_repository>/<name>
    skipped: bool  # True: an existing build with the same cache key was kept
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def heldout_score(self) -> float | None:
        return self.metadata.get("heldout_accuracy", self.metadata.get("heldout_f1"))


class BuildError(RuntimeError):
    pass


class BuildCancelled(Exception):
    """Raised from a progress callback to stop a build at its next step (the staging directory is removed)."""
