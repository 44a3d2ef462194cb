"""Validation: which examples a validator gets, casting votes, and recomputing outcomes from votes."""

from __future__ import annotations

from server.core import events
from server.accounts.viewer import Viewer
from server.annotation import stats
from server.annotation.aggregation import Vote, outcome
from server.annotation.tables import Example, Validation
from server.core.errors import FieldProblem, ServiceError, invalid, not_found
from server.permissions import is_task_owner
from server.core.services import Services
from server.core.storable import text_problem
from server.tasks.service import get_round, load_config
from server.tasks.tables import Task

CLAIM_MINUTES = 10
MAX_NOTE = 2000
LABELS = ("correct", "incorrect", "flagged")

# Open examples this validator may vote on, fooling first, then fewest votes, then random. Rows
# another validator holds a live claim on come last, and FOR UPDATE SKIP LOCKED keeps two
# simultaneous requests from taking the same row: so concurrent validators get different examples
# while others remain. The choice is made among the 500 oldest of them (their upper id bound found
# first, once per call, through the partial index examples_open_by_round), not among every open
# example of the round: ordering a busy round's whole backlog by its vote counts took 60–80 ms at 20k
# open examples. (Joining a 500-row window instead went quadratic under a plan cached while the
# tables were empty: 1 s per call under load.)
_VOTABLE_BY = """
  {alias}.round = {{}} AND {alias}.status = 'open' AND NOT {alias}.retracted AND {alias}."user" <> {{}}
  AND NOT EXISTS (SELECT 1 FROM validations v WHERE v.example = {alias}.id AND v."user" = {{}})"""
CANDIDATES = f"""
SELECT e.id FROM examples e
WHERE {_VOTABLE_BY.format(alias="e")}
  AND e.id <= (SELECT coalesce(max(w.id), 0) FROM (
    SELECT w.id FROM examples w WHERE {_VOTABLE_BY.format(alias="w")} ORDER BY w.id LIMIT 500) w)
ORDER BY
  (SELECT count(*) FROM validation_claims c WHERE c.example = e.id AND c."user" <> {{}} AND c.expires_at > now()),
  e.fooled DESC NULLS LAST,
  (SELECT count(*) FROM validations v WHERE v.example = e.id),
  random()
LIMIT {{}}
FOR UPDATE OF e SKIP LOCKED
"""
CLAIM = """
INSERT INTO validation_claims (example, "user", expires_at)
SELECT unnest({}::int[]), {}, now() + make_interval(mins => {})
ON CONFLICT (example, "user") DO UPDATE SET expires_at = EXCLUDED.expires_at
"""


async def next_examples_to_validate(viewer: Viewer, round_id: int, first: int) -> list[dict]:
    await get_round(round_id)
    async with Example._meta.db.transaction():
        rows = await Example.raw(CANDIDATES, *[round_id, viewer.user_id, viewer.user_id] * 2, viewer.user_id, first)
        ids = [row["id"] for row in rows]
        if ids:
            await Example.raw(CLAIM, ids, viewer.user_id, CLAIM_MINUTES)
    if not ids:
        return []
    found = await Example.select().where(Example.id.is_in(ids)).output(load_json=True)
    by_id = {row["id"]: row for row in found}
    return [by_id[i] for i in ids]


async def validate_example(services: Services, viewer: Viewer, example_id: int, label: str, mode: str, note: str) -> dict:
    if label not in LABELS:
        raise invalid("Unknown label.", FieldProblem("label", "must be CORRECT, INCORRECT or FLAGGED"))
    if len(note) > MAX_NOTE or text_problem(note):
        raise invalid("The note is not valid.", FieldProblem("note", f"at most {MAX_NOTE} characters of text"))
    example = await Example.select().where(Example.id == example_id).first()
    if example is None:
        raise not_found("That example")
    round_row = await get_round(example["round"])
    if mode == "owner" and not is_task_owner(viewer, round_row["task"]):
        raise ServiceError("FORBIDDEN", "Only the task's owners can validate in owner mode.")
    if example["user"] == viewer.user_id:
        raise ServiceError("FORBIDDEN", "You cannot validate your own example.")
    if example["retracted"]:
        raise ServiceError("CONFLICT", "This example was retracted by its author.")
    if example["status"] == "pending":
        raise ServiceError("CONFLICT", "The model has not judged this example yet.")
    async with Example._meta.db.transaction():
        inserted = await Validation.raw(
            'INSERT INTO validations (example, "user", label, mode, note, created_at) VALUES ({}, {}, {}, {}, {}, now()) '
            'ON CONFLICT (example, "user") DO NOTHING RETURNING *',
            example_id, viewer.user_id, label, mode, note.strip(),
        )
        if not inserted:
            raise ServiceError("CONFLICT", "You have already validated this example.")
        await Validation.raw('DELETE FROM validation_claims WHERE example = {} AND "user" = {}', example_id, viewer.user_id)
        await Validation.raw(
            'INSERT INTO user_round_stats ("user", round, submitted, fooled, retracted, validations_done) '
            'VALUES ({}, {}, 0, 0, 0, 1) ON CONFLICT ("user", round) DO UPDATE SET '
            "validations_done = user_round_stats.validations_done + 1",
            viewer.user_id, example["round"],
        )
    await services.arq.enqueue_job("aggregate_example", example_id)
    return inserted[0]


