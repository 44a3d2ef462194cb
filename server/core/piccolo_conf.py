"""Piccolo configuration: one engine from DATABASE_URL, one Piccolo app per domain."""

import os

from piccolo.conf.apps import AppRegistry
from piccolo.engine.postgres import PostgresEngine

DB = PostgresEngine(
    config={"dsn": os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/dynabench")},
    log_queries=False,
)

APP_REGISTRY = AppRegistry(
    apps=[
        "server.accounts.piccolo_app",
        "server.tasks.piccolo_app",
        "server.annotation.piccolo_app",
        "server.evaluation.piccolo_app",
        "server.training.piccolo_app",
        "server.campaigns.piccolo_app",
        "server.notifications.piccolo_app",
        "server.webhooks.piccolo_app",
        "server.admin.piccolo_app",
        "server.domain_events.piccolo_app",
        "server.generation.endpoints.piccolo_app",
    ]
)
