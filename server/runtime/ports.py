"""Loopback TCP port helpers."""

from __future__ import annotations

import socket
import threading
from collections import deque

from server.runtime.errors import PortInUseError

HOST = "127.0.0.1"

# Ports handed out recently by this process: the kernel may offer the same ephemeral
# port twice before the first caller has bound it, so we skip repeats.
_recent: deque[int] = deque(maxlen=256)
_recent_lock = threading.Lock()


def port_is_free(port: int, host: str = HOST) -> bool:
    """True if a server could bind ``host:port`` right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # Servers set SO_REUSEADDR themselves, so a port in TIME_WAIT is usable; on Linux the
        # bind still fails while any socket is listening on the port.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing is bound to."""
    for _ in range(100):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind((HOST, 0))
            port = sock.getsockname()[1]
        with _recent_lock:
            if port in _recent:
                continue
            _recent.append(port)
        return port
    raise RuntimeError("could not find a free TCP port on 127.0.0.1")


def ensure_port_free(port: int, service: str, option: str | None = None) -> None:
    """Raise PortInUseError if ``port`` on 127.0.0.1 is taken."""
    if not port_is_free(port):
        raise PortInUseError(service, port, option)


def port_accepts(port: int, host: str = HOST, timeout: float = 0.5) -> bool:
    """True if something accepts TCP connections on ``host:port``."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False
