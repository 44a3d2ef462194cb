from typing import Any

from pydantic import Field

from .base_model import BaseModel


class NextContext(BaseModel):
    next_context: "NextContextNextContext" = Field(alias="nextContext")


class NextContextNextContext(BaseModel):
    id: str
    fields: Any


NextContext.model_rebuild()
