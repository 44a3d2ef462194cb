"""Task configuration: a typed, validated document. Pure domain code, no I/O.

Every task, built-in or user-created, is described by one of these; code paths never branch on a
task's code, only on its config.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_serializer, model_validator

from server.core.i18n import Text, tr
from server.tasks.form_fields import IDENTIFIER, MAX_FIELDS, TEXT_TYPES, FieldErrors, FieldSpec
from server.tasks.generative_config import GenerativeConfig
from server.tasks.suggestions_config import SuggestionsConfig
from server.tasks.translations import TaskTranslation, translation_errors

METRICS = ("perf", "throughput", "memory", "robustness", "fairness")
# Keys of an example's stored input besides its input fields: an input field may not take these names.
RESERVED_INPUT_NAMES = ("label", "answer", "answer_start")
WHEN_INPUT = ("always", "fooled", "not_fooled")
WHEN_VOTE = ("always", "correct", "incorrect", "flagged")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class FoolingConfig(_Strict):
    # exact_match (classification) and string_f1 (extractive QA) decide at once; ask_user, for outputs no metric
    # can judge (any task kind), leaves it to the annotator's claim, which validators confirm (docs/design.md §4.1).
    # Generative tasks: judge_model (a classifier scores each reply, config `generative.judge`) and validator_rating
    # (validators' ratings decide, config `generative.rating`) besides ask_user.
    metric: Literal["exact_match", "string_f1", "ask_user", "judge_model", "validator_rating"]
    # string_f1: fooled when F1(model answer, annotator answer) < threshold (docs/design.md §4).
    threshold: float = Field(default=0.4, gt=0.0, le=1.0)


class ValidationConfig(_Strict):
    num_matching_validations: int = Field(default=3, ge=1, le=25)
    validate_non_fooling: bool = False
    # The outcome rule (docs/design.md §4.2): N matching votes, or reliability-weighted votes (Dawid–Skene,
    # server/annotation/quality/reliability_model.py) decided once the posterior reaches `reliability_threshold`.
    rule: Literal["matching", "reliability"] = "matching"
    reliability_threshold: float = Field(default=0.9, gt=0.5, le=1.0)
    # Gold items (server/annotation/quality/gold_rules.py): the share of queue items that are gold, and the pause rule.
    gold_rate: float = Field(default=0.0, ge=0.0, le=0.5)
    gold_min_answers: int = Field(default=5, ge=1, le=1000)
    gold_pause_below: float = Field(default=0.7, ge=0.0, le=1.0)


class DuplicatesConfig(_Strict):
    """The near-duplicate guard at submission (server/annotation/quality/duplicate_rules.py): refuse an
    example that repeats one of the worker's earlier examples of the task or a validated example of the round (normalized text, word n-gram
    Jaccard ≥ `jaccard`, or cosine ≥ `cosine` of the vectors the round's target model gives, when it gives them;
    `cosine: null` turns that test off)."""

    enabled: bool = False
    jaccard: float = Field(default=0.7, gt=0.0, le=1.0)
    ngram: int = Field(default=3, ge=1, le=10)
    # 0.98, not the usual 0.95: the targets' encoders are fine-tuned classifiers whose vectors crowd together
    # (measured for the contamination check, server/evaluation/datasets/contamination.py).
    cosine: float | None = Field(default=0.98, gt=0.0, le=1.0)

    @property
    def wants_vectors(self) -> bool:
        return self.enabled and self.cosine is not None


class DynascoreConfig(_Strict):
    weights: dict[str, float] = Field(
        default_factory=lambda: {"perf": 4.0, "throughput": 1.0, "memory": 1.0, "robustness": 1.0, "fairness": 1.0}
    )
    memory_budget_gb: float = Field(default=16.0, gt=0)
    # Who may read the leaderboard: anyone (signed in or not), or the task's owners and admins only.
    leaderboard: Literal["public", "private"] = "public"

    @field_validator("weights")
    @classmethod
    def _known_metrics(cls, weights: dict[str, float]) -> dict[str, float]:
        unknown = sorted(set(weights) - set(METRICS))
        if unknown:
            raise ValueError(
                tr("unknown metric(s) {unknown}; known: {known}", unknown=", ".join(unknown), known=", ".join(METRICS))
            )
        if any(w < 0 for w in weights.values()):
            raise ValueError(tr("weights must be non-negative"))
        if not any(w > 0 for w in weights.values()):
            raise ValueError(tr("at least one weight must be positive"))
        return weights


class PersonalDataConfig(_Strict):
    """What deleteMyAccount does with a person's work in this task (docs/design.md §11, "A person's data"): keep it as
    the task's data under the account's pseudonym, or remove their examples, votes, conversations and battles (every
    counter and outcome they touched recomputed from the rows left). The task's current config decides."""

    on_account_deletion: Literal["keep", "remove"] = "keep"

    @property
    def removes_work(self) -> bool:
        return self.on_account_deletion == "remove"


