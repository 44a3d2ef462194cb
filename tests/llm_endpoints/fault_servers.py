"""Real misbehaving HTTP servers on 127.0.0.1 for the failure tests: one that accepts connections and never answers,
and one that answers every chat completion with an error whose body echoes the request's headers and address (as
some proxies do), to check that nothing of it reaches a message or a log."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@contextmanager
def black_hole() -> Iterator[str]:
    """A base URL whose server completes the TCP handshake (the listen backlog) and never says a word."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    finally:
        sock.close()


@contextmanager
def echoing_server(status: int) -> Iterator[str]:
    """A base URL whose every POST is answered with `status` and an error message holding the request's headers."""

    class Echo(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            headers = dict(self.headers.items())
            message = f"rejected {self.command} http://{self.headers.get('Host')}{self.path} with headers {headers}"
            body = json.dumps({"error": {"message": message, "type": "proxy_error"}}).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
