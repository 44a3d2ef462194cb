"""One way to stream a reply, whatever serves the target: a decoupled model on Triton (built-in or an uploaded
submission in the sandboxed Triton) or a registered OpenAI-compatible endpoint."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from server.core.services import Services
from server.core.target_models import serving_client
from server.generation.endpoints.streaming import stream_endpoint
from server.generation.params import GenerationRequest
from server.generation.prompt import render_plain
from server.generation.stops import StopCutter
from server.generation.streaming import Piece
from server.generation.triton_stream import stream_triton


@dataclass(frozen=True)
class Caller:
    """Who asks, for an endpoint's budgets and usage."""

    user_id: int
    task_id: int


async def stream_reply(services: Services, target: dict, request: GenerationRequest, caller: Caller) -> AsyncIterator[Piece]:
    """The reply's pieces, ended at the first stop string, which is never shown (stops.py); the target's request is
    closed there."""
    cutter, version = StopCutter(request.params.stop, request.params.min_tokens), ""
    async with contextlib.aclosing(_backend_stream(services, target, request, caller)) as pieces:
        async for piece in pieces:
            version = piece.model_version or version
            text = cutter.feed(piece.text)
            if text:
                yield Piece(text, version)
            if cutter.stopped:
                return
    if rest := cutter.flush():
        yield Piece(rest, version)


def _backend_stream(services: Services, target: dict, request: GenerationRequest, caller: Caller) -> AsyncIterator[Piece]:
    settings = services.settings
    if target.get("endpoint"):
        return stream_endpoint(
            services,
            str(target["endpoint"]),
            request,
            user_id=caller.user_id,
            task_id=caller.task_id,
            first_token_timeout_s=settings.generation_first_token_timeout_s,
            idle_timeout_s=settings.generation_idle_timeout_s,
        )
    return stream_triton(
        serving_client(services, target["name"]),
        target["name"],
        str(target.get("version") or ""),
        render_plain(request.messages),
        request.params,
        first_token_timeout_s=settings.generation_first_token_timeout_s,
        idle_timeout_s=settings.generation_idle_timeout_s,
    )
