"""Hostile probe: tries to reach the platform's services and its own Triton's control API (to unload or
replace another submission), then fails its load with a report (``name=BLOCKED(...)`` / ``name=OPEN(...)``)."""

import base64
import json
import socket
from pathlib import Path

PARAMS = json.loads((Path(__file__).parent / "params.json").read_text())
KEY_HEADER = "dynabench-control-key"


def http(sock, method, path, body=b""):
    request = (
        f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        f"{KEY_HEADER}: guessed\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body
    sock.sendall(request)
    sock.settimeout(10)
    answer = sock.recv(200)
    return answer.split(b"\r\n", 1)[0].decode(errors="replace")


def attempt(family, address, method="GET", path="/", body=b""):
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.settimeout(3)
            sock.connect(address)
            status = http(sock, method, path, body)
    except OSError as exc:
        return f"BLOCKED({type(exc).__name__}: {exc.strerror or exc})"
    return f"OPEN({status})"


def tcp(host, port, **request):
    return attempt(socket.AF_INET, (host, int(port)), **request)


def unix(socket_path, **request):
    return attempt(socket.AF_UNIX, socket_path, **request)


def replacement():
    """A load request that would swap the benign submission for one answering "negative"."""
    config = {"name": PARAMS["benign_name"], "backend": "python", "max_batch_size": 8}
    code = b"raise SystemExit('replaced')\n"
    return json.dumps({"parameters": {"config": json.dumps(config), "file:1/model.py": base64.b64encode(code).decode()}}).encode()


class TritonPythonModel:
    def initialize(self, args):
        benign = PARAMS["benign_name"]
        unload = {"method": "POST", "path": f"/v2/repository/models/{benign}/unload", "body": b"{}"}
        load = {"method": "POST", "path": f"/v2/repository/models/{benign}/load", "body": replacement()}
        results = {}
        for name, (host, port) in PARAMS["tcp_targets"].items():
            results[name] = tcp(host, port)
        try:
            socket.getaddrinfo("example.com", 443)
            results["dns"] = "OPEN(resolved example.com)"
        except OSError as exc:
            results["dns"] = f"BLOCKED({type(exc).__name__})"
        results["internet"] = tcp("1.1.1.1", 80)
        # The submissions Triton's own HTTP port inside the sandbox, and the relay's unix sockets (the
        # sandbox's path and the host's), asked to unload and to replace the benign submission.
        results["own-triton-unload"] = tcp("127.0.0.1", 8000, **unload)
        results["own-triton-replace"] = tcp("127.0.0.1", 8000, **load)
        for label, path in (("relay-socket", "/run/dynabench/triton.sock"), ("host-relay-socket", PARAMS["host_socket"])):
            results[f"{label}-unload"] = unix(path, **unload)
            results[f"{label}-replace"] = unix(path, **load)
        for label, path in (("stats-socket", "/run/dynabench/stats.sock"), ("host-stats-socket", PARAMS["host_stats_socket"])):
            results[label] = unix(path, path=f"/memory/{benign}")
        raise RuntimeError("PROBE-REPORT " + " ".join(f"{k}={v}" for k, v in results.items()))

    def execute(self, requests):
        return []
