from typing import Literal, Optional, Union

from pydantic import Field

from .base_model import BaseModel


class SendMessage(BaseModel):
    send_message: Union[
        "SendMessageSendMessageMessageSent",
        "SendMessageSendMessageInputError",
        "SendMessageSendMessageNotFoundError",
        "SendMessageSendMessageConflictError",
        "SendMessageSendMessageModelUnavailableError",
        "SendMessageSendMessageRoundClosedError",
        "SendMessageSendMessageRateLimitedError",
        "SendMessageSendMessageAuthenticationError",
        "SendMessageSendMessagePermissionError",
    ] = Field(alias="sendMessage", discriminator="typename__")


class SendMessageSendMessageMessageSent(BaseModel):
    typename__: Literal["MessageSent"] = Field(alias="__typename")
    duplicate: bool
    conversation: "SendMessageSendMessageMessageSentConversation"
    turn: "SendMessageSendMessageMessageSentTurn"


class SendMessageSendMessageMessageSentConversation(BaseModel):
    id: str
    messages_left: int = Field(alias="messagesLeft")


class SendMessageSendMessageMessageSentTurn(BaseModel):
    id: str


class SendMessageSendMessageInputError(BaseModel):
    typename__: Literal["InputError"] = Field(alias="__typename")
    typename__: Literal["InputError"] = Field(alias="__typename")
    code: str
    message: str
    fields: list["SendMessageSendMessageInputErrorFields"]


class SendMessageSendMessageInputErrorFields(BaseModel):
    field: str
    message: str


class SendMessageSendMessageNotFoundError(BaseModel):
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    typename__: Literal["NotFoundError"] = Field(alias="__typename")
    code: str
    message: str


class SendMessageSendMessageConflictError(BaseModel):
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    typename__: Literal["ConflictError"] = Field(alias="__typename")
    code: str
    message: str


class SendMessageSendMessageModelUnavailableError(BaseModel):
    typename__: Literal["ModelUnavailableError"] = Field(alias="__typename")
    typename__: Literal["ModelUnavailableError"] = Field(alias="__typename")
    code: str
    message: str


class SendMessageSendMessageRoundClosedError(BaseModel):
    typename__: Literal["RoundClosedError"] = Field(alias="__typename")
    typename__: Literal["RoundClosedError"] = Field(alias="__typename")
    code: str
    message: str


class SendMessageSendMessageRateLimitedError(BaseModel):
    typename__: Literal["RateLimitedError"] = Field(alias="__typename")
    typename__: Literal["RateLimitedError"] = Field(alias="__typename")
    code: str
    message: str
    retry_after_seconds: Optional[int] = Field(alias="retryAfterSeconds")


class SendMessageSendMessageAuthenticationError(BaseModel):
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    typename__: Literal["AuthenticationError"] = Field(alias="__typename")
    code: str
    message: str


class SendMessageSendMessagePermissionError(BaseModel):
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    typename__: Literal["PermissionError"] = Field(alias="__typename")
    code: str
    message: str


SendMessage.model_rebuild()
SendMessageSendMessageMessageSent.model_rebuild()
SendMessageSendMessageInputError.model_rebuild()
