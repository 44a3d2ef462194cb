"""What a generative target is asked and what an example of a conversation stores. Pure, no I/O."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from server.generation.params import ChatMessage, GenerationParams
from server.generation.prompt import DEFAULT_STOP
from server.tasks.config import TaskConfig


def params_of(config: TaskConfig) -> GenerationParams:
    generative = config.generative
    assert generative is not None
    stops = tuple(generative.stop) or (DEFAULT_STOP,)
    return GenerationParams(
        max_tokens=generative.max_tokens,
        temperature=generative.temperature,
        seed=None,
        stop=stops,
        min_tokens=generative.min_tokens,
    )


def system_text(config: TaskConfig, context_fields: Mapping[str, Any]) -> str:
    """The system prompt, then each context field the target is shown (model_inputs) with its display name."""
    assert config.generative is not None
    names = {f.name: f.display_name or f.name for f in config.context_fields}
    parts = [config.generative.system_prompt] if config.generative.system_prompt else []
    parts += [f"{names[name]}: {context_fields.get(name, '')}" for name in config.model_inputs]
    return "\n\n".join(parts)


def messages(config: TaskConfig, context_fields: Mapping[str, Any], turns: Sequence[Mapping[str, Any]]) -> list[ChatMessage]:
    """The conversation as chat messages: the system text (if any), then each message and the reply it got
    (whatever was generated of a stopped or failed reply). The last turn's reply is left out while it is asked for."""
    system = system_text(config, context_fields)
    out = [ChatMessage("system", system)] if system else []
    for turn in turns:
        out.append(ChatMessage("user", str(turn["message"])))
        if turn["status"] != "generating":
            out.append(ChatMessage("assistant", str(turn["reply"])))
    return out


def stored_transcript(
    config: TaskConfig, context_fields: Mapping[str, Any], turns: Sequence[Mapping[str, Any]]
) -> list[dict[str, str]]:
    return [m.as_dict() for m in messages(config, context_fields, turns)]


def fooled_by_judge(config: TaskConfig, scores: Sequence[float]) -> bool:
    """judge_model: the model failed when any reply's score reaches the threshold."""
    assert config.generative is not None and config.generative.judge is not None
    return any(score >= config.generative.judge.threshold for score in scores)
