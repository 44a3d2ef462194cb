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
    model_store_dir: str = ".dynabench/model_store"
    upload_max_bytes: int = 2 * 1024**3
    upload_max_files: int = 1000
    uploads_per_day: int = 5
    # The target Triton's model repository, writable by the worker: retraining adds versions there.
    target_model_repository: str = ""
    login_max_failures: int = 10  # per username per window; 0 turns the limit off
    login_window_seconds: int = 900
    submissions_per_minute: int = 0  # per user (createExample incl. sandbox, submitExamples items); 0 = no limit
    metrics_token: str = ""  # when set, GET /metrics needs `Authorization: Bearer <token>`
    access_log: bool = False  # one structured line per HTTP request (route template, status, duration, request id)
    worker_metrics_port: int = 0  # the worker's Prometheus endpoint; 0 = not served
    worker_metrics_host: str = "127.0.0.1"

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
            model_store_dir=env.get("MODEL_STORE_DIR", cls.model_store_dir),
            upload_max_bytes=int(env.get("UPLOAD_MAX_BYTES", cls.upload_max_bytes)),
            upload_max_files=int(env.get("UPLOAD_MAX_FILES", cls.upload_max_files)),
            uploads_per_day=int(env.get("UPLOADS_PER_DAY", cls.uploads_per_day)),
            target_model_repository=env.get("TARGET_MODEL_REPOSITORY", ""),
            login_max_failures=int(env.get("LOGIN_MAX_FAILURES", cls.login_max_failures)),
            login_window_seconds=int(env.get("LOGIN_WINDOW_SECONDS", cls.login_window_seconds)),
            submissions_per_minute=int(env.get("SUBMISSIONS_PER_MINUTE", cls.submissions_per_minute)),
            metrics_token=env.get("METRICS_TOKEN", ""),
            access_log=env.get("ACCESS_LOG", "0") == "1",
            worker_metrics_port=int(env.get("WORKER_METRICS_PORT") or 0),
            worker_metrics_host=env.get("WORKER_METRICS_HOST", cls.worker_metrics_host),
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
