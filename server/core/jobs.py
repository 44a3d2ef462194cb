"""Background jobs: declared by their domain, queued through the declaration, run by the worker.

A domain declares each job it can be asked to do in its `jobs.py`, as a signature without a body:

    # server/annotation/validation/jobs.py
    @job
    async def aggregate_example(example_id: int) -> None:
        "One example's outcome recomputed from all of its votes."

and queues it through the declaration (`await jobs.enqueue(services.arq, validation_jobs.aggregate_example, 7)`;
a type checker checks the arguments against the declared ones). The function the worker runs lives beside it, in
the domain's `job_functions.py`, bound with `@runs(declaration)`: same name, the declared arguments after arq's
`ctx` (checked when the module is imported). workers/main.py registers the bound functions; a unit test checks
that every job any module queues is declared and registered.

Why two modules: a declaration imports nothing of the code that does the work, so any service can queue any job
(the aggregation queues its own re-runs, a webhook delivery its next attempt) without an import circle.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterable
from types import ModuleType
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

from arq.connections import ArqRedis

P = ParamSpec("P")
R = TypeVar("R")
JobFunction = Callable[Concatenate[dict[str, Any], P], Awaitable[Any]]


class Job(Generic[P]):
    """A declared job: its name (what arq knows it by) and its arguments."""

    def __init__(self, stub: Callable[P, Awaitable[Any]]) -> None:
        self.name = stub.__name__
        self.module = stub.__module__
        self.signature = inspect.signature(stub)
        self.__doc__ = stub.__doc__

    def __repr__(self) -> str:
        return f"<job {self.module}.{self.name}{self.signature}>"


def job(stub: Callable[P, Awaitable[Any]]) -> Job[P]:
    """Declare a job from a body-less signature (see the module's docstring)."""
    return Job(stub)


def runs(declared: Job[P]) -> Callable[[Callable[Concatenate[dict[str, Any], P], Awaitable[R]]], JobFunction[P]]:
    """Bind the function the worker runs to its declaration; refuses a wrong name or wrong arguments at import."""

    def bind(function: Callable[Concatenate[dict[str, Any], P], Awaitable[R]]) -> JobFunction[P]:
        parameters = list(inspect.signature(function).parameters.values())
        if function.__name__ != declared.name:
            raise TypeError(f"{function.__module__}.{function.__name__} runs job {declared.name!r}: use the same name")
        if not parameters or parameters[0].name != "ctx":
            raise TypeError(f"{function.__module__}.{function.__name__}: arq's ctx comes first")
        ran = [(p.name, p.kind, p.default) for p in parameters[1:]]
        wanted = [(p.name, p.kind, p.default) for p in declared.signature.parameters.values()]
        if ran != wanted:
            raise TypeError(f"{function.__module__}.{function.__name__} takes {ran}, job {declared.name!r} declares {wanted}")
        function.job = declared  # type: ignore[attr-defined]
        return function

    return bind


def declaration_of(function: Callable[..., Any]) -> Job[Any] | None:
    """The job a worker function runs (None for a cron-only function)."""
    return getattr(function, "job", None)


def bound_functions(modules: Iterable[ModuleType]) -> list[JobFunction[Any]]:
    """The functions these modules define that run a declared job (what the worker registers)."""
    return [
        value
        for module in modules
        for value in vars(module).values()
        if callable(value) and declaration_of(value) is not None and getattr(value, "__module__", None) == module.__name__
    ]


def job_name(declared: Job[Any]) -> str:
    return declared.name


async def enqueue(queue: ArqRedis, declared: Job[P], *args: P.args, **kwargs: P.kwargs) -> None:
    await queue.enqueue_job(declared.name, *args, **kwargs)


async def enqueue_later(queue: ArqRedis, delay_s: float, declared: Job[P], *args: P.args, **kwargs: P.kwargs) -> None:
    await queue.enqueue_job(declared.name, *args, _defer_by=delay_s, **kwargs)


async def enqueue_once(queue: ArqRedis, job_id: str, delay_s: float, declared: Job[P], *args: P.args, **kwargs: P.kwargs) -> None:
    """Queued under `job_id`: queuing it again while it is queued, running, or kept as a result is a no-op."""
    await queue.enqueue_job(declared.name, *args, _job_id=job_id, _defer_by=delay_s, **kwargs)
