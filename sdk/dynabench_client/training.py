"""Retraining a task's target model from validated examples (task owners): start a run and follow it live; the part
of `AsyncClient` that `dynabench train` uses."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING

from .errors import DynabenchError, NotFoundError, raise_for_result
from .generated.enums import TrainingProfile
from .generated.fragments import TrainingRunInfo
from .live import follow

if TYPE_CHECKING:
    from .connection import Connection
    from .generated import GeneratedClient

# published: offered as the next round's target (it passed the retraining gate, or an owner overrode it); rejected: the
# gate said no (`gate` holds both comparisons); failed; cancelled.
TRAINING_DONE = {"published", "rejected", "failed", "cancelled"}


class TrainingMixin:
    connection: Connection
    gql: GeneratedClient

    async def train_target_model(
        self,
        task: str,
        rounds: Sequence[int] = (),
        *,
        base_model: str = "",
        profile: str = "full",
        scoring_tolerance: float = 0.01,
        min_held_out: int = 30,
        include_agreed: bool = True,
    ) -> TrainingRunInfo:
        """Task owners: retrain the task's target model on its seed data plus the validated examples of `rounds`
        (numbers); `base_model` a Hugging Face model directory on the worker ("" for the default), `profile` "fast" or
        "full". The retraining gate publishes the new version only if its error on the rounds' held-out examples is
        lower (95%) and no scoring dataset's error grows by more than `scoring_tolerance`, with at least
        `min_held_out` held-out examples. `include_agreed` (default) also trains on, and judges with, the examples
        that did not fool the target and that the task does not validate (their writer's label). Returns the queued run; follow it with `wait_for_training` or
        `training_updates`."""
        try:
            chosen = TrainingProfile(profile.upper())
        except ValueError:
            raise ValueError(f"profile must be one of {[p.value.lower() for p in TrainingProfile]}, not {profile!r}") from None
        answer = await self.connection.call(
            self.gql.train_target_model(
                task_code=task,
                from_rounds=list(rounds),
                base_model=base_model,
                profile=chosen,
                scoring_tolerance=scoring_tolerance,
                min_held_out=min_held_out,
                include_agreed=include_agreed,
            )
        )
        return raise_for_result(answer.train_target_model).run  # type: ignore[union-attr]

    async def cancel_training_run(self, run_id: str) -> TrainingRunInfo:
        """Task owners: cancel a queued run at once, or ask a running one to stop at its next step (it ends
        "cancelled"; the current target keeps serving). A run that already ended raises ConflictError."""
        answer = await self.connection.call(self.gql.cancel_training_run(run_id=run_id))
        return raise_for_result(answer.cancel_training_run).run  # type: ignore[union-attr]

    async def override_training_gate(self, run_id: str, reason: str) -> TrainingRunInfo:
        """Task owners: offer a version the retraining gate rejected anyway, with a reason (audited); it is published."""
        answer = await self.connection.call(self.gql.override_training_gate(run_id=run_id, reason=reason))
        return raise_for_result(answer.override_training_gate).run  # type: ignore[union-attr]

    async def training_run(self, run_id: str) -> TrainingRunInfo:
        """A training run's status, progress (0 to 1), status log and, once built, its version and metrics."""
        answer = await self.connection.call(self.gql.training_run_state(run_id=run_id))
        if answer.node is None or answer.node.typename__ != "TrainingRun":
            raise NotFoundError("NOT_FOUND", f"no training run {run_id!r} that you may see")
        return answer.node

    def training_updates(self, run_id: str) -> AsyncIterator[TrainingRunInfo]:
        """The run now, then at every status or progress change, live (reconnects and re-reads it), until it is
        published or failed."""

        async def stream() -> AsyncIterator[TrainingRunInfo]:
            async for event in self.connection.stream(self.gql.training_run_updated(run_id=run_id)):
                yield event.training_run_updated

        async def until_done() -> AsyncIterator[TrainingRunInfo]:
            async for run in follow(stream, lambda: self.training_run(run_id)):
                yield run
                if run.status in TRAINING_DONE:
                    return

        return until_done()

    async def wait_for_training(
        self, run_id: str, timeout: float | None = None, on_update: Callable[[TrainingRunInfo], None] | None = None
    ) -> TrainingRunInfo:
        """Follows the run live until it ends and returns it: `status` "published" (`model_version`, `n_validated`,
        `metrics`, `gate`), "rejected" (`gate` says why), "failed" or "cancelled" (the last `status_log` entry says
        why)."""

        async def until_done() -> TrainingRunInfo:
            async for run in self.training_updates(run_id):
                if on_update is not None:
                    on_update(run)
                if run.status in TRAINING_DONE:
                    return run
            raise DynabenchError(f"the API ended the updates of training run {run_id} before it ended")

        return await asyncio.wait_for(until_done(), timeout)
