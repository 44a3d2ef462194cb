"""What the worker runs for the examples' jobs (server/annotation/examples/jobs.py): server/annotation/examples/pending.py."""

from __future__ import annotations

from server.annotation.conversations import replies
from server.annotation.examples import jobs, pending
from server.core.jobs import runs


@runs(jobs.recheck_pending_examples)
async def recheck_pending_examples(ctx: dict) -> dict[str, int]:
    totals = {"claimed": 0, "settled": 0, "woken": await pending.wake_pending_of_ready_models(ctx["services"])}
    # Replies whose API process ended mid-stream: failed with what their stream kept (also never left "generating").
    totals["lost_replies"] = await replies.sweep_stale(ctx["services"])
    # Drain in batches so a backlog after an outage clears in one run.
    for _ in range(100):
        result = await pending.recheck_pending(ctx["services"])
        totals = {**totals, **{k: totals[k] + result[k] for k in result}}
        if result["claimed"] == 0:
            break
    return totals
