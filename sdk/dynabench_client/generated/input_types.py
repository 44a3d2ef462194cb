from typing import Any, Optional
from uuid import UUID

from pydantic import Field

from .base_model import BaseModel
from .enums import Metric


class AddContextsInput(BaseModel):
    round_id: str = Field(alias="roundId")
    contexts: list["ContextInput"]


class ContextInput(BaseModel):
    fields: Any
    tag: Optional[str] = None


class CreateExampleInput(BaseModel):
    round_id: str = Field(alias="roundId")
    context_id: str = Field(alias="contextId")
    fields: Any
    'The task\'s input fields, e.g. {"statement": "..."}.'
    client_id: Optional[UUID] = Field(alias="clientId", default=None)
    "Client-generated; required unless sandbox."
    label: Optional[str] = None
    answer: Optional[str] = None
    answer_start: Optional[int] = Field(alias="answerStart", default=None)
    explanation: str = ""
    time_spent_ms: Optional[float] = Field(alias="timeSpentMs", default=None)
    sandbox: bool = False
    suggestion_id: Optional[str] = Field(alias="suggestionId", default=None)
    "Written from this suggestion (suggestExamples): the example records it (`assistance`)."


class DatasetWeightInput(BaseModel):
    dataset_id: str = Field(alias="datasetId")
    weight: float


class MetricWeightInput(BaseModel):
    metric: Metric
    weight: float


class ModelCardInput(BaseModel):
    description: Optional[str] = None
    parameters: Optional[str] = None
    languages: Optional[str] = None
    license: Optional[str] = None
    source_url: Optional[str] = Field(alias="sourceUrl", default=None)
    paper: Optional[str] = None


class SendMessageInput(BaseModel):
    round_id: str = Field(alias="roundId")
    context_id: str = Field(alias="contextId")
    conversation_id: Optional[str] = Field(alias="conversationId", default=None)
    "Null: the message starts a conversation."
    client_id: UUID = Field(alias="clientId")
    "Client-generated: the same UUID again returns the same turn."
    message: str


class SetRoundTargetsInput(BaseModel):
    round_id: str = Field(alias="roundId")
    target_models: list["TargetModelInput"] = Field(alias="targetModels")


class TargetModelInput(BaseModel):
    """A built-in (or operator's) model of the target Triton by name, a submission by modelId, or (generative tasks) an LLM endpoint by its name."""

    name: str = ""
    "A model of the target Triton."
    version: str = ""
    "The exact version; empty: the newest the target Triton serves now (pinned when the round opens)."
    model_id: Optional[str] = Field(alias="modelId", default=None)
    "An evaluated, published submission of the task (served by the sandboxed submissions Triton)."
    endpoint: str = ""
    "A registered LLM endpoint (generative tasks); the round lists it as `endpoint:<name>`."


AddContextsInput.model_rebuild()
SetRoundTargetsInput.model_rebuild()