RECOUNT_USER = """
INSERT INTO user_round_stats ("user", round, submitted, fooled, fooled_rejected, retracted, validations_done)
SELECT {}, {}, a.submitted, a.fooled, a.fooled_rejected, a.retracted,
  (SELECT count(*) FROM validations v JOIN examples e ON e.id = v.example WHERE v."user" = {} AND e.round = {})
FROM (SELECT count(*) AS submitted, count(*) FILTER (WHERE fooled AND NOT retracted) AS fooled,
             count(*) FILTER (WHERE fooled AND NOT retracted AND status = 'rejected') AS fooled_rejected,
             count(*) FILTER (WHERE retracted) AS retracted
      FROM examples WHERE "user" = {} AND round = {}) a
ON CONFLICT ("user", round) DO UPDATE SET submitted = EXCLUDED.submitted, fooled = EXCLUDED.fooled,
  fooled_rejected = EXCLUDED.fooled_rejected, retracted = EXCLUDED.retracted, validations_done = EXCLUDED.validations_done
"""


async def recount_user(user_id: int, round_id: int) -> None:
    """Call in a transaction. The counters' row is locked first (as recompute_round locks the round):
    the recount then sees every example and vote committed before the lock, and writers after it wait
    and add to the recount instead of being overwritten by it."""
    await Example.raw('SELECT id FROM user_round_stats WHERE "user" = {} AND round = {} FOR UPDATE', user_id, round_id)
    await Example.raw(RECOUNT_USER, *([user_id, round_id] * 3))


async def aggregate(services: Services, example_id: int) -> str | None:
    """Recompute one example's outcome from all its votes (idempotent), then the counters it moves."""
    from workers.rounds import recompute_round

    async with Example._meta.db.transaction():
        # Lock the example: concurrent runs for the same example serialize here.
        rows = await Example.raw("SELECT * FROM examples WHERE id = {} FOR UPDATE", example_id)
        if not rows:
            return None
        example = rows[0]
        if example["status"] == "pending":
            return "pending"
        votes = await Validation.select(Validation.label, Validation.mode, Validation.user, Validation.aggregated).where(
            Validation.example == example_id
        ).order_by(Validation.created_at).order_by(Validation.id)
        round_row = await get_round(example["round"])
        task = await Task.select().where(Task.id == round_row["task"]).first()
        config = load_config(task)
        decided = outcome([Vote(v["label"], v["mode"]) for v in votes], config.validation.num_matching_validations)
        if decided == "open":
            decided = "open" if (example["fooled"] or config.validation.validate_non_fooling) else "closed"
        if decided != example["status"]:
            await Example.raw("UPDATE examples SET status = {} WHERE id = {}", decided, example_id)
        await Validation.raw("UPDATE validations SET aggregated = true WHERE example = {} AND NOT aggregated", example_id)
        await recompute_round(example["round"])  # locks the round: its agreement sums change one example at a time
        await stats.add_to_agreement(example["round"], [v["label"] for v in votes if v["mode"] == "user" and v["aggregated"]],
                                     [v["label"] for v in votes if v["mode"] == "user"])
        for user_id in sorted({example["user"], *(v["user"] for v in votes)}):
            await recount_user(user_id, example["round"])
    await events.publish(services.redis, events.ExampleUpdated(example_id=example_id, status=decided))
    await events.publish(services.redis, events.RoundStatsChanged(round_id=example["round"]))
    await events.publish(services.redis, events.VoteCounted(round_id=example["round"], example_id=example_id, still_open=decided == "open",
                                                            voter_ids=tuple(v["user"] for v in votes)))
    return decided


async def sweep_unaggregated(services: Services, limit: int = 200) -> int:
    """Aggregate examples that have votes no aggregation has seen (a lost job, a killed worker)."""
    rows = await Validation.raw(
        "SELECT DISTINCT example FROM validations WHERE NOT aggregated AND created_at < now() - interval '5 seconds' LIMIT {}",
        limit,
    )
    for row in rows:
        await aggregate(services, row["example"])
    return len(rows)
