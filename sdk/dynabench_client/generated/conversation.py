from pydantic import Field

from .base_model import BaseModel
from .enums import ReplyStatus


class Conversation(BaseModel):
    conversation: "ConversationConversation"


class ConversationConversation(BaseModel):
    id: str
    target_model: str = Field(alias="targetModel")
    messages_left: int = Field(alias="messagesLeft")
    turns: list["ConversationConversationTurns"]


class ConversationConversationTurns(BaseModel):
    id: str
    position: int
    message: str
    reply: str
    status: ReplyStatus
    error: str
    model_name: str = Field(alias="modelName")


Conversation.model_rebuild()
ConversationConversation.model_rebuild()
