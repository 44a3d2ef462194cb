"""Enqueueing arq jobs by reference: a service passes the worker function itself, never its name.

    from workers import validation as validation_jobs
    await jobs.enqueue(services.arq, validation_jobs.aggregate_example, example_id)

The arguments are checked against the job function's own signature (after arq's `ctx`), so a type
checker catches a wrong argument at the call site. workers/main.py registers the same functions,
and a unit test checks that every function a service can enqueue is registered.
(Services import worker modules, workers import the domain modules that do the work: they are never
the same module, so there is no import cycle.)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec

from arq.connections import ArqRedis

P = ParamSpec("P")
JobFunction = Callable[Concatenate[dict[str, Any], P], Awaitable[Any]]


def job_name(function: Callable[..., Any]) -> str:
    """The name arq knows the job by (workers/main.py registers each function under its own name)."""
    return function.__name__


async def enqueue(queue: ArqRedis, function: JobFunction[P], *args: P.args, **kwargs: P.kwargs) -> None:
    await queue.enqueue_job(job_name(function), *args, **kwargs)


async def enqueue_later(queue: ArqRedis, delay_s: float, function: JobFunction[P], *args: P.args, **kwargs: P.kwargs) -> None:
    await queue.enqueue_job(job_name(function), *args, _defer_by=delay_s, **kwargs)
