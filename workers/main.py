"""arq worker entry point: `dynabench worker` (or `arq workers.main.WorkerSettings`)."""

from __future__ import annotations

import logging
import os

from arq import cron
from arq.constants import default_queue_name

from server import listeners  # noqa: F401  (importing it registers every domain's listeners)
from server.accounts import job_functions as account_jobs
from server.annotation.adversary import job_functions as adversary_jobs
from server.annotation.battles import job_functions as battle_jobs
from server.annotation.examples import job_functions as example_jobs
from server.annotation.validation import job_functions as validation_jobs
from server.campaigns import job_functions as campaign_jobs
from server.core import db
from server.core.heap import freeze_startup_heap
from server.core.jobs import bound_functions
from server.core.services import Services
from server.core.services import redis_settings as arq_redis_settings
from server.core.settings import Settings
from server.domain_events import job_functions as domain_event_jobs
from server.evaluation import job_functions as evaluation_jobs
from server.notifications import job_functions as notification_jobs
from server.observability.jobs import (
    deserialize_job,
    instrument,
    serialize_job,
    start_worker_metrics,
)
from server.training import job_functions as training_jobs
from server.webhooks import job_functions as webhook_jobs
from workers.liveness import (
    HEARTBEAT_TTL_S,
    job_ended,
    job_started,
    recover_orphaned_jobs,
    start_heartbeat,
    stop_heartbeat,
)

log = logging.getLogger("dynabench.worker")


async def startup(ctx: dict) -> None:
    await db.wait_for_database()
    await db.start_pool(int(os.environ.get("DB_POOL_MAX", "5")))
    settings = Settings.from_env()
    ctx["services"] = await Services.start(settings)
    if settings.worker_metrics_port:
        ctx["metrics_server"] = start_worker_metrics(
            settings.worker_metrics_host, settings.worker_metrics_port, settings.redis_url, default_queue_name
        )
    await start_heartbeat(ctx)
    log.info("worker ready (%s objects of startup kept out of garbage collection)", freeze_startup_heap())


async def shutdown(ctx: dict) -> None:
    await stop_heartbeat(ctx)
    if ctx.get("metrics_server") is not None:
        ctx["metrics_server"].shutdown()
    if "services" in ctx:
        await ctx["services"].close()
    await db.close_pool()


JOB_TIMEOUT_S = 3600


def sweep_seconds(*seconds: int) -> set[int]:
    """The seconds of each minute a sweep runs at: its own, or every SWEEP_INTERVAL_S seconds from its first one when
    that is more often (the tests' worker: a sweep that would run once a minute then finds its rows within seconds)."""
    own = set(seconds)
    configured = os.environ.get("SWEEP_INTERVAL_S", "").strip()
    interval = int(configured) if configured.isdigit() else 0
    if not 0 < interval < 60:
        return own
    often = set(range(min(own) % interval, 60, interval))
    return often if len(often) > len(own) else own


