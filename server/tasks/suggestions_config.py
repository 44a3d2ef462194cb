"""The `suggestions` part of a task config: what may inspire an author (docs/design.md §4.1e, docs/task-config.md).
Pure domain code, no I/O; whether the named generator is served is checked live (server/tasks/suggestion_generator.py).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from server.core.i18n import tr
from server.tasks.generative_config import TRITON_NAME

ENDPOINT_NAME_MAX = 64


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class GeneratorConfig(_Strict):
    """Who writes candidate examples: a generative model the target Triton serves, or a registered LLM endpoint."""

    model: str | None = Field(default=None, max_length=200)
    endpoint: str | None = Field(default=None, max_length=ENDPOINT_NAME_MAX)
    # How many candidates one request asks for (the author sees at most this many).
    count: int = Field(default=3, ge=1, le=5)
    max_tokens: int = Field(default=96, ge=8, le=512)
    temperature: float = Field(default=0.9, ge=0.0, le=2.0)

    @field_validator("model")
    @classmethod
    def _triton_name(cls, name: str | None) -> str | None:
        if name is not None and not TRITON_NAME.match(name):
            raise ValueError(tr("is not a valid Triton model name"))
        return name

    @model_validator(mode="after")
    def _one_source(self) -> GeneratorConfig:
        if (self.model is None) == (self.endpoint is None):
            raise ValueError(tr("name either a served generative model (model) or an LLM endpoint (endpoint)"))
        return self

    @property
    def source(self) -> str:
        """The name it is recorded under: the Triton model's, or "endpoint:<name>" (as round targets are)."""
        return self.model if self.model is not None else f"endpoint:{self.endpoint}"


class SuggestionsConfig(_Strict):
    # A generator asked with the task's goal, the context and (classification) the label set; none: no generator.
    generator: GeneratorConfig | None = None
    # Classification: a search that perturbs the author's draft until the target's label flips.
    perturbation: bool = False
    # Perturbation search: the most target calls (rows) one request may make, in batches.
    query_budget: int = Field(default=64, ge=8, le=256)

    @property
    def enabled(self) -> bool:
        return self.generator is not None or self.perturbation