class TaskConfig(_Strict):
    kind: Literal["classification", "extractive_qa", "generative"]
    context_fields: list[FieldSpec] = Field(min_length=1, max_length=MAX_FIELDS)
    # Generative tasks may have none: the annotator's messages are the input.
    input_fields: list[FieldSpec] = Field(default_factory=list, max_length=MAX_FIELDS)
    # What a validator answers besides the vote, by the vote (`show_when` always | correct | incorrect | flagged).
    validator_fields: list[FieldSpec] = Field(default_factory=list, max_length=MAX_FIELDS)
    # Generative tasks: the context fields the target is shown after the system prompt (may be none).
    model_inputs: list[str] = Field(default_factory=list)
    labels: list[str] | None = None
    # extractive_qa: the context field that holds the passage answers are spans of.
    answer_context_field: str | None = None
    output_fields: list[str] = Field(min_length=1)
    fooling: FoolingConfig
    performance_metric: Literal["accuracy", "macro_f1", "squad_f1", "token_f1"]
    generative: GenerativeConfig | None = None
    validation: ValidationConfig = Field(default_factory=ValidationConfig)
    duplicates: DuplicatesConfig = Field(default_factory=DuplicatesConfig)
    dynascore: DynascoreConfig = Field(default_factory=DynascoreConfig)
    # Several target models per round: send each example to one at random, or to all (majority decides).
    target_selection: Literal["random", "all"] = "random"
    # Per-locale task name, instructions and display names (server/tasks/translations.py).
    translations: dict[str, TaskTranslation] = Field(default_factory=dict)
    # Suggestions for the author ("inspire me", docs/design.md §4.1e): a generator, a perturbation search.
    suggestions: SuggestionsConfig = Field(default_factory=SuggestionsConfig)
    # A deleted account's work: kept under its pseudonym (the default) or removed.
    personal_data: PersonalDataConfig = Field(default_factory=PersonalDataConfig)

    @model_validator(mode="after")
    def _consistent(self) -> TaskConfig:
        names = [f.name for f in self.context_fields] + [f.name for f in self.input_fields]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(
                tr("field names must be unique across context_fields and input_fields: {names}", names=str(duplicates))
            )
        errors: list[tuple[str, str]] = self._form_errors()
        inputs = {f.name: f for f in self.input_fields}
        for i, name in enumerate(self.model_inputs):
            spec = inputs.get(name)
            if name not in names:
                errors.append((f"model_inputs.{i}", tr("'{name}' is not a context or input field", name=name)))
            elif spec is not None and (spec.type not in TEXT_TYPES or spec.show_when != "always" or not spec.is_required):
                errors.append(
                    (
                        f"model_inputs.{i}",
                        tr("'{name}': models take context fields and required, always shown text fields", name=name),
                    )
                )
        if self.kind == "generative":
            errors.extend(self._generative_errors())
        else:
            errors.extend(self._judged_errors())
        if self.suggestions.perturbation and self.kind != "classification":
            errors.append(
                ("suggestions.perturbation", tr("the perturbation search flips a classifier's label: classification only"))
            )
        fields = names + [f.name for f in self.validator_fields]
        errors.extend(translation_errors(self.translations, self.labels or [], fields))
        if errors:
            raise FieldErrors(errors)
        return self

    def _judged_errors(self) -> list[tuple[str, str]]:
        """Classification and extractive QA: a metric judges the model's output against the annotator's."""
        errors: list[tuple[str, str]] = []
        if not self.input_fields:
            errors.append(("input_fields", tr("needs at least one field")))
        if not self.model_inputs:
            errors.append(("model_inputs", tr("needs at least one field")))
        if self.generative is not None:
            errors.append(("generative", tr("only generative tasks have a generative part")))
        if self.kind == "classification":
            if not self.labels or len(self.labels) < 2:
                errors.append(("labels", tr("a classification task needs at least two labels")))
            elif len(set(self.labels)) != len(self.labels):
                errors.append(("labels", tr("labels must be unique")))
            elif any(not IDENTIFIER.match(label) for label in self.labels):
                errors.append(("labels", tr("labels must be lowercase identifiers (a-z, 0-9, _)")))
            if self.fooling.metric not in ("exact_match", "ask_user"):
                errors.append(("fooling.metric", tr("classification tasks use exact_match or ask_user")))
            if self.performance_metric not in ("accuracy", "macro_f1"):
                errors.append(("performance_metric", tr("classification tasks use accuracy or macro_f1")))
            if self.answer_context_field is not None:
                errors.append(("answer_context_field", tr("only extractive_qa tasks have an answer context field")))
        else:
            if self.labels:
                errors.append(("labels", tr("extractive_qa tasks have no label set")))
            context_names = [f.name for f in self.context_fields]
            if self.answer_context_field not in context_names:
                errors.append(
                    ("answer_context_field", tr("must name one of the context fields {names}", names=str(context_names)))
                )
            if self.fooling.metric not in ("string_f1", "ask_user"):
                errors.append(("fooling.metric", tr("extractive_qa tasks use string_f1 or ask_user")))
            if self.performance_metric != "squad_f1":
                errors.append(("performance_metric", tr("extractive_qa tasks use squad_f1")))
        return errors

    def _generative_errors(self) -> list[tuple[str, str]]:
        """A conversation with a generative target; the judgement comes from the author, a judge model or raters."""
        errors: list[tuple[str, str]] = []
        if self.generative is None:
            return [("generative", tr("a generative task needs its generative part (goal, mode, limits)"))]
        context_names = [f.name for f in self.context_fields]
        for i, name in enumerate(self.model_inputs):
            if name not in context_names:
                errors.append((f"model_inputs.{i}", tr("generative targets are shown context fields only")))
        if self.labels:
            errors.append(("labels", tr("generative tasks have no label set")))
        if self.answer_context_field is not None:
            errors.append(("answer_context_field", tr("only extractive_qa tasks have an answer context field")))
        if self.output_fields != ["text_output"]:
            errors.append(("output_fields", tr('generative targets give one output: ["text_output"]')))
        if self.performance_metric != "token_f1":
            errors.append(("performance_metric", tr("generative tasks use token_f1")))
        metric = self.fooling.metric
        if metric not in ("ask_user", "judge_model", "validator_rating"):
            errors.append(("fooling.metric", tr("generative tasks use ask_user, judge_model or validator_rating")))
        if metric == "judge_model" and self.generative.judge is None:
            errors.append(("generative.judge", tr("judge_model needs a judge (model, label, threshold)")))
        if metric == "validator_rating":
            errors += self._rating_errors()
        errors += self._battle_rating_errors()
        if self.target_selection != "random":
            errors.append(("target_selection", tr("a conversation talks to one target: use random")))
        if self.duplicates.enabled:
            errors.append(("duplicates.enabled", tr("the near-duplicate guard compares written examples, not conversations")))
        return errors

    def _rating_errors(self) -> list[tuple[str, str]]:
        """validator_rating: the rule names a rating or number validator field every vote answers, and a threshold
        inside its range."""
        assert self.generative is not None
        rule = self.generative.rating
        if rule is None:
            return [("generative.rating", tr("validator_rating needs a rating rule (field, threshold)"))]
        spec = next((f for f in self.validator_fields if f.name == rule.field), None)
        if spec is None or spec.type not in ("rating", "number"):
            return [("generative.rating.field", tr("must name a rating or number field of validator_fields"))]
        if spec.show_when != "always" or not spec.is_required:
            return [("generative.rating.field", tr("the rating field must be asked on every vote and required"))]
        low, high = (1, spec.rating_scale) if spec.type == "rating" else (spec.min, spec.max)
        assert low is not None and high is not None
        if not low < rule.threshold <= high:
            return [("generative.rating.threshold", tr("must be above {low} and at most {high}", low=low, high=high))]
        return []

    def _battle_rating_errors(self) -> list[tuple[str, str]]:
        """battle.rating_field: each side is rated in a rating or number field of the form (its range applies)."""
        assert self.generative is not None
        battle = self.generative.battle
        if battle is None or battle.rating_field is None:
            return []
        spec = next((f for f in self.validator_fields if f.name == battle.rating_field), None)
        if spec is None or spec.type not in ("rating", "number"):
            return [("generative.battle.rating_field", tr("must name a rating or number field of validator_fields"))]
        return []

    def _form_errors(self) -> list[tuple[str, str]]:
        """The form's fields in their lists: where each may be asked, span sources, reserved names."""
        errors: list[tuple[str, str]] = []
        context_names = [f.name for f in self.context_fields]
        for i, spec in enumerate(self.context_fields):
            if spec.type not in TEXT_TYPES or spec.show_when != "always":
                errors.append((f"context_fields.{i}", tr("context fields are text (type text or multiline_text), always shown")))
        lists = (("input_fields", self.input_fields, WHEN_INPUT), ("validator_fields", self.validator_fields, WHEN_VOTE))
        for where, specs, allowed in lists:
            for i, spec in enumerate(specs):
                if spec.show_when not in allowed:
                    errors.append((f"{where}.{i}.show_when", tr("must be one of {choices}", choices=", ".join(allowed))))
                if spec.span_of is not None and spec.span_of not in context_names:
                    errors.append(
                        (f"{where}.{i}.span_of", tr("must name one of the context fields {names}", names=str(context_names)))
                    )
        for i, spec in enumerate(self.input_fields):
            if spec.name in RESERVED_INPUT_NAMES:
                errors.append(
                    (f"input_fields.{i}.name", tr("'{name}' is kept for the example's label or answer", name=spec.name))
                )
        if self.input_fields and not any(f.show_when == "always" for f in self.input_fields):
            errors.append(("input_fields", tr("at least one input field must be shown always (asked before the verdict)")))
        names = [f.name for f in self.validator_fields]
        if twice := sorted({n for n in names if names.count(n) > 1}):
            errors.append(("validator_fields", tr("field names must be unique: {names}", names=str(twice))))
        return errors

    @model_serializer(mode="wrap")
    def _stored(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        if not self.validator_fields:  # configs without validator fields store as before
            data.pop("validator_fields", None)
        if not self.translations:  # nor those without translations
            data.pop("translations", None)
        if self.generative is None:  # nor classification and QA configs
            data.pop("generative", None)
        if not self.suggestions.enabled:  # nor those without suggestions
            data.pop("suggestions", None)
        if not self.personal_data.removes_work:  # nor those that keep a deleted account's work
            data.pop("personal_data", None)
        return cast(dict[str, Any], data)


@dataclass(frozen=True)
class ConfigError:
    field: str  # dotted path inside the config, e.g. "fooling.threshold" or "labels"
    message: str


def parse_task_config(document: Any) -> tuple[TaskConfig | None, list[ConfigError]]:
    """Validate a config document; return the config or every error with the offending field."""
    if not isinstance(document, dict):
        return None, [ConfigError("config", tr("must be a JSON object"))]
    try:
        return TaskConfig.model_validate(document), []
    except ValidationError as exc:
        return None, _flatten(exc)


def _flatten(exc: ValidationError) -> list[ConfigError]:
    errors: list[ConfigError] = []
    for error in exc.errors(include_url=False):
        cause = (error.get("ctx") or {}).get("error")
        where = ".".join(str(part) for part in error["loc"])
        if isinstance(cause, FieldErrors):  # paths inside the part that raised them
            errors.extend(ConfigError(f"{where}.{path}" if where else path, message) for path, message in cause.errors)
            continue
        path = where or "config"
        message = error["msg"].removeprefix("Value error, ")
        if isinstance(cause, ValueError) and cause.args and isinstance(cause.args[0], Text) and message == cause.args[0]:
            message = cause.args[0]  # our own check's message: it keeps its template (translated at the API's edge)
        errors.append(ConfigError(path, message))
    return errors
