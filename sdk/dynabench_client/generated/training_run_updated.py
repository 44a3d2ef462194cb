from pydantic import Field

from .base_model import BaseModel
from .fragments import TrainingRunInfo


class TrainingRunUpdated(BaseModel):
    training_run_updated: "TrainingRunUpdatedTrainingRunUpdated" = Field(alias="trainingRunUpdated")


TrainingRunUpdatedTrainingRunUpdated = TrainingRunInfo
TrainingRunUpdated.model_rebuild()
