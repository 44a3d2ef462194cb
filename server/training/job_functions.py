"""What the worker runs for the training domain (server/training/jobs.py): server/training/job.py."""

from __future__ import annotations

from arq import Retry

from server.core.jobs import runs
from server.training import job, jobs


@runs(jobs.train_target_model)
async def train_target_model(ctx: dict, run_id: int) -> str:
    try:
        return await job.run_training(ctx["services"], run_id)
    except job.TRANSIENT as exc:
        # arq retries only what asks for it: the run, still active, is taken up again by the retry (it recomputes from
        # the run's row), or ended once the outage outlasted every try.
        tries = int(ctx.get("job_try") or 1)
        wait_s = job.retry_after_outage(tries)
        if wait_s is not None:
            raise Retry(defer=wait_s) from exc
        return await job.fail_after_outages(ctx["services"], run_id, tries)
