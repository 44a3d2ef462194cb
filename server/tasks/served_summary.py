"""What a served target model offers a new task, read from Triton's repository index and the model's config:
its ready versions, its task kind (from its outputs), inputs and labels (from the build parameters) and its
held-out score. Pure: no I/O (server/tasks/served_models.py asks Triton)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from server.core.inference import CLASSIFICATION_OUTPUTS, QA_OUTPUTS

KINDS = ("classification", "extractive_qa")


@dataclass(frozen=True)
class ServedModel:
    name: str
    versions: tuple[str, ...]  # the ready versions, newest first
    ready: bool
    kind: str | None  # "classification" | "extractive_qa" | None (its outputs follow neither contract)
    task: str | None  # the build's task parameter (e.g. "sentiment"), when the config says so
    inputs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    parameters: Mapping[str, str] = field(default_factory=dict)

    @property
    def latest_version(self) -> str | None:
        return self.versions[0] if self.versions else None


def ready_versions(index: Iterable[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Triton's repository index (one entry per model, or per model version once loaded) → name: ready versions,
    newest first; a model in the repository with no ready version maps to []."""
    found: dict[str, set[str]] = {}
    for entry in index:
        name = str(entry.get("name") or "")
        if not name:
            continue
        versions = found.setdefault(name, set())
        version = str(entry.get("version") or "")
        if str(entry.get("state") or "").upper() == "READY" and version.isdigit():
            versions.add(version)
    return {name: sorted(versions, key=int, reverse=True) for name, versions in sorted(found.items())}


def kind_of(outputs: Iterable[str]) -> str | None:
    """The task kind whose I/O contract the model's outputs follow (server/core/inference.py)."""
    names = set(outputs)
    if set(QA_OUTPUTS) <= names:
        return "extractive_qa"
    if set(CLASSIFICATION_OUTPUTS) <= names:
        return "classification"
    return None


def _names(value: str | None) -> tuple[str, ...]:
    """A JSON list of strings in a config parameter, or () when it is missing or not one."""
    try:
        parsed = json.loads(value) if value else []
    except ValueError:
        return ()
    return tuple(str(v) for v in parsed) if isinstance(parsed, list) else ()


def summarize(name: str, versions: list[str], config: Mapping[str, Any] | None) -> ServedModel:
    """One served model from its ready versions and its Triton model config (None when it could not be read)."""
    config = config or {}
    parameters = {str(k): str((v or {}).get("string_value", "")) for k, v in (config.get("parameters") or {}).items()}
    inputs = tuple(str(t.get("name")) for t in config.get("input") or () if t.get("name"))
    outputs = tuple(str(t.get("name")) for t in config.get("output") or () if t.get("name"))
    return ServedModel(
        name=name,
        versions=tuple(versions),
        ready=bool(versions),
        kind=kind_of(outputs),
        task=parameters.get("task") or None,
        inputs=_names(parameters.get("inputs")) or inputs,
        outputs=outputs,
        labels=_names(parameters.get("labels")),
        parameters=parameters,
    )


def of_kind(models: Iterable[ServedModel], kind: str | None) -> list[ServedModel]:
    """The models that can judge a task of this kind (all of them when no kind is given), ready ones first; a model
    that is not ready says nothing of its kind, so it stays listed (marked not ready) rather than vanishing."""
    chosen = [m for m in models if kind is None or m.kind == kind or (not m.ready and m.kind is None)]
    return sorted(chosen, key=lambda m: (not m.ready, m.name))
