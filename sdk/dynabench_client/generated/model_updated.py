from pydantic import Field

from .base_model import BaseModel
from .fragments import ModelInfo


class ModelUpdated(BaseModel):
    model_updated: "ModelUpdatedModelUpdated" = Field(alias="modelUpdated")


ModelUpdatedModelUpdated = ModelInfo
ModelUpdated.model_rebuild()
