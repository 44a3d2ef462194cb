from datetime import datetime
from typing import Any, Optional
from uuid import UUID

from pydantic import Field

from .base_model import BaseModel
from .enums import Verdict


class ScoreInfo(BaseModel):
    dataset: "ScoreInfoDataset"
    perf: float
    perf_by_tag: Any = Field(alias="perfByTag")
    throughput: Optional[float]
    memory_gb: Optional[float] = Field(alias="memoryGb")
    robustness: Optional[float]
    fairness: Optional[float]


class ScoreInfoDataset(BaseModel):
    id: str
    name: str
    weight: float


class ModelInfo(BaseModel):
    id: str
    name: str
    status: str
    published: bool
    created_at: datetime = Field(alias="createdAt")
    task: Optional["ModelInfoTask"]
    status_log: Optional[list["ModelInfoStatusLog"]] = Field(alias="statusLog")
    scores: list["ModelInfoScores"]


class ModelInfoTask(BaseModel):
    code: str


class ModelInfoStatusLog(BaseModel):
    at: datetime
    status: str
    message: str


class ModelInfoScores(ScoreInfo):
    pass


class RoundInfo(BaseModel):
    id: str
    number: int
    start_at: datetime = Field(alias="startAt")
    end_at: Optional[datetime] = Field(alias="endAt")
    total_collected: int = Field(alias="totalCollected")
    total_fooled: int = Field(alias="totalFooled")
    total_validated: int = Field(alias="totalValidated")
    total_validated_fooled: int = Field(alias="totalValidatedFooled")
    mer: Optional[float]
    vmer: Optional[float]
    target_models: list["RoundInfoTargetModels"] = Field(alias="targetModels")


class RoundInfoTargetModels(BaseModel):
    name: str
    version: str
    model_id: Optional[str] = Field(alias="modelId")


class SubmittedExample(BaseModel):
    verdict: Verdict
    message: str
    duplicate: bool
    example: Optional["SubmittedExampleExample"]
    predictions: list["SubmittedExamplePredictions"]


class SubmittedExampleExample(BaseModel):
    id: str
    client_id: UUID = Field(alias="clientId")
    fooled: Optional[bool]
    status: str
    model_name: str = Field(alias="modelName")
    model_version: str = Field(alias="modelVersion")


class SubmittedExamplePredictions(BaseModel):
    model_name: str = Field(alias="modelName")
    label: Optional[str]
    answer: Optional[str]
    confidence: Optional[float]


class TrainingRunInfo(BaseModel):
    id: str
    status: str
    progress: float
    from_rounds: list[int] = Field(alias="fromRounds")
    base_model: str = Field(alias="baseModel")
    profile: str
    model_name: str = Field(alias="modelName")
    model_version: str = Field(alias="modelVersion")
    n_validated: int = Field(alias="nValidated")
    include_agreed: bool = Field(alias="includeAgreed")
    metrics: Any
    cancel_requested: bool = Field(alias="cancelRequested")
    wall_seconds: float = Field(alias="wallSeconds")
    cpu_seconds: float = Field(alias="cpuSeconds")
    overridden_by: Optional[str] = Field(alias="overriddenBy")
    override_reason: str = Field(alias="overrideReason")
    gate: Optional["TrainingRunInfoGate"]
    created_at: datetime = Field(alias="createdAt")
    status_log: list["TrainingRunInfoStatusLog"] = Field(alias="statusLog")


class TrainingRunInfoGate(BaseModel):
    passed: bool
    current_version: str = Field(alias="currentVersion")
    new_version: str = Field(alias="newVersion")
    summary: str
    held_out: "TrainingRunInfoGateHeldOut" = Field(alias="heldOut")
    scoring: list["TrainingRunInfoGateScoring"]


class TrainingRunInfoGateHeldOut(BaseModel):
    examples: int
    minimum: int
    enough: bool
    current_error: Optional[float] = Field(alias="currentError")
    new_error: Optional[float] = Field(alias="newError")
    difference: Optional[float]
    ci_low: Optional[float] = Field(alias="ciLow")
    ci_high: Optional[float] = Field(alias="ciHigh")
    mcnemar_p: Optional[float] = Field(alias="mcnemarP")
    better: bool


class TrainingRunInfoGateScoring(BaseModel):
    dataset: str
    current_error: float = Field(alias="currentError")
    new_error: float = Field(alias="newError")
    difference: float
    tolerance: float
    passed: bool


class TrainingRunInfoStatusLog(BaseModel):
    at: datetime
    status: str
    message: str


ScoreInfo.model_rebuild()
ModelInfo.model_rebuild()
RoundInfo.model_rebuild()
SubmittedExample.model_rebuild()
TrainingRunInfo.model_rebuild()
