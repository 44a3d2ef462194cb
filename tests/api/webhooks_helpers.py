"""A real HTTP receiver for webhook tests (a thread on 127.0.0.1 that records every request and answers the status
codes it is told to), and the GraphQL snippets the webhook tests share."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ERR = "... on InputError { code message fields { field message } } ... on Error { code message }"
HOOK = "id url events description enabled consecutiveFailures disabledReason disabledAt createdAt"
CREATE = f"""mutation($t: String!, $u: String!, $e: [WebhookEventType!]!, $d: String! = "") {{
  createWebhook(taskCode: $t, url: $u, events: $e, description: $d) {{
    __typename ... on WebhookCreated {{ secret webhook {{ {HOOK} }} }} {ERR} }} }}"""
UPDATE = f"""mutation($id: ID!, $u: String, $e: [WebhookEventType!], $d: String, $on: Boolean) {{
  updateWebhook(webhookId: $id, url: $u, events: $e, description: $d, enabled: $on) {{
    __typename ... on WebhookSaved {{ webhook {{ {HOOK} }} }} {ERR} }} }}"""
DELETE = f"mutation($id: ID!) {{ deleteWebhook(webhookId: $id) {{ __typename ... on WebhookDeleted {{ id }} {ERR} }} }}"
LIST = f"query($t: String!) {{ webhooks(taskCode: $t) {{ {HOOK} }} }}"
DELIVERIES = """query($id: ID!, $n: Int! = 20, $a: String) { webhookDeliveries(webhookId: $id, first: $n, after: $a) {
  edges { cursor node { id eventId event status attemptCount payload lastStatusCode lastError nextAttemptAt deliveredAt
                        attempts { number statusCode error durationMs at } } }
  pageInfo { hasNextPage endCursor } } }"""


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class Receiver:
    """`answer(500, 500)` makes the next two requests fail; after the plan, every request gets `default`."""

    def __init__(self) -> None:
        self.requests: list[Received] = []
        self.plan: list[int] = []
        self.default = 200
        self._changed = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver._changed:
                    status = receiver.plan.pop(0) if receiver.plan else receiver.default
                    receiver.requests.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    receiver._changed.notify_all()
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, name="webhook-receiver", daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def answer(self, *codes: int, default: int = 200) -> None:
        with self._changed:
            self.plan, self.default = list(codes), default

    def wait_for(self, count: int, timeout: float = 90) -> list[Received]:
        """The first `count` requests, once they have arrived (fails if they never do)."""
        with self._changed:
            assert self._changed.wait_for(lambda: len(self.requests) >= count, timeout), (
                f"{len(self.requests)} of {count} webhook requests arrived"
            )
            return list(self.requests[:count])

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
