"""Asking a task's generator for candidate examples (docs/design.md §4.1e): task, context (and the author's draft) →
candidates. A service function on its own, because an unattended adversary run (issue #31 point 5) calls it from a job
as the "inspire me" request does from the API.

The generator is a generative model the target Triton serves, or a registered LLM endpoint (its budgets and usage
count it like a chat's reply: server/generation/endpoints/), streamed through the same path as a chat's reply
(server/generation/backends.py) and read whole; the parsing is prompt.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from dataclasses import dataclass

from server.annotation.suggestions import prompt
from server.core.errors import ServiceError, invalid
from server.core.i18n import tr
from server.core.services import Services
from server.generation.backends import Caller, stream_reply
from server.generation.params import GenerationParams, GenerationRequest
from server.generation.prompt import DEFAULT_STOP
from server.generation.streaming import GenerationFailed
from server.tasks.config import TaskConfig

GENERATIVE_FIELD = "message"  # what a candidate fills on a generative task: the conversation's opening message
MAX_GENERATED_CHARS = 8000  # what is read of one answer, whatever the generator does
MAX_WAIT_S = 120.0  # an author waits for the answer: a chat reply's own limit may be much longer


@dataclass(frozen=True)
class TaskBrief:
    """What the generator is told about the task besides its config."""

    task_id: int
    description: str = ""
    instructions: str = ""


@dataclass(frozen=True)
class Generated:
    candidates: list[prompt.Candidate]
    field_name: str
    source: str  # the generator's name ("endpoint:<name>" for an endpoint)
    version: str


def field_for(config: TaskConfig) -> tuple[str, int]:
    """The input field a candidate fills and its length limit: the first written field the model reads, or a
    generative task's opening message."""
    if config.kind == "generative":
        assert config.generative is not None
        return GENERATIVE_FIELD, config.generative.max_message_length
    specs = {spec.name: spec for spec in config.input_fields}
    name = next(name for name in config.model_inputs if name in specs)  # config validation guarantees one
    return name, specs[name].max_length


def goal_of(config: TaskConfig, brief: TaskBrief) -> str:
    if config.generative is not None:
        return config.generative.goal
    # The prompt is in English whatever the author reads (tr() is for people, not for the generator).
    return brief.description.strip() or brief.instructions.strip() or "Write examples the model gets wrong."


async def generate_candidates(
    services: Services,
    config: TaskConfig,
    brief: TaskBrief,
    context_fields: Mapping[str, str],
    *,
    user_id: int,
    draft: str = "",
    count: int | None = None,
) -> Generated:
    """Up to `count` (default: the config's) candidate examples from the task's generator. INVALID_INPUT when the task
    names no generator; MODEL_UNAVAILABLE when the generator cannot answer (nothing is stored)."""
    generator = config.suggestions.generator
    if generator is None:
        raise invalid(tr("This task has no generator for suggestions (its config names none)."))
    field_name, max_length = field_for(config)
    shown = {name: str(value) for name, value in context_fields.items() if isinstance(value, str)}
    wanted = min(count or generator.count, generator.count)
    labels = tuple(config.labels or ()) if config.kind == "classification" else ()
    chat = prompt.messages(prompt.Brief(config.kind, goal_of(config, brief), field_name, labels, shown, draft, wanted))
    params = GenerationParams(max_tokens=generator.max_tokens, temperature=generator.temperature, stop=(DEFAULT_STOP,))
    target = (
        {"name": generator.model, "version": ""}
        if generator.model is not None
        else {"name": generator.source, "endpoint": generator.endpoint, "version": ""}
    )
    text, version = await _read_whole(services, target, GenerationRequest(chat, params), Caller(user_id, brief.task_id))
    return Generated(prompt.parse(text, wanted, max_length, labels), field_name, generator.source, version)


async def _read_whole(services: Services, target: dict, request: GenerationRequest, caller: Caller) -> tuple[str, str]:
    """The whole answer and the version that wrote it, within the chat's time limit for one reply."""
    parts: list[str] = []
    version, size = "", 0
    try:
        async with asyncio.timeout(min(services.settings.generation_max_s, MAX_WAIT_S)):
            async with contextlib.aclosing(stream_reply(services, target, request, caller)) as pieces:
                async for piece in pieces:
                    parts.append(piece.text)
                    version = piece.model_version or version
                    size += len(piece.text)
                    if size >= MAX_GENERATED_CHARS:
                        break
    except GenerationFailed as failed:  # its message is the author's to read (server/generation/streaming.py)
        raise ServiceError("MODEL_UNAVAILABLE", tr("The generator could not answer: {reason}", reason=str(failed))) from None
    except TimeoutError:
        raise ServiceError("MODEL_UNAVAILABLE", tr("The generator could not answer just now. Try again shortly.")) from None
    return "".join(parts)[:MAX_GENERATED_CHARS], version
