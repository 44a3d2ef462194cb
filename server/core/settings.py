"""Runtime settings, read from the environment (12-factor) with safe local defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache


def _csv(value: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in value.split(",") if item.strip())


@dataclass(frozen=True)
class Settings:
    database_url: str = "postgresql://postgres@127.0.0.1:5432/dynabench"
    redis_url: str = "redis://127.0.0.1:6379/0"
    triton_url: str = "127.0.0.1:8000"
    triton_submissions_url: str = "127.0.0.1:8100"
    jwt_secret: str = ""
    jwt_ttl_seconds: int = 7 * 24 * 3600
    allowed_origins: tuple[str, ...] = field(default_factory=tuple)
    page_size_max: int = 100
    query_depth_max: int = 10
    query_tokens_max: int = 2000
    query_aliases_max: int = 15
    request_body_max_bytes: int = 2 * 1024 * 1024
    pwa_dist: str = ""
    db_pool_max: int = 10
    triton_timeout_s: float = 5.0
    # Live counters (roundStats): at most one read and one message per round per process in this interval (the first
    # change after a quiet spell goes out at once; later ones are merged and sent at the end of it: server/core/live_feed.py).
    live_counters_interval_s: float = 0.2
    # Generative replies (server/annotation/conversations/): the wait for the first token, for each later one, and
    # for a whole reply; a reply still "generating" after the last (plus a minute) was lost with its process.
    generation_first_token_timeout_s: float = 30.0
    generation_idle_timeout_s: float = 15.0
    generation_max_s: float = 600.0
    model_store_dir: str = ".dynabench/model_store"
    # How long the archive of a failed or taken-down submission is kept before the storage sweep removes it.
    storage_retention_days: float = 30.0
    # Where HF-datasets export archives are built while they download (default: the system's temporary folder).
    export_scratch_dir: str = ""
    upload_max_bytes: int = 2 * 1024**3
    upload_max_files: int = 1000
    # Rate limits (server/core/rate_limits.py; docs/api.md "Limits"): each a window per account and/or per client
    # address, counted in Redis and shared by every API process; 0 turns one off.
    uploads_per_day: int = 5  # per account (attempts: refused archives and failed deploys count too)
    uploads_per_day_per_address: int = 20
    signups_per_hour_per_address: int = 20
    tasks_per_day: int = 10  # per account
    tasks_per_day_per_address: int = 20
    # The target Triton's model repository, writable by the worker: retraining adds versions there.
    target_model_repository: str = ""
    # Log-in failures (server/accounts/lockout.py): free failures per (account, address), then an exponential wait
    # capped at login_backoff_max_seconds; failures are remembered login_window_seconds after the last one. Each
    # address also has a budget of failures over all accounts per window. 0 turns a limit off.
    login_max_failures: int = 5
    login_backoff_max_seconds: int = 900
    login_window_seconds: int = 3600
    login_failures_per_address: int = 50
    submissions_per_minute: int = 60  # per account (createExample incl. sandbox, submitExamples items)
    submissions_per_minute_per_address: int = 300
    # explainPrediction: each costs one batched model call of up to 64 rows.
    explanations_per_minute: int = 20
    explanations_per_minute_per_address: int = 100
    # suggestExamples: each asks a generator for a whole answer or runs a search of up to 256 target rows.
    suggestions_per_minute: int = 10
    suggestions_per_minute_per_address: int = 50
    # Proxies whose X-Forwarded-For is believed (IPs or CIDRs, or "*"); otherwise the client is the socket peer.
    trusted_proxies: tuple[str, ...] = field(default_factory=tuple)
    metrics_token: str = ""  # when set, GET /metrics needs `Authorization: Bearer <token>`
    access_log: bool = False  # one structured line per HTTP request (route template, status, duration, request id)
    worker_metrics_port: int = 0  # the worker's Prometheus endpoint; 0 = not served
    worker_metrics_host: str = "127.0.0.1"
    # What an uploaded model's config.pbtxt may ask of the submissions Triton (checked at upload).
    model_max_instances: int = 2  # sum of instance_group counts
    model_allow_gpu: bool = False  # False: KIND_GPU / KIND_AUTO / KIND_MODEL / gpus are refused
    model_max_batch_size: int = 64
    # Sent as the `dynabench-control-key` header on Triton's model-repository / model-config APIs
    # (compose restricts those APIs to this key); empty = no header.
    triton_control_key: str = ""
    # The sandbox agent's statistics endpoint (unix:/path or http://host:port): per-model peak memory.
    triton_submissions_stats_url: str = ""
    # Set by `dynabench up` when the OS sandbox cannot start: uploads are refused with this reason.
    uploads_disabled_reason: str = ""
    # How long an uploaded model may take: to load, to answer the smoke test, to answer one evaluation batch.
    model_load_timeout_s: float = 600.0
    smoke_test_timeout_s: float = 120.0
    # An uploaded classifier's own train.py, retraining it as a round's target (server/sandbox/training.py): its wall
    # time, memory (a cgroup, where one can be made) and CPU share.
    submission_training_timeout_s: float = 1800.0  # at most 2,400 (the worker's job timeout is an hour)
    submission_training_memory_gb: float = 4.0
    submission_training_cpu_cores: float = 1.0
    submission_training_output_mb: int = 1024  # what train.py may write (a tmpfs: it counts in the memory limit)
    evaluation_batch_timeout_s: float = 300.0
    # An evaluation that loses the model's Triton (down, restarting) is tried again this many times in all, this
    # long apart; then the model fails with the reason. Broken outputs and models the sandbox stopped never are.
    evaluation_attempts: int = 3
    evaluation_retry_s: float = 60.0
    # Submissions kept loaded in the sandboxed Triton at once (0: no limit); before a load beyond it, the
    # least recently active idle ones are unloaded (server/evaluation/models/residency.py).
    submissions_max_loaded: int = 3
    # Crowd campaigns (server/campaigns/): the key of the HMAC under which external worker ids are stored (at least
    # 32 characters; empty: derived from JWT_SECRET), and the joins allowed per client address per hour and per
    # campaign per minute (server/core/rate_limits.py; 0 turns one off).
    crowd_id_secret: str = ""
    campaign_joins_per_hour_per_address: int = 60
    campaign_joins_per_minute: int = 120
    # Outgoing mail (server/core/mail.py): smtp://[user:pass@]host[:port] (plain), smtp+starttls://… or smtps://…
    # (implicit TLS); empty = no mail (password resets then go through an admin). MAIL_FROM is the sender address.
    smtp_url: str = ""
    mail_from: str = ""
    smtp_timeout_s: float = 10.0
    # Account recovery (server/accounts/recovery.py): how long an email-verification and a password-reset token
    # live, and the reset requests allowed per hour per account and per client address (0 turns one off).
    email_token_ttl_seconds: int = 24 * 3600
    password_reset_ttl_seconds: int = 3600
    password_resets_per_hour: int = 3
    password_resets_per_hour_per_address: int = 20
    email_changes_per_hour: int = 5  # setEmail (each mails a verification link): per account
    email_changes_per_hour_per_address: int = 20
    # The PWA's public address, used to build links in mail (empty: links are relative, tokens are shown instead).
    public_url: str = ""
    # Webhooks (server/webhooks/, docs/design.md §9): private/loopback targets and http:// allowed (tests, closed
    # networks only); the key hooks' secrets are derived from (empty: derived from JWT_SECRET); one attempt's timeout;
    # attempts per delivery with exponential backoff from retry_base_s (capped at retry_max_s); consecutive failed
    # deliveries before a hook is disabled; hooks per task.
    webhooks_allow_private: bool = False
    webhook_secret_key: str = ""
    webhook_timeout_s: float = 10.0
    webhook_max_attempts: int = 8
    webhook_retry_base_s: float = 10.0
    webhook_retry_max_s: float = 3600.0
    webhook_disable_after: int = 5
    webhooks_per_task: int = 10
    # LLM endpoints (server/generation/endpoints/): the secret their API keys are sealed under (at least 32 characters;
    # empty: derived from JWT_SECRET; the API and the workers need the same one).
    endpoint_key_secret: str = ""

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        secret = env.get("JWT_SECRET", "")
        return cls(
            database_url=env.get("DATABASE_URL", cls.database_url),
            redis_url=env.get("REDIS_URL", cls.redis_url),
            triton_url=env.get("TRITON_URL", cls.triton_url),
            triton_submissions_url=env.get("TRITON_SUBMISSIONS_URL", cls.triton_submissions_url),
            jwt_secret=secret,
            jwt_ttl_seconds=int(env.get("JWT_TTL_SECONDS", cls.jwt_ttl_seconds)),
            allowed_origins=_csv(env.get("ALLOWED_ORIGINS", "")),
            page_size_max=int(env.get("PAGE_SIZE_MAX", cls.page_size_max)),
            query_depth_max=int(env.get("QUERY_DEPTH_MAX", cls.query_depth_max)),
            query_tokens_max=int(env.get("QUERY_TOKENS_MAX", cls.query_tokens_max)),
            query_aliases_max=int(env.get("QUERY_ALIASES_MAX", cls.query_aliases_max)),
            request_body_max_bytes=int(env.get("REQUEST_BODY_MAX_BYTES", cls.request_body_max_bytes)),
            pwa_dist=env.get("PWA_DIST", ""),
            db_pool_max=int(env.get("DB_POOL_MAX", cls.db_pool_max)),
            triton_timeout_s=float(env.get("TRITON_TIMEOUT_S", cls.triton_timeout_s)),
            live_counters_interval_s=float(env.get("LIVE_COUNTERS_INTERVAL_S", cls.live_counters_interval_s)),
            generation_first_token_timeout_s=float(
                env.get("GENERATION_FIRST_TOKEN_TIMEOUT_S", cls.generation_first_token_timeout_s)
            ),
            generation_idle_timeout_s=float(env.get("GENERATION_IDLE_TIMEOUT_S", cls.generation_idle_timeout_s)),
            generation_max_s=float(env.get("GENERATION_MAX_S", cls.generation_max_s)),
            model_store_dir=env.get("MODEL_STORE_DIR", cls.model_store_dir),
            storage_retention_days=float(env.get("STORAGE_RETENTION_DAYS", cls.storage_retention_days)),
            export_scratch_dir=env.get("EXPORT_SCRATCH_DIR", cls.export_scratch_dir),
            upload_max_bytes=int(env.get("UPLOAD_MAX_BYTES", cls.upload_max_bytes)),
            upload_max_files=int(env.get("UPLOAD_MAX_FILES", cls.upload_max_files)),
            uploads_per_day=int(env.get("UPLOADS_PER_DAY", cls.uploads_per_day)),
            uploads_per_day_per_address=int(env.get("UPLOADS_PER_DAY_PER_ADDRESS", cls.uploads_per_day_per_address)),
            signups_per_hour_per_address=int(env.get("SIGNUPS_PER_HOUR_PER_ADDRESS", cls.signups_per_hour_per_address)),
            tasks_per_day=int(env.get("TASKS_PER_DAY", cls.tasks_per_day)),
            tasks_per_day_per_address=int(env.get("TASKS_PER_DAY_PER_ADDRESS", cls.tasks_per_day_per_address)),
            target_model_repository=env.get("TARGET_MODEL_REPOSITORY", ""),
            login_max_failures=int(env.get("LOGIN_MAX_FAILURES", cls.login_max_failures)),
            login_backoff_max_seconds=int(env.get("LOGIN_BACKOFF_MAX_SECONDS", cls.login_backoff_max_seconds)),
            login_window_seconds=int(env.get("LOGIN_WINDOW_SECONDS", cls.login_window_seconds)),
            login_failures_per_address=int(env.get("LOGIN_FAILURES_PER_ADDRESS", cls.login_failures_per_address)),
            submissions_per_minute=int(env.get("SUBMISSIONS_PER_MINUTE", cls.submissions_per_minute)),
            submissions_per_minute_per_address=int(
                env.get("SUBMISSIONS_PER_MINUTE_PER_ADDRESS", cls.submissions_per_minute_per_address)
            ),
            explanations_per_minute=int(env.get("EXPLANATIONS_PER_MINUTE", cls.explanations_per_minute)),
            suggestions_per_minute=int(env.get("SUGGESTIONS_PER_MINUTE", cls.suggestions_per_minute)),
            suggestions_per_minute_per_address=int(
                env.get("SUGGESTIONS_PER_MINUTE_PER_ADDRESS", cls.suggestions_per_minute_per_address)
            ),
            explanations_per_minute_per_address=int(
                env.get("EXPLANATIONS_PER_MINUTE_PER_ADDRESS", cls.explanations_per_minute_per_address)
            ),
            # uvicorn's FORWARDED_ALLOW_IPS (which compose sets for its proxy) when TRUSTED_PROXIES is not set.
            trusted_proxies=_csv(env.get("TRUSTED_PROXIES", env.get("FORWARDED_ALLOW_IPS", ""))),
            metrics_token=env.get("METRICS_TOKEN", ""),
            access_log=env.get("ACCESS_LOG", "0") == "1",
            worker_metrics_port=int(env.get("WORKER_METRICS_PORT") or 0),
            worker_metrics_host=env.get("WORKER_METRICS_HOST", cls.worker_metrics_host),
            model_max_instances=int(env.get("MODEL_MAX_INSTANCES", cls.model_max_instances)),
            model_allow_gpu=env.get("MODEL_ALLOW_GPU", "0").strip().lower() in ("1", "true", "yes"),
            model_max_batch_size=int(env.get("MODEL_MAX_BATCH_SIZE", cls.model_max_batch_size)),
            triton_control_key=env.get("TRITON_CONTROL_KEY", ""),
            triton_submissions_stats_url=env.get("TRITON_SUBMISSIONS_STATS_URL", ""),
            uploads_disabled_reason=env.get("UPLOADS_DISABLED_REASON", ""),
            model_load_timeout_s=float(env.get("MODEL_LOAD_TIMEOUT_S", cls.model_load_timeout_s)),
            smoke_test_timeout_s=float(env.get("SMOKE_TEST_TIMEOUT_S", cls.smoke_test_timeout_s)),
            submission_training_timeout_s=float(env.get("SUBMISSION_TRAINING_TIMEOUT_S", cls.submission_training_timeout_s)),
            submission_training_memory_gb=float(env.get("SUBMISSION_TRAINING_MEMORY_GB", cls.submission_training_memory_gb)),
            submission_training_cpu_cores=float(env.get("SUBMISSION_TRAINING_CPU_CORES", cls.submission_training_cpu_cores)),
            submission_training_output_mb=int(env.get("SUBMISSION_TRAINING_OUTPUT_MB", cls.submission_training_output_mb)),
            evaluation_batch_timeout_s=float(env.get("EVALUATION_BATCH_TIMEOUT_S", cls.evaluation_batch_timeout_s)),
            evaluation_attempts=max(1, int(env.get("EVALUATION_ATTEMPTS", cls.evaluation_attempts))),
            evaluation_retry_s=float(env.get("EVALUATION_RETRY_S", cls.evaluation_retry_s)),
            submissions_max_loaded=int(env.get("SUBMISSIONS_MAX_LOADED", cls.submissions_max_loaded)),
            crowd_id_secret=env.get("CROWD_ID_SECRET", ""),
            campaign_joins_per_hour_per_address=int(
                env.get("CAMPAIGN_JOINS_PER_HOUR_PER_ADDRESS", cls.campaign_joins_per_hour_per_address)
            ),
            campaign_joins_per_minute=int(env.get("CAMPAIGN_JOINS_PER_MINUTE", cls.campaign_joins_per_minute)),
            smtp_url=env.get("SMTP_URL", ""),
            mail_from=env.get("MAIL_FROM", ""),
            smtp_timeout_s=float(env.get("SMTP_TIMEOUT_S", cls.smtp_timeout_s)),
            email_token_ttl_seconds=int(env.get("EMAIL_TOKEN_TTL_SECONDS", cls.email_token_ttl_seconds)),
            password_reset_ttl_seconds=int(env.get("PASSWORD_RESET_TTL_SECONDS", cls.password_reset_ttl_seconds)),
            password_resets_per_hour=int(env.get("PASSWORD_RESETS_PER_HOUR", cls.password_resets_per_hour)),
            password_resets_per_hour_per_address=int(
                env.get("PASSWORD_RESETS_PER_HOUR_PER_ADDRESS", cls.password_resets_per_hour_per_address)
            ),
            email_changes_per_hour=int(env.get("EMAIL_CHANGES_PER_HOUR", cls.email_changes_per_hour)),
            email_changes_per_hour_per_address=int(
                env.get("EMAIL_CHANGES_PER_HOUR_PER_ADDRESS", cls.email_changes_per_hour_per_address)
            ),
            public_url=env.get("PUBLIC_URL", "").rstrip("/"),
            webhooks_allow_private=env.get("WEBHOOKS_ALLOW_PRIVATE", "0").strip().lower() in ("1", "true", "yes"),
            webhook_secret_key=env.get("WEBHOOK_SECRET_KEY", ""),
            webhook_timeout_s=float(env.get("WEBHOOK_TIMEOUT_S", cls.webhook_timeout_s)),
            webhook_max_attempts=max(1, int(env.get("WEBHOOK_MAX_ATTEMPTS", cls.webhook_max_attempts))),
            webhook_retry_base_s=float(env.get("WEBHOOK_RETRY_BASE_S", cls.webhook_retry_base_s)),
            webhook_retry_max_s=float(env.get("WEBHOOK_RETRY_MAX_S", cls.webhook_retry_max_s)),
            webhook_disable_after=max(1, int(env.get("WEBHOOK_DISABLE_AFTER", cls.webhook_disable_after))),
            webhooks_per_task=int(env.get("WEBHOOKS_PER_TASK", cls.webhooks_per_task)),
            endpoint_key_secret=env.get("ENDPOINT_KEY_SECRET", ""),
        )


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    settings = Settings.from_env()
    if len(settings.jwt_secret) < 32:
        raise RuntimeError(
            "JWT_SECRET must be set to at least 32 characters: the API refuses to sign sessions with a weak "
            "secret (`dynabench up` generates one in its data directory)."
        )
    return settings


def torch_threads() -> int:
    """torch's threads in this process (training, embeddings): TORCH_THREADS, else every core. On a machine busy with
    other work (the tests) one thread runs several times faster than two that wait on each other at every operation."""
    configured = os.environ.get("TORCH_THREADS", "").strip()
    return max(1, int(configured)) if configured.isdigit() else max(1, os.cpu_count() or 1)
