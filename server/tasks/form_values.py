"""Checking submitted form values against a task's field specs (server/tasks/form_fields.py). Pure, no I/O.

Values by type: text/multiline_text → a string (at most max_length characters); single_label/dropdown → a choice
value; multi_label → a list of choice values; number → a number in [min, max] on the step grid; rating → an
integer 1..scale; boolean → true/false; span → {"start": int, "end": int}, code-point offsets into the `span_of`
context text (stored with its "text"). A missing or null value is no answer: refused for a required field, left out
of the stored values otherwise. Every problem names its field (`<prefix>.<name>`).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any, TypeGuard

from server.core.errors import FieldProblem
from server.core.i18n import tr
from server.core.storable import text_problem
from server.tasks.form_fields import TEXT_TYPES, FieldSpec

# Why a field is not asked now, by when it is asked.
ASKED = {
    "always": tr("is asked with the example, not afterwards"),
    "fooled": tr("is asked only after the model was fooled"),
    "not_fooled": tr("is asked only after the model was not fooled"),
    "correct": tr("is asked only with a CORRECT vote"),
    "incorrect": tr("is asked only with an INCORRECT vote"),
    "flagged": tr("is asked only with a FLAGGED vote"),
}


def check_values(
    specs: Sequence[FieldSpec],
    values: Any,
    *,
    asked: Collection[str],
    contexts: Mapping[str, Any],
    prefix: str = "fields",
    unknown: str = tr("is not a field of this task"),
) -> tuple[dict[str, Any], list[FieldProblem]]:
    """The values to store (in the specs' order) and every problem. `asked`: the `show_when` values of the fields
    asked now; a value for another field is refused with when it is asked."""
    if not isinstance(values, Mapping):
        return {}, [FieldProblem(prefix, tr("must be an object"))]
    by_name = {spec.name: spec for spec in specs}
    problems = [FieldProblem(f"{prefix}.{name}", unknown) for name in sorted(set(values) - set(by_name), key=str)]
    stored: dict[str, Any] = {}
    for spec in specs:
        value, path = values.get(spec.name), f"{prefix}.{spec.name}"
        if spec.show_when not in asked:
            if value is not None:
                problems.append(FieldProblem(path, ASKED[spec.show_when]))
            continue
        if _unanswered(spec, value):
            if spec.is_required:
                problems.append(FieldProblem(path, _missing(spec)))
            continue
        checked, problem = check_value(spec, value, contexts)
        if problem is not None:
            problems.append(FieldProblem(path, problem))
        else:
            stored[spec.name] = checked
    return stored, problems


def _unanswered(spec: FieldSpec, value: Any) -> bool:
    return value is None or (spec.type in TEXT_TYPES and isinstance(value, str) and not value.strip())


def _missing(spec: FieldSpec) -> str:
    if spec.type in TEXT_TYPES:
        return tr("must be non-empty text")
    if spec.type == "span":
        return tr("is required: select a span of the text")
    return tr("is required")


def check_value(spec: FieldSpec, value: Any, contexts: Mapping[str, Any]) -> tuple[Any, str | None]:
    """(the value to store, None) or (None, what is wrong) for one answered field."""
    kind = spec.type
    if kind in TEXT_TYPES:
        if not isinstance(value, str):
            return None, tr("must be non-empty text")
        if len(value) > spec.max_length:
            return None, tr("longer than {limit} characters", limit=spec.max_length)
        return value, text_problem(value)
    if kind in ("single_label", "dropdown"):
        return (value, None) if isinstance(value, str) and value in spec.choice_values else (None, _one_of(spec))
    if kind == "multi_label":
        return _selection(spec, value)
    if kind == "number":
        return _number(spec, value)
    if kind == "rating":
        scale = spec.rating_scale
        ok = _is_int(value) and 1 <= value <= scale
        return (value, None) if ok else (None, tr("must be a whole number from 1 to {scale}", scale=scale))
    if kind == "boolean":
        return (value, None) if isinstance(value, bool) else (None, tr("must be true or false"))
    return _span(spec, value, contexts)


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown_choices(spec: FieldSpec) -> str:
    values = spec.choice_values
    return ", ".join(values[:12]) + (", …" if len(values) > 12 else "")


def _one_of(spec: FieldSpec) -> str:
    return tr("must be one of {choices}", choices=_shown_choices(spec))


def _selection(spec: FieldSpec, value: Any) -> tuple[Any, str | None]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None, tr("must be a list of choice values")
    if unknown := [v for v in value if v not in spec.choice_values]:
        return None, tr(
            "'{value}' is not a choice: each must be one of {choices}", value=unknown[0][:60], choices=_shown_choices(spec)
        )
    if len(set(value)) != len(value):
        return None, tr("lists a choice twice")
    least = max(spec.min_selected or 0, 1 if spec.is_required else 0)
    if len(value) < least:
        return None, tr("select at least {count}", count=least)
    if spec.max_selected is not None and len(value) > spec.max_selected:
        return None, tr("select at most {count}", count=spec.max_selected)
    return value, None


def _number(spec: FieldSpec, value: Any) -> tuple[Any, str | None]:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None, tr("must be a number")
    low, high, step = spec.min, spec.max, spec.number_step
    assert low is not None and high is not None  # a number field's range (form_fields.py)
    if not low <= value <= high:
        return None, tr("must be between {low} and {high}", low=_show(low), high=_show(high))
    k = (value - low) / step
    if abs(k - round(k)) > 1e-9 * max(1.0, abs(k)):
        return None, tr("must be {low} plus a multiple of {step}", low=_show(low), step=_show(step))
    return value, None


def _show(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else repr(number)


def _span(spec: FieldSpec, value: Any, contexts: Mapping[str, Any]) -> tuple[Any, str | None]:
    if not isinstance(value, Mapping) or not set(value) <= {"start", "end", "text"}:
        return None, tr('must be {{"start": int, "end": int}}')
    start, end = value.get("start"), value.get("end")
    if not (_is_int(start) and _is_int(end)):
        return None, tr('must be {{"start": int, "end": int}}')
    text = contexts.get(spec.span_of or "")
    if not isinstance(text, str):
        return None, tr("the context has no '{field}' text to select from", field=spec.span_of)
    if not 0 <= start < end <= len(text):
        return None, tr(
            "must be a non-empty span inside the {length} characters of '{field}'", length=len(text), field=spec.span_of
        )
    return {"start": start, "end": end, "text": text[start:end]}, None
