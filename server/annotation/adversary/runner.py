"""An adversary run, unattended (docs/design.md §4.1f): contexts picked as nextContext picks them, the task's
generator asked for candidates (generator.py, the owner's endpoint budgets counting it), each candidate written as a
machine-made example (writing.py), each write counted against the owner's per-account submission limit.

Idempotent: what is written is counted from rows, and the run's `i`th example has a client UUID derived from the run's
(rules.example_client_id), so a job re-run after a crash continues where the rows say and never writes twice. A full
rate limit puts the job back for the seconds it names; a generator or target that is down fails the run with the
reason, keeping what was written.
"""

from __future__ import annotations

import logging

from server.annotation.adversary import jobs as run_jobs
from server.annotation.adversary import queries, rules
from server.annotation.adversary.writing import Author, Candidate, TargetDown, write_conversation, write_example
from server.annotation.examples.service import cached_config
from server.annotation.suggestions import generator
from server.annotation.suggestions import queries as suggestion_queries
from server.core import jobs, rate_limits
from server.core.errors import ServiceError
from server.core.i18n import tr
from server.core.jsonutil import from_json
from server.core.rate_limits import Action
from server.core.services import Services
from server.tasks.contexts import next_context
from server.tasks.records import ContextStrategy

log = logging.getLogger("dynabench.adversary")
REFUSALS = frozenset({"INVALID_INPUT", "DUPLICATE_EXAMPLE"})  # this candidate is not written; the next one may be


class _Paused(Exception):
    """The owner's rate limit is full: the job comes back later."""


async def run(services: Services, run_id: int) -> str:
    """The run's status once this attempt ends ("running" when it waits for the rate limit)."""
    row = await queries.by_id(run_id)
    if row is None or row["status"] in rules.FINISHED:
        return str(row["status"]) if row else "missing"
    row = await queries.set_running(run_id)
    if row is None:
        return "finished"
    try:
        note = await _produce(services, row)
    except _Paused:
        return rules.RunStatus.RUNNING
    except TargetDown as down:
        return await _finish(run_id, rules.RunStatus.FAILED, tr("The target model could not answer: {reason}", reason=str(down)))
    except ServiceError as failed:  # the generator down (MODEL_UNAVAILABLE), the round closed or gone
        return await _finish(run_id, rules.RunStatus.FAILED, failed.message)
    except Exception:  # a bug must not leave the run "running" (holding the task's one slot) through arq's retries
        log.exception("adversary run %s stopped", run_id)
        return await _finish(run_id, rules.RunStatus.FAILED, tr("The run stopped on an unexpected error."))
    if note is None:
        return rules.RunStatus.CANCELLED
    return await _finish(run_id, rules.RunStatus.DONE, note)


async def _finish(run_id: int, status: str, error: str) -> str:
    finished = await queries.finish(run_id, status, error)
    return str(finished["status"]) if finished else "finished"


async def _produce(services: Services, row: dict) -> str | None:
    """Write until the run has what it asked for: "" when it has, a note when the generator gave too little; None
    when the run was cancelled meanwhile."""
    run_id, requested, owner_id = row["id"], row["requested"], row["started_by"]
    author = Author(owner_id, await queries.machine_account(rules.MACHINE_USERNAME))
    written = await queries.written(run_id)
    calls, budget = 0, None
    while written < requested:
        context = await next_context(row["round"], ContextStrategy.LEAST_USED)
        loaded = await suggestion_queries.load(row["round"], context["id"], owner_id)
        if loaded is None or not loaded["may_write"]:
            raise ServiceError("NOT_FOUND", tr("{what} does not exist.", what=tr("That round")))
        if loaded["end_at"] is not None:
            raise ServiceError("ROUND_CLOSED", tr("This round is closed; write examples for the task's current round."))
        config = rules.with_generator(cached_config(loaded["task"], loaded["config"]), row["generator"])
        if config.suggestions.generator is None:
            raise ServiceError("INVALID_INPUT", tr("This task has no generator for suggestions (its config names none)."))
        per_call = config.suggestions.generator.count
        budget = rules.calls_allowed(requested - written, per_call) if budget is None else budget
        if calls >= budget:
            return tr("The generator gave only {count} usable candidates.", count=written)
        if await _cancelled(run_id):
            return None
        brief = generator.TaskBrief(loaded["task"], loaded["description"] or "", loaded["instructions"] or "")
        made = await generator.generate_candidates(
            services, config, brief, from_json(loaded["context_fields"]) or {}, user_id=owner_id,
            count=min(per_call, requested - written),
        )  # fmt: skip
        calls += 1
        write = write_conversation if config.kind == "generative" else write_example
        refused = 0
        for found in made.candidates:
            if written >= requested or await _cancelled(run_id):
                break
            taken = await _take(services, run_id, owner_id)
            candidate = Candidate(
                round_id=row["round"],
                context_id=context["id"],
                field_name=made.field_name,
                text=found.text,
                label=found.label,
                client_id=rules.example_client_id(row["client_id"], written),
                assisted_by={"kind": "machine", "run": run_id, "source": made.source, "version": made.version},
            )
            try:
                _example, inserted = await write(services, author, candidate)
            except ServiceError as exc:
                await taken.give_back(services.redis)
                if exc.code not in REFUSALS:
                    raise
                refused += 1
                continue
            if not inserted:
                await taken.give_back(services.redis)
            written += 1
        if refused:
            await queries.add_refused(run_id, refused)
    return ""


async def _cancelled(run_id: int) -> bool:
    current = await queries.by_id(run_id)
    return current is None or current["status"] != rules.RunStatus.RUNNING


async def _take(services: Services, run_id: int, owner_id: int) -> rate_limits.Taken:
    """One example against the owner's per-account limit; when it is full, the job is queued again for the wait."""
    try:
        return await rate_limits.take(services.redis, services.settings, Action.SUBMIT_EXAMPLE, account=owner_id)
    except ServiceError as refusal:
        if refusal.code != "RATE_LIMITED":
            raise
        await jobs.enqueue_later(services.arq, float(refusal.retry_after_s or 1), run_jobs.run_adversary, run_id)
        raise _Paused from None
