"""Which config changes a task with an open round can take. Pure domain code, no I/O.

A round keeps the config version it opened with, but its contexts, its collected examples, the models that judge
it and the rounds after it (which copy its contexts) all rely on the names in that config: a change that removes or
renames one of them, adds a context field the round's contexts lack, or changes the task's kind would break them and
is refused with the field named. Everything else (new input fields and labels, display names, limits, validation,
duplicates, fooling and Dynascore settings) is additive and accepted; it applies from the next round on.
"""

from __future__ import annotations

from server.tasks.config import ConfigError, TaskConfig


def _removed(old: list[str], new: list[str]) -> list[str]:
    kept = set(new)
    return [name for name in old if name not in kept]


def _names(names: list[str]) -> str:
    return ", ".join(f"'{n}'" for n in names)


def breaking_changes(old: TaskConfig, new: TaskConfig) -> list[ConfigError]:
    """Every change from `old` to `new` that would break an open round, each with the config field it concerns."""
    if old.kind != new.kind:
        return [ConfigError("kind", f"cannot change from {old.kind} to {new.kind} while a round is open")]
    errors: list[ConfigError] = []
    old_context = [f.name for f in old.context_fields]
    new_context = [f.name for f in new.context_fields]
    if gone := _removed(old_context, new_context):
        errors.append(
            ConfigError(
                "context_fields",
                f"{_names(gone)} is used by the open round's contexts: context fields cannot be removed or renamed",
            )
        )
    if added := _removed(new_context, old_context):
        errors.append(ConfigError("context_fields", f"adding {_names(added)} would leave the open round's contexts without it"))
    if gone := _removed([f.name for f in old.input_fields], [f.name for f in new.input_fields]):
        errors.append(
            ConfigError(
                "input_fields",
                f"{_names(gone)} is used by collected examples: input fields can be added, not removed or renamed",
            )
        )
    if gone := _removed(old.labels or [], new.labels or []):
        errors.append(
            ConfigError("labels", f"{_names(gone)} is used by collected examples: labels can be added, not removed or renamed")
        )
    if old.model_inputs != new.model_inputs:
        errors.append(ConfigError("model_inputs", "the open round's target models take these inputs: they cannot change"))
    if gone := _removed(old.output_fields, new.output_fields):
        errors.append(ConfigError("output_fields", f"{_names(gone)} is answered by the open round's target models"))
    if old.answer_context_field != new.answer_context_field:
        errors.append(ConfigError("answer_context_field", "answers of collected examples are spans of this field"))
    return errors
