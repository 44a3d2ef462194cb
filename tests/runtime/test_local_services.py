"""Real PostgreSQL and Redis started as children on free loopback ports (no mocks), and the free-port checks.

Triton is in tests/runtime/test_local_triton.py, the supervisor (ServiceGroup) in tests/runtime/test_service_group.py.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import asyncpg
import psutil
import pytest
import redis

from server.runtime import LocalPostgres, LocalRedis, PortInUseError, ServiceStartError, ensure_port_free, free_port
from tests.runtime.processes import gone, listening_socket


def _select_one(dsn: str) -> tuple[int, str]:
    async def run() -> tuple[int, str]:
        conn = await asyncpg.connect(dsn)
        try:
            return await conn.fetchval("select 1"), await conn.fetchval("select current_database()")
        finally:
            await conn.close()

    return asyncio.run(run())


# --- ports -------------------------------------------------------------------------------


def test_free_port_and_port_in_use() -> None:
    port = free_port()
    ensure_port_free(port, "Redis", "--redis-port")
    sock, taken = listening_socket()
    with sock, pytest.raises(PortInUseError) as info:
        ensure_port_free(taken, "Redis", "--redis-port")
    assert str(info.value) == (f"Redis: port {taken} on 127.0.0.1 is already in use; choose another with --redis-port")
    assert isinstance(info.value, ServiceStartError)


# --- PostgreSQL --------------------------------------------------------------------------


def test_postgres_start_query_restart_and_reuse(tmp_path: Path) -> None:
    data_dir = tmp_path / "pg"
    pg = LocalPostgres(data_dir)
    try:
        pg.start()
        assert pg.dsn == f"postgresql://postgres@127.0.0.1:{pg.port}/dynabench"
        assert _select_one(pg.dsn) == (1, "dynabench")
        assert _select_one(pg.admin_dsn()) == (1, "postgres")
        pg.psql("create table t (v text); insert into t values ('kept')", database="dynabench")
        assert (data_dir / "postgres.log").exists()
        if os.geteuid() == 0:  # postgres refuses root: it runs as the embedded_postgres user
            assert psutil.Process(pg.pid).username() == "embedded_postgres"
        old_pid, port = pg.pid, pg.port
        pg.restart()
        assert pg.port == port and pg.pid != old_pid
        assert pg.psql("select v from t", database="dynabench").strip() == "kept"
    finally:
        pg.stop()
        pg.stop()  # idempotent
    assert pg.poll() == 0
    # Same data dir, new instance and port: no second initdb, data still there.
    again = LocalPostgres(data_dir, port=free_port())
    with again:
        assert again.psql("select v from t", database="dynabench").strip() == "kept"
    assert gone([again.process.pid])


def test_postgres_settings_from_the_environment_reach_the_server(tmp_path: Path, monkeypatch) -> None:
    from server.runtime.postgres import settings_from_env

    monkeypatch.setenv("POSTGRES_SETTINGS", " shared_preload_libraries=pg_stat_statements ; work_mem=12MB;")
    settings = settings_from_env()
    assert settings == {"shared_preload_libraries": "pg_stat_statements", "work_mem": "12MB"}
    with LocalPostgres(tmp_path / "pg", durable=False, settings=settings) as pg:
        assert pg.psql("show work_mem").strip() == "12MB"
        assert pg.psql("show shared_preload_libraries").strip() == "pg_stat_statements"
        pg.psql("create extension pg_stat_statements; select count(*) from pg_stat_statements", database="dynabench")
    for bad in ("work_mem", "=1", "work_mem=", "a b=1", "x=1;; y"):
        with pytest.raises(ServiceStartError, match=r"POSTGRES_SETTINGS: .* is not key=value"):
            settings_from_env(bad)


def test_postgres_port_in_use(tmp_path: Path) -> None:
    sock, taken = listening_socket()
    with sock, pytest.raises(PortInUseError, match=f"port {taken} .*--postgres-port"):
        LocalPostgres(tmp_path / "pg", port=taken).start()
    assert not (tmp_path / "pg" / "pgdata").exists()


def test_postgres_deep_data_dir_uses_short_socket_dir(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    pg = LocalPostgres(deep, durable=False, database="other")
    with pg:
        assert pg.socket_dir != deep
        assert (pg.socket_dir / f".s.PGSQL.{pg.port}").exists()
        assert _select_one(pg.dsn) == (1, "other")


# --- Redis -------------------------------------------------------------------------------


def test_redis_ping_aof_and_restart(tmp_path: Path) -> None:
    rd = LocalRedis(tmp_path / "redis")
    try:
        rd.start()
        assert rd.url == f"redis://127.0.0.1:{rd.port}/0"
        client = redis.Redis.from_url(rd.url)
        assert client.ping()
        client.set("greeting", "hello")
        assert client.get("greeting") == b"hello"
        client.close()
        rd.restart()
        assert rd.aof_path.exists()
        client = redis.Redis.from_url(rd.url)
        assert client.get("greeting") == b"hello"
        client.close()
    finally:
        rd.stop()
    assert rd.poll() == 0


def test_redis_port_in_use_and_start_error_has_log_tail(tmp_path: Path) -> None:
    sock, taken = listening_socket()
    with sock, pytest.raises(PortInUseError, match="--redis-port"):
        LocalRedis(tmp_path / "r1", port=taken).start()
    bad = LocalRedis(tmp_path / "r2", extra_args=["--no-such-directive", "1"])
    with pytest.raises(ServiceStartError) as info:
        bad.start()
    message = str(info.value)
    assert message.startswith("Redis: exited with code")
    assert "no-such-directive" in message  # from redis.log
    assert not bad.running
