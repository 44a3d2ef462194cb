"""A deleted account's work removed from tasks whose config says `personal_data.on_account_deletion: remove`
(docs/design.md §11, "A person's data"), in the caller's transaction: the account's examples there (and what hangs
from them), its votes, conversations, battles, suggestions and gold answers; then every counter and outcome they
touched recomputed from the rows left, as the aggregation job would (validation/aggregating.py): the outcome of each
other example the account voted on (a decided example may be decided no more, or otherwise), the rounds' counters
(a recount), the agreement sums, contexts' tallies and the per-round counters of everyone involved. After commit,
`announce` tells live views, campaign ledgers and battle ratings."""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field

from redis.exceptions import RedisError

from server.annotation import round_count_queries
from server.annotation.battles import jobs as battle_jobs
from server.annotation.domain_events import ExampleAggregated
from server.annotation.records import ExampleStatus
from server.annotation.removal import queries
from server.annotation.validation import aggregating, stats
from server.campaigns import ledger as campaign_ledger
from server.core import events, jobs
from server.core.services import Services
from server.domain_events import dispatcher as domain_events

log = logging.getLogger("dynabench.annotation")


@dataclass
class Removal:
    """What was removed, and what to announce after commit."""

    examples: list[tuple[int, int, int]] = field(default_factory=list)  # (round, example, author) removed
    votes: int = 0
    rounds: list[int] = field(default_factory=list)  # whose counters were recounted
    battle_tasks: list[int] = field(default_factory=list)  # whose battle votes went: ratings to compute again
    aggregated: list[ExampleAggregated] = field(default_factory=list)  # others' examples aggregated again, recorded

    @property
    def empty(self) -> bool:
        return not (self.examples or self.votes or self.rounds or self.battle_tasks)


async def tasks_with_work(users: list[int], tasks: list[int]) -> dict[int, list[int]]:
    """For each of `users` with work (examples, votes, conversations, battles...) in some of `tasks`: those tasks."""
    found: dict[int, list[int]] = defaultdict(list)
    if users and tasks:
        for row in await queries.work_in_tasks(users, tasks):
            found[row["user"]].append(row["task"])
    return dict(found)


async def remove_work(user_id: int, tasks: list[int]) -> Removal:
    """Call in a transaction that holds the account's row lock (FOR UPDATE: no row referring to the account can be
    written meanwhile). Locks in the order of docs/design.md §6: the examples (ascending), the rounds' counters
    (exclusively: the recount below is exact), contexts, agreement sums, then per-user counters."""
    if not tasks:
        return Removal()
    mine = await queries.examples_of(user_id, tasks)
    removed = set(mine)
    again = (set(await queries.voted_on(user_id, tasks)) | set(await queries.regraded(mine))) - removed
    rows = await queries.lock_examples(sorted(removed | again))
    rounds = sorted({row["round"] for row in rows})
    for round_id in rounds:
        await round_count_queries.hold_exclusively(round_id)
    recount = set(await queries.voters(mine))
    removal = Removal(examples=[(r["round"], r["id"], r["user"]) for r in rows if r["id"] in removed], rounds=rounds)
    await queries.uncount_contexts(mine)
    await _out_of_agreement(user_id, rows, removed)
    removal.votes = await queries.delete_votes(user_id, tasks)
    await queries.delete_examples(mine)
    removal.battle_tasks = await queries.delete_conversations(user_id, tasks)
    await queries.delete_rest(user_id, tasks)
    settled = []
    for row in rows:
        if row["id"] in again and (done := await aggregating.settle(row)) is not None:
            settled.append(done)
            recount.update((row["round"], user) for user in done.users)
    for round_id in rounds:
        await round_count_queries.recount(round_id)
    for round_id, user in sorted(recount):  # one order for every such recount (§6: a round's users ascending)
        if user != user_id:
            await aggregating.recount_user(user, round_id)
    for done in settled:
        if (event := await domain_events.record(done.event)) is not None:
            removal.aggregated.append(event)
    return removal


async def _out_of_agreement(user_id: int, rows: list[dict], mine: set[int]) -> None:
    """The agreement sums hold each example's aggregated user-mode votes (validation/stats.py): the removed examples
    leave them, and the others lose the account's vote (their aggregation below adds what it does not hold yet)."""
    labels: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for vote in await queries.aggregated_votes([row["id"] for row in rows]):
        labels[vote["example"]].append((vote["user"], vote["label"]))
    for row in rows:
        before = [label for _, label in labels[row["id"]]]
        after = [] if row["id"] in mine else [label for voter, label in labels[row["id"]] if voter != user_id]
        await stats.add_to_agreement(row["round"], before, after)


async def announce(services: Services, removal: Removal) -> None:
    """After commit, best effort (the rows are the truth; sweeps and reads recompute the rest): the aggregations'
    listeners (ledgers, webhooks, inbox, badges, live views), removed examples out of validators' queues and pages,
    examples open again back in them, the rounds' live counters, live campaigns' ledgers, battle ratings."""
    await domain_events.announce(services, *removal.aggregated)
    if removal.empty:
        return
    live: list[events.Event] = []
    for round_id, example_id, _author in removal.examples:
        live.append(events.VoteCounted(round_id=round_id, example_id=example_id, still_open=False, voter_ids=()))
        live.append(events.ExampleUpdated(example_id=example_id, status="removed"))
    for event in removal.aggregated:
        if event.status == ExampleStatus.OPEN and event.previous_status != ExampleStatus.OPEN:
            live.append(events.ExampleAvailable(round_id=event.round_id, example_id=event.example_id, author_id=event.author_id))
    live += [events.RoundStatsChanged(round_id=round_id) for round_id in removal.rounds]
    try:
        if live:
            await events.publish(services.redis, *live)
        for round_id in removal.rounds:  # pending bonuses for removed examples and votes are voided
            await campaign_ledger.outcome_changed(services, round_id)
        for task_id in removal.battle_tasks:
            await jobs.enqueue(services.arq, battle_jobs.rate_battles, task_id)
    except (RedisError, OSError):
        log.warning("could not announce a deleted account's removed work", exc_info=True)
