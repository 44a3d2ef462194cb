"""What every generative backend yields while it streams, and how it fails. Pure types."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Piece:
    """Text generated since the previous piece; `model_version` when the backend names it (Triton does on
    every response, an endpoint names its model once)."""

    text: str
    model_version: str = ""


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int


class GenerationFailed(Exception):
    """The target stopped answering (down, timed out, refused, broke the contract). The message is readable by
    the author and names no internal address; what was streamed before stays with the turn."""


class GenerationTimedOut(GenerationFailed):
    pass
