"""Real local services (PostgreSQL, Redis, Triton) run as supervised child processes.

Used by ``dynabench up`` and by pytest fixtures. Everything binds to 127.0.0.1.
"""

from server.runtime.errors import PortInUseError, ServiceStartError
from server.runtime.ports import ensure_port_free, free_port, port_is_free
from server.runtime.postgres import LocalPostgres
from server.runtime.redis import LocalRedis
from server.runtime.supervisor import ServiceGroup
from server.runtime.triton import LocalTriton, prepare_triton_runtime, triton_environment

__all__ = [
    "LocalPostgres",
    "LocalRedis",
    "LocalTriton",
    "PortInUseError",
    "ServiceGroup",
    "ServiceStartError",
    "ensure_port_free",
    "free_port",
    "port_is_free",
    "prepare_triton_runtime",
    "triton_environment",
]
