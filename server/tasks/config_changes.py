"""Which config changes a task with an open round can take. Pure domain code, no I/O.

A round keeps the config version it opened with, but its contexts, its collected examples, the models that judge
it and the rounds after it (which copy its contexts) all rely on the names in that config: a change that removes or
renames one of them, adds a context field the round's contexts lack, or changes the task's kind would break them and
is refused with the field named. So is a change to a form field that collected values would no longer fit: another
type, a removed choice, a narrower range (number bounds, step, rating scale, how many may be selected), another
span source, or a removed validator field. Everything else (new input fields and labels, display names, limits, validation,
duplicates, fooling and Dynascore settings) is additive and accepted; it applies from the next round on.
"""

from __future__ import annotations

from server.core.i18n import tr
from server.tasks.config import ConfigError, TaskConfig
from server.tasks.form_fields import FieldSpec


def _removed(old: list[str], new: list[str]) -> list[str]:
    kept = set(new)
    return [name for name in old if name not in kept]


def _names(names: list[str]) -> str:
    return ", ".join(f"'{n}'" for n in names)


def breaking_changes(old: TaskConfig, new: TaskConfig) -> list[ConfigError]:
    """Every change from `old` to `new` that would break an open round, each with the config field it concerns."""
    if old.kind != new.kind:
        return [ConfigError("kind", tr("cannot change from {old} to {new} while a round is open", old=old.kind, new=new.kind))]
    errors: list[ConfigError] = []
    old_context = [f.name for f in old.context_fields]
    new_context = [f.name for f in new.context_fields]
    if gone := _removed(old_context, new_context):
        errors.append(
            ConfigError(
                "context_fields",
                tr(
                    "{names} is used by the open round's contexts: context fields cannot be removed or renamed",
                    names=_names(gone),
                ),
            )
        )
    if added := _removed(new_context, old_context):
        errors.append(
            ConfigError(
                "context_fields", tr("adding {names} would leave the open round's contexts without it", names=_names(added))
            )
        )
    if gone := _removed([f.name for f in old.input_fields], [f.name for f in new.input_fields]):
        errors.append(
            ConfigError(
                "input_fields",
                tr(
                    "{names} is used by collected examples: input fields can be added, not removed or renamed", names=_names(gone)
                ),
            )
        )
    if gone := _removed(old.labels or [], new.labels or []):
        errors.append(
            ConfigError(
                "labels",
                tr("{names} is used by collected examples: labels can be added, not removed or renamed", names=_names(gone)),
            )
        )
    if old.model_inputs != new.model_inputs:
        errors.append(ConfigError("model_inputs", tr("the open round's target models take these inputs: they cannot change")))
    if gone := _removed(old.output_fields, new.output_fields):
        errors.append(
            ConfigError("output_fields", tr("{names} is answered by the open round's target models", names=_names(gone)))
        )
    if old.answer_context_field != new.answer_context_field:
        errors.append(ConfigError("answer_context_field", tr("answers of collected examples are spans of this field")))
    if gone := _removed([f.name for f in old.validator_fields], [f.name for f in new.validator_fields]):
        errors.append(
            ConfigError(
                "validator_fields",
                tr("{names} is answered in collected votes: validator fields cannot be removed", names=_names(gone)),
            )
        )
    for where in ("input_fields", "validator_fields"):
        before = {f.name: f for f in getattr(old, where)}
        for i, spec in enumerate(getattr(new, where)):
            if spec.name in before:
                errors.extend(
                    ConfigError(f"{where}.{i}.{key}", message) for key, message in field_narrowed(before[spec.name], spec)
                )
    return errors


def _whole(x: float) -> bool:
    return abs(x - round(x)) <= 1e-9 * max(1.0, abs(x))


def field_narrowed(old: FieldSpec, new: FieldSpec) -> list[tuple[str, str]]:
    """How a field's new spec would refuse values collected under the old one: (key, message) pairs."""
    if old.type != new.type:
        return [
            (
                "type",
                tr("'{name}' holds {type} values in collected examples: its type cannot change", name=new.name, type=old.type),
            )
        ]
    problems: list[tuple[str, str]] = []
    if gone := _removed(old.choice_values, new.choice_values):
        problems.append(
            ("choices", tr("{names} is used by collected values: choices can be added, not removed", names=_names(gone)))
        )
    if old.type == "number":
        assert old.min is not None and old.max is not None and new.min is not None and new.max is not None
        if new.min > old.min or new.max < old.max:
            problems.append(("min" if new.min > old.min else "max", tr("the range can be widened, not narrowed")))
        offset, ratio = (old.min - new.min) / new.number_step, old.number_step / new.number_step
        if not (_whole(offset) and _whole(ratio)):
            problems.append(("step", tr("collected values must stay on the step grid: keep the step or divide it")))
    if old.type == "rating" and new.rating_scale < old.rating_scale:
        problems.append(("scale", tr("the scale can grow, not shrink")))
    if old.type == "multi_label" and (
        (new.min_selected or 0) > (old.min_selected or 0)
        or (new.max_selected is not None and (old.max_selected is None or new.max_selected < old.max_selected))
    ):
        problems.append(("max_selected", tr("how many may be selected can be widened, not narrowed")))
    if old.span_of != new.span_of:
        problems.append(("span_of", tr("collected spans are offsets into this context field")))
    return problems
