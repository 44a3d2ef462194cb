"""Errors raised while starting local services."""

from __future__ import annotations

from pathlib import Path


class ServiceStartError(RuntimeError):
    """A local service failed to start; the message names it, says why and shows its log tail."""

    def __init__(self, service: str, reason: str, log_path: Path | None = None, log_tail: str = "") -> None:
        self.service = service
        self.reason = reason
        self.log_path = log_path
        self.log_tail = log_tail
        message = f"{service}: {reason}"
        if log_path is not None:
            message += f"\n--- last lines of {log_path} ---\n{log_tail.rstrip() or '(log is empty)'}"
        super().__init__(message)


class PortInUseError(ServiceStartError):
    """The requested TCP port on 127.0.0.1 is already taken by another process."""

    def __init__(self, service: str, port: int, option: str | None = None) -> None:
        self.port = port
        self.option = option
        reason = f"port {port} on 127.0.0.1 is already in use"
        if option:
            reason += f"; choose another with {option}"
        super().__init__(service, reason)
