from typing import Optional

from pydantic import Field

from .base_model import BaseModel


class Me(BaseModel):
    me: Optional["MeMe"]


class MeMe(BaseModel):
    id: str
    username: str
    is_admin: bool = Field(alias="isAdmin")


Me.model_rebuild()
