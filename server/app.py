"""The Litestar application: GraphQL (HTTP + graphql-transport-ws), health, and the PWA."""

from __future__ import annotations

import asyncio
import logging
import shutil
from contextlib import asynccontextmanager
from pathlib import Path

from litestar import Litestar, MediaType, Response, get
from litestar.background_tasks import BackgroundTask
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.response import File, Stream
from litestar.static_files import create_static_files_router
from strawberry.http.websocket_origin import normalize_allowed_origins
from strawberry.litestar import make_graphql_controller
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL

from server import listeners  # noqa: F401  (importing it registers every domain's listeners)
from server.accounts.service import upload_refusal_checker
from server.annotation.conversations import replies
from server.core import db
from server.core.body_limits import body_limit_middleware
from server.core.client_address import trusted_proxies
from server.core.heap import freeze_startup_heap
from server.core.i18n import Text
from server.core.security_headers import SecurityHeaders
from server.core.services import Services
from server.core.settings import Settings, get_settings
from server.graphql.core.context import GraphQLContext
from server.graphql.core.http_view import harden as harden_http_view
from server.graphql.schema import build_schema
from server.observability import graphql as graphql_metrics
from server.observability.http import RequestContext, log_unhandled, metrics_handler
from server.observability.metrics import watch_event_loop
from server.offline.routes import offline_model_file

log = logging.getLogger("dynabench.app")


@get("/health", media_type=MediaType.JSON, include_in_schema=False)
async def health(state: State) -> Response:
    services: Services = state.services
    checks = await services.health()
    ok = all(check["ok"] for check in checks.values())
    return Response({"status": "ok" if ok else "degraded", "services": checks}, status_code=200 if ok else 503)


@get("/health/live", media_type=MediaType.JSON, include_in_schema=False)
async def health_live() -> Response:
    """The process answers (a liveness probe: restarting it cures nothing that a dependency's outage causes)."""
    return Response({"status": "alive"}, status_code=200)


# What every request needs; the Tritons are not: while one is down examples wait as pending and the rest works.
READY_NEEDS = ("database", "redis")


@get("/health/ready", media_type=MediaType.JSON, include_in_schema=False)
async def health_ready(state: State) -> Response:
    """Whether to send this process traffic (a readiness probe): PostgreSQL and Redis reachable. /health reports all."""
    checks = await state.services.health()
    ready = all(checks[name]["ok"] for name in READY_NEEDS)
    return Response({"status": "ready" if ready else "not ready", "services": checks}, status_code=200 if ready else 503)


@get("/exports/{token:str}", include_in_schema=False)
async def download_export(token: str, state: State) -> Response | Stream | File:
    """Streams an export whose link `exportRound` issued (the link is the credential, for 15 minutes)."""
    from server.annotation.exports import service as export_service
    from server.core.errors import ServiceError
    from server.tasks.service import get_round

    secret = state.services.settings.jwt_secret
    try:
        round_id, fmt = export_service.read_link_token(token, secret)
        await get_round(round_id)
    except ServiceError as exc:
        return Response({"error": exc.message}, status_code=404 if exc.code == "NOT_FOUND" else 403)
    key = export_service.anonymisation_key(secret)
    if fmt in ("jsonl", "preferences"):
        return Stream(
            export_service.jsonl_chunks(round_id, key, fmt),
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{await export_service.export_file_name(round_id, fmt)}"'},
        )
    try:
        archive, name = await export_service.hf_archive(round_id, key, state.services.settings.export_scratch_dir or None)
    except ServiceError as exc:  # a full disk (server/core/disk.py)
        return Response({"error": exc.message}, status_code=503, headers={"Retry-After": "60"})
    return File(
        path=archive,
        filename=name,
        media_type="application/gzip",
        background=BackgroundTask(shutil.rmtree, archive.parent, ignore_errors=True),
    )


def create_app(settings: Settings | None = None) -> Litestar:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: Litestar):
        await db.wait_for_database(settings.database_url)
        await db.start_pool(settings.db_pool_max)
        services = await Services.start(settings)
        app.state.services = services
        # Export archives' folders a crashed process of this host left (the worker's storage sweep cannot see the
        # temporary folder of an API container; only stale ones: another process here may be streaming one now).
        from server.annotation.exports.service import sweep_scratch

        await asyncio.to_thread(sweep_scratch, settings.export_scratch_dir or None)
        frozen = freeze_startup_heap()
        log.info("API ready (%s objects of startup kept out of garbage collection)", frozen)
        lag = asyncio.create_task(watch_event_loop())
        try:
            yield
        finally:
            lag.cancel()
            await replies.cancel_running()  # each stores its text so far as a failed reply, to retry
            await services.close()
            await db.close_pool()

    # ALLOWED_ORIGINS as browsers send an Origin ("https://a.example/" -> "https://a.example"), for CORS and
    # websocket handshakes alike; a value that is not an origin stops the start with a clear error.
    origins = sorted(normalize_allowed_origins(settings.allowed_origins))
    trusted_proxies(settings.trusted_proxies)  # TRUSTED_PROXIES that are not IPs or networks stop the start

    async def context_getter(state: State) -> GraphQLContext:
        return GraphQLContext(services=state.services)

    schema = build_schema(settings)
    graphql_metrics.install(schema)
    graphql = make_graphql_controller(
        schema,
        path="/graphql",
        context_getter=context_getter,
        subscription_protocols=[GRAPHQL_TRANSPORT_WS_PROTOCOL],
        allowed_origins=origins,
        graphql_ide="graphiql",
        multipart_uploads_enabled=True,
        keep_alive=True,
        keep_alive_interval=15,
    )
    graphql = harden_http_view(
        graphql,
        settings.query_tokens_max,
        settings.request_body_max_bytes,
        lambda request: GraphQLContext(services=request.app.state.services),
    )
    route_handlers: list = [
        graphql,
        health,
        health_live,
        health_ready,
        download_export,
        offline_model_file,
        metrics_handler(settings.metrics_token),
    ]
    dist = Path(settings.pwa_dist) if settings.pwa_dist else Path(__file__).resolve().parent.parent / "pwa" / "dist"
    if (dist / "index.html").exists():
        route_handlers.append(create_static_files_router(path="/", directories=[dist], html_mode=True, name="pwa"))
    cors = CORSConfig(allow_origins=origins) if origins else None
    app = Litestar(
        route_handlers=route_handlers,
        lifespan=[lifespan],
        cors_config=cors,
        middleware=[
            body_limit_middleware(
                settings.request_body_max_bytes,
                settings.upload_max_bytes + 1024 * 1024,
                upload_refusal_checker(settings.jwt_secret),
            )
        ],
        # The middleware enforces the real limits per content type; this is only the outer bound.
        request_max_body_size=settings.upload_max_bytes + 1024 * 1024,
        # Logging is configured by `dynabench serve` (LOG_FORMAT, redaction); Litestar's default config
        # would replace the root handler. Unhandled exceptions are logged by log_unhandled instead.
        logging_config=None,
        after_exception=[log_unhandled],
        type_encoders={Text: str},  # a translatable message (server/core/i18n.py) is a str in any response
    )
    # Outside the router, so that every request (404s and 413s included) gets a request id, is counted and carries the
    # security headers.
    app.asgi_handler = RequestContext(SecurityHeaders(app.asgi_handler), log_requests=settings.access_log)
    return app