def dead_worker_check_seconds(heartbeat_ttl_s: int) -> set[int]:
    """When the release of dead workers' jobs runs: every half heartbeat TTL, at most every 10 s."""
    return set(range(2, 60, min(10, max(1, heartbeat_ttl_s // 2))))


async def release_jobs_of_dead_workers(ctx: dict) -> list[str]:
    # arq's in-progress mark lives for the longest job timeout + 10 s (arq.worker.Worker).
    return await recover_orphaned_jobs(ctx, JOB_TIMEOUT_S + 10)


# Each domain's job functions (server/<domain>/job_functions.py): every function bound to a declared job is registered.
DOMAIN_JOB_FUNCTIONS = (
    account_jobs,
    example_jobs,
    adversary_jobs,
    battle_jobs,
    validation_jobs,
    campaign_jobs,
    evaluation_jobs,
    notification_jobs,
    training_jobs,
    webhook_jobs,
    domain_event_jobs,
)


class WorkerSettings:
    # instrument(): duration and outcome metrics per function, the job's name and id in log lines.
    functions = tuple(instrument(f) for f in bound_functions(DOMAIN_JOB_FUNCTIONS))
    # The sweeper: pending examples are found from database state, so none is lost even if an
    # enqueued job is (e.g. Redis restarted without its append-only file).
    cron_jobs = (
        cron(
            instrument(example_jobs.recheck_pending_examples),
            name="cron:recheck_pending_examples",
            second=sweep_seconds(0, 10, 20, 30, 40, 50),
            unique=True,
            run_at_startup=True,
        ),
        cron(
            instrument(validation_jobs.sweep_unaggregated_votes),
            name="cron:sweep_unaggregated_votes",
            second=sweep_seconds(5, 25, 45),
            unique=True,
            run_at_startup=True,
        ),
        # Not ranked models of tasks that have a scoring dataset now (one the seed step added) are evaluated.
        cron(
            instrument(evaluation_jobs.rank_not_ranked_models),
            name="cron:rank_not_ranked_models",
            second=sweep_seconds(17, 47),
            unique=True,
            run_at_startup=True,
        ),
        # Datasets with no contamination report (the seeded ones) are checked (server/evaluation/models/pipeline.py).
        cron(
            instrument(evaluation_jobs.check_unreported_datasets),
            name="cron:check_unreported_datasets",
            second=sweep_seconds(41),
            unique=True,
            run_at_startup=True,
        ),
        # Submissions that judge an open round are loaded again if the sandbox lost them (server/evaluation/models/residency.py).
        cron(
            instrument(evaluation_jobs.keep_round_targets_loaded),
            name="cron:keep_round_targets_loaded",
            second=sweep_seconds(37),
            unique=True,
            run_at_startup=True,
        ),
        # The model store's leftovers and expired archives, export archives' folders a crash left (issue #34 point 7).
        cron(
            instrument(evaluation_jobs.sweep_storage),
            name="cron:sweep_storage",
            second=sweep_seconds(53),
            unique=True,
            run_at_startup=True,
        ),
        # Campaign ledgers whose recompute job was lost are brought up to date (server/campaigns/ledger.py).
        cron(
            instrument(campaign_jobs.sweep_campaign_ledgers),
            name="cron:sweep_campaign_ledgers",
            minute=set(range(0, 60, 5)),
            second={27},
            unique=True,
            run_at_startup=False,
        ),
        # Deleted accounts' work left in tasks that remove it: a write that landed after the deletion, or a task whose
        # owners chose `remove` later (server/accounts/personal_data.py).
        cron(
            instrument(account_jobs.remove_work_of_deleted_accounts),
            name="cron:remove_work_of_deleted_accounts",
            second=sweep_seconds(23),
            unique=True,
            run_at_startup=False,
        ),
        # Email copies of notifications whose job was lost, or refused once by the SMTP server (server/notifications/).
        cron(
            instrument(notification_jobs.send_notification_emails),
            name="cron:send_notification_emails",
            second=sweep_seconds(14, 44),
            unique=True,
            run_at_startup=False,
        ),
        # Webhook delivery attempts whose job was lost are queued again (server/webhooks/delivery.py).
        cron(
            instrument(webhook_jobs.retry_stalled_webhook_deliveries),
            name="cron:retry_stalled_webhook_deliveries",
            second=sweep_seconds(53),
            unique=True,
            run_at_startup=False,
        ),
        # Domain events whose announcing process died after their commit are delivered (server/domain_events/).
        cron(
            instrument(domain_event_jobs.deliver_undelivered_events),
            name="cron:deliver_undelivered_events",
            second={8, 18, 28, 38, 48, 58},
            unique=True,
            run_at_startup=True,
        ),
        cron(
            instrument(domain_event_jobs.prune_delivered_events),
            name="cron:prune_delivered_events",
            minute={11},
            second={31},
            unique=True,
            run_at_startup=False,
        ),
        # Jobs of a worker that died (SIGKILL, lost machine) run again within 1.5 heartbeat TTLs (~30 s; workers/liveness.py).
        cron(
            instrument(release_jobs_of_dead_workers),
            name="cron:release_jobs_of_dead_workers",
            second=dead_worker_check_seconds(HEARTBEAT_TTL_S),
            unique=True,
            run_at_startup=True,
        ),
    )
    on_job_start = job_started
    on_job_end = job_ended
    on_startup = startup
    on_shutdown = shutdown
    # The originating request id travels inside each job (server/observability/jobs.py).
    job_serializer = serialize_job
    job_deserializer = deserialize_job
    redis_settings = arq_redis_settings(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    # Low poll delay: ~12 ms job latency instead of ~300 ms (docs/design.md §2).
    poll_delay = 0.02
    keep_result = 60
    max_tries = 20
    job_timeout = JOB_TIMEOUT_S
    health_check_interval = 10
