"""Generation parameters and chat messages: what a generative target is asked. Pure, no I/O."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Literal

Role = Literal["system", "user", "assistant"]
HARD_MAX_TOKENS = 1024  # the contract's cap (triton_models/README.md): no target is asked for more


@dataclass(frozen=True)
class ChatMessage:
    role: Role
    content: str

    def as_dict(self) -> dict[str, str]:
        return {"role": self.role, "content": self.content}


@dataclass(frozen=True)
class GenerationParams:
    max_tokens: int = 128
    temperature: float = 0.7
    seed: int | None = None
    stop: tuple[str, ...] = field(default_factory=tuple)
    # vLLM's min_tokens: no end of text (nor stop string, in the built-in demo) before this many tokens.
    min_tokens: int = 0

    def sampling_parameters(self) -> str:
        """The JSON the Triton contract's `sampling_parameters` input carries (the vLLM backend's names)."""
        document: dict[str, object] = {
            "max_tokens": min(self.max_tokens, HARD_MAX_TOKENS),
            "temperature": self.temperature,
            "stop": list(self.stop),
        }
        if self.seed is not None:
            document["seed"] = self.seed
        if self.min_tokens:
            document["min_tokens"] = min(self.min_tokens, self.max_tokens)
        return json.dumps(document)

    def stored(self) -> dict[str, object]:
        """What is kept with the turn and the example, so the answer can be asked for again."""
        stored: dict[str, object] = {"max_tokens": self.max_tokens, "temperature": self.temperature, "seed": self.seed}
        stored["stop"] = list(self.stop)
        if self.min_tokens:
            stored["min_tokens"] = self.min_tokens
        return stored


@dataclass(frozen=True)
class GenerationRequest:
    messages: tuple[ChatMessage, ...]  # system (optional) first, then user/assistant turns, ending with a user turn
    params: GenerationParams
