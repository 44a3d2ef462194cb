"""Generating one reply in the background of the API process that took the message: pieces are relayed to
subscribers as they come (relay.py), the row is written once at the end — done, stopped or failed with the text
so far — and, on judge_model tasks, the judge's score is stored with it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from server.annotation.conversations import queries, relay
from server.annotation.conversations.judge import judge_score
from server.annotation.records import ReplyStatus
from server.core.i18n import tr
from server.core.inference import ModelUnavailable
from server.core.services import Services
from server.generation.backends import Caller, stream_reply
from server.generation.params import GenerationRequest
from server.generation.streaming import GenerationFailed
from server.tasks.config import TaskConfig
from server.tasks.generative_config import MAX_REPLY_CHARS

log = logging.getLogger("dynabench.generation")
_RUNNING: set[asyncio.Task] = set()


def start_reply(
    services: Services, turn: dict, target: dict, config: TaskConfig, request: GenerationRequest, caller: Caller
) -> None:
    task = asyncio.ensure_future(_run(services, turn, target, config, request, caller))
    _RUNNING.add(task)
    task.add_done_callback(_RUNNING.discard)


async def reply_now(
    services: Services, turn: dict, target: dict, config: TaskConfig, request: GenerationRequest, caller: Caller
) -> None:
    """Generate the reply in the caller's own task (an unattended adversary run waits for it, docs/design.md §4.1f)."""
    await _run(services, turn, target, config, request, caller)


class _Reply:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.version = ""
        self.truncated = False

    @property
    def text(self) -> str:
        return "".join(self.parts)


async def _run(
    services: Services, turn: dict, target: dict, config: TaskConfig, request: GenerationRequest, caller: Caller
) -> None:
    stream = relay.stream_id(turn)
    publisher = relay.ReplyPublisher(services.redis, stream)
    reply, status, error = _Reply(), ReplyStatus.DONE, ""
    try:
        async with services.hub.listen(relay.channel(stream)) as control:
            stopper = asyncio.ensure_future(relay.first_stop(control))
            streaming = asyncio.ensure_future(_stream(services, target, request, caller, publisher, reply))
            try:
                done, _ = await asyncio.wait(
                    {stopper, streaming}, timeout=services.settings.generation_max_s, return_when=asyncio.FIRST_COMPLETED
                )
                if streaming in done:
                    streaming.result()
                elif stopper in done:
                    status = ReplyStatus.STOPPED
                else:
                    status, error = ReplyStatus.FAILED, tr("The reply took too long and was cut off.")
            finally:
                for task in (stopper, streaming):
                    task.cancel()
                await asyncio.gather(stopper, streaming, return_exceptions=True)
    except GenerationFailed as exc:
        status, error = ReplyStatus.FAILED, str(exc)
    except asyncio.CancelledError:  # the process is shutting down: the reply is failed, not lost
        status, error = ReplyStatus.FAILED, tr("The server restarted while the model was answering.")
    except Exception:
        log.exception("reply %s failed", turn["id"])
        status, error = ReplyStatus.FAILED, tr("The model's reply failed.")
    await _finish(services, turn, config, reply, status, error, publisher)


async def _stream(
    services: Services, target: dict, request: GenerationRequest, caller: Caller, publisher: relay.ReplyPublisher, reply: _Reply
) -> None:
    """Relay pieces as they come; while one is being sent, later pieces gather and go in the next send."""
    pending: list[str] = []
    sending: asyncio.Task | None = None

    async def send() -> None:
        while pending:
            text = "".join(pending)
            pending.clear()
            try:
                await publisher.piece(text)
            except Exception:
                log.warning("could not relay a piece of reply %s", publisher.stream, exc_info=True)

    async with contextlib.aclosing(stream_reply(services, target, request, caller)) as pieces:
        async for piece in pieces:
            text = piece.text
            if reply.size + len(text) > MAX_REPLY_CHARS:  # outputs are bounded whatever the target does
                text, reply.truncated = text[: MAX_REPLY_CHARS - reply.size], True
            reply.parts.append(text)
            reply.size += len(text)
            reply.version = piece.model_version or reply.version
            pending.append(text)
            if sending is None or sending.done():
                sending = asyncio.ensure_future(send())
            if reply.truncated:
                break
    if sending is not None:
        await sending
    await send()


async def _finish(
    services: Services,
    turn: dict,
    config: TaskConfig,
    reply: _Reply,
    status: ReplyStatus,
    error: str,
    publisher: relay.ReplyPublisher,
) -> None:
    score, judge_model = None, ""
    judge = config.generative.judge if config.generative is not None else None
    if judge is not None and config.fooling.metric == "judge_model" and status == ReplyStatus.DONE:
        with contextlib.suppress(ModelUnavailable):  # scored at submission (or later) instead
            score, judge_model = await judge_score(services, judge, reply.text), judge.model
    row: dict[str, Any] | None = None
    for attempt in range(5):  # the database may blip; the reply is not dropped for it
        try:
            row = await queries.FINISH_TURN.row(
                id=turn["id"],
                reply=reply.text,
                status=status,
                error=str(error)[:1000],
                model_version=reply.version[:200],
                judge_score=score,
                judge_model=judge_model,
            )
            break
        except Exception:
            log.warning("could not store reply %s (attempt %d)", turn["id"], attempt + 1, exc_info=True)
            await asyncio.sleep(0.5 * (attempt + 1))
    outcome = {
        "status": str(row["status"] if row else status),
        "error": str(error),
        "judge_score": score,
        "model_version": reply.version,
        "truncated": reply.truncated,
    }
    with contextlib.suppress(Exception):
        await publisher.end(outcome)


async def sweep_stale(services: Services, limit: int = 100) -> int:
    """Replies whose process ended mid-stream: failed, with the text its replay kept (loses nothing)."""
    older = services.settings.generation_max_s + 60
    swept = 0
    for row in await queries.STALE_TURNS.rows(older_than_s=older, limit=limit):
        text = await relay.replay_text(services.redis, relay.stream_id(row))
        finished = await queries.FINISH_TURN.row(
            id=row["id"],
            reply=text,
            status=ReplyStatus.FAILED,
            error=tr("The server restarted while the model was answering."),
            model_version="",
            judge_score=None,
            judge_model="",
        )
        if finished is not None:
            swept += 1
            outcome = {
                "status": "failed",
                "error": finished["error"],
                "judge_score": None,
                "model_version": "",
                "truncated": False,
            }
            with contextlib.suppress(Exception):
                await relay.end_lost_reply(services.redis, relay.stream_id(row), outcome)
    return swept


async def cancel_running() -> None:
    """At shutdown: each running reply stores what it has as failed (its author may retry it)."""
    tasks = list(_RUNNING)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
