"""Annotation form fields: the spec of one field of a task's form (`input_fields`, `validator_fields`, and the
text-only `context_fields`). Pure domain code, no I/O; values are checked in server/tasks/form_values.py.

A field has a `type` (a component of the PWA's registry), whether it must be answered (`required`), when it is
asked (`show_when`: always; after the model's verdict; by the validator's vote) and the options its type takes.
Keys a config does not give are left out when it is stored (so configs written before these components read and
store exactly as before). See docs/task-config.md.
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_serializer,
    model_validator,
)

from server.core.i18n import tr, trn

IDENTIFIER = re.compile(r"^[a-z][a-z0-9_]{0,47}$")
IDENTIFIER_RULE = tr("must be a lowercase identifier (a-z, 0-9, _), at most 48 characters")

FieldType = Literal["text", "multiline_text", "single_label", "multi_label", "number", "dropdown", "rating", "boolean", "span"]
ShowWhen = Literal["always", "fooled", "not_fooled", "correct", "incorrect", "flagged"]
TEXT_TYPES = ("text", "multiline_text")
CHOICE_TYPES = ("single_label", "multi_label", "dropdown")
MAX_CHOICES = 200
MAX_FIELDS = 50
# The keys added with the form components: stored only when the config gives them.
_OPTIONAL_KEYS = frozenset(
    {"type", "required", "show_when", "help", "choices", "min_selected", "max_selected", "min", "max", "step", "widget"}
    | {"scale", "span_of"}
)
# Which keys belong to which types (the rest of the optional keys apply to every type).
_TYPED_KEYS: dict[str, tuple[str, ...]] = {
    "choices": CHOICE_TYPES,
    "min_selected": ("multi_label",),
    "max_selected": ("multi_label",),
    "min": ("number",),
    "max": ("number",),
    "step": ("number",),
    "widget": ("number",),
    "scale": ("rating",),
    "span_of": ("span",),
}

Number = int | float


def humanize(name: str) -> str:
    """A display text for an identifier: "not_sure" → "Not sure" (the PWA does the same)."""
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class FieldErrors(ValueError):
    """Errors of a config part, each with its path inside that part (config.py prefixes where the part is)."""

    def __init__(self, errors: list[tuple[str, str]]):
        super().__init__("; ".join(f"{path}: {message}" for path, message in errors))
        self.errors = errors


class Choice(_Strict):
    value: str
    label: str = Field(default="", max_length=200)

    @field_validator("value")
    @classmethod
    def _identifier(cls, value: str) -> str:
        if not IDENTIFIER.match(value):
            raise ValueError(IDENTIFIER_RULE)
        return value

    @model_validator(mode="after")
    def _labelled(self) -> Choice:
        if not self.label:
            self.label = humanize(self.value)
        return self


class FieldSpec(_Strict):
    name: str
    display_name: str = ""
    placeholder: str = ""
    max_length: int = Field(default=2000, ge=1, le=100_000)
    type: FieldType = "text"
    # None: the default — required when always shown, optional when asked on a condition (`is_required`).
    required: bool | None = None
    show_when: ShowWhen = "always"
    help: str = Field(default="", max_length=500)
    choices: list[Choice] | None = None
    min_selected: int | None = Field(default=None, ge=0)
    max_selected: int | None = Field(default=None, ge=1)
    min: Number | None = None
    max: Number | None = None
    step: Number | None = None
    widget: Literal["input", "slider"] | None = None
    scale: int | None = Field(default=None, ge=2, le=10)
    span_of: str | None = None

    @field_validator("name")
    @classmethod
    def _identifier(cls, value: str) -> str:
        if not IDENTIFIER.match(value):
            raise ValueError(IDENTIFIER_RULE)
        return value

    @field_validator("min", "max", "step", mode="before")
    @classmethod
    def _number(cls, value: Any) -> Any:
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise ValueError(tr("must be a number"))
        return value

    @field_validator("choices", mode="before")
    @classmethod
    def _plain_choices(cls, value: Any) -> Any:
        """Plain identifier strings stand for {"value": identifier} (labelled by humanizing it)."""
        if isinstance(value, list):
            return [{"value": item} if isinstance(item, str) else item for item in value]
        return value

    @model_validator(mode="after")
    def _consistent(self) -> FieldSpec:
        errors: list[tuple[str, str]] = []
        for key, types in _TYPED_KEYS.items():
            if getattr(self, key) is not None and self.type not in types:
                errors.append((key, _only(types, key)))
        if self.type in CHOICE_TYPES:
            errors.extend(self._choice_errors())
        elif self.type == "number":
            errors.extend(self._number_errors())
        elif self.type == "span" and not self.span_of:
            errors.append(("span_of", tr("a span field names the context field its spans are taken from")))
        if errors:
            raise FieldErrors(errors)
        return self

    def _choice_errors(self) -> list[tuple[str, str]]:
        choices = self.choices or []
        least = 1 if self.type == "multi_label" else 2
        if len(choices) < least:
            return [
                (
                    "choices",
                    trn(
                        "a {type} field needs at least {count} choice",
                        "a {type} field needs at least {count} choices",
                        count=least,
                        type=self.type,
                    ),
                )
            ]
        if len(choices) > MAX_CHOICES:
            return [("choices", tr("at most {limit} choices", limit=MAX_CHOICES))]
        values = [c.value for c in choices]
        if twice := sorted({v for v in values if values.count(v) > 1}):
            return [("choices", tr("choice values must be unique: {values}", values=", ".join(twice)))]
        errors: list[tuple[str, str]] = []
        if self.min_selected is not None and self.min_selected > len(choices):
            errors.append(("min_selected", tr("cannot exceed the number of choices ({count})", count=len(choices))))
        if self.max_selected is not None:
            if self.max_selected > len(choices):
                errors.append(("max_selected", tr("cannot exceed the number of choices ({count})", count=len(choices))))
            elif self.max_selected < (self.min_selected or 0):
                errors.append(("max_selected", tr("cannot be less than min_selected")))
        return errors

    def _number_errors(self) -> list[tuple[str, str]]:
        errors: list[tuple[str, str]] = [
            (key, tr("a number field needs a range: give `min` and `max`"))
            for key in ("min", "max")
            if getattr(self, key) is None
        ]
        errors += [
            (key, tr("must be a finite number"))
            for key in ("min", "max", "step")
            if getattr(self, key) is not None and not math.isfinite(getattr(self, key))
        ]
        if errors:
            return errors
        assert self.min is not None and self.max is not None
        if self.min >= self.max:
            return [("max", tr("must be greater than min"))]
        if self.step is not None and not 0 < self.step <= self.max - self.min:
            return [("step", tr("must be positive and at most max - min"))]
        if (self.max - self.min) / self.number_step > 100_000:
            return [("step", tr("the range holds more than 100000 steps"))]
        return []

    # --- defaults, as the form uses them ---------------------------------------------------------------
    @property
    def is_required(self) -> bool:
        return self.required if self.required is not None else self.show_when == "always"

    @property
    def number_step(self) -> float:
        return self.step if self.step is not None else 1

    @property
    def rating_scale(self) -> int:
        return self.scale if self.scale is not None else 5

    @property
    def choice_values(self) -> list[str]:
        return [c.value for c in self.choices or []]

    @model_serializer(mode="wrap")
    def _stored(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        return {key: value for key, value in data.items() if key not in _OPTIONAL_KEYS or key in self.model_fields_set}


def _only(types: tuple[str, ...], key: str) -> str:
    """Which field types take `key`: "only span fields take `span_of`", "only a, b and c fields take `choices`"."""
    if len(types) == 1:
        return tr("only {type} fields take `{key}`", type=types[0], key=key)
    return tr("only {types} and {last} fields take `{key}`", types=", ".join(types[:-1]), last=types[-1], key=key)
