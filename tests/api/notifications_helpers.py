"""GraphQL snippets and a live-feed helper for the notification tests."""

from __future__ import annotations

import json
from contextlib import ExitStack

from websockets.sync.client import connect

INBOX = """query($u: Boolean! = false, $n: Int! = 20, $a: String) {
  notifications(first: $n, after: $a, unreadOnly: $u) {
    edges { cursor node { id kind title body link subjectId badge read } } pageInfo { hasNextPage endCursor } }
  unreadNotificationCount }"""
MARK = """mutation($ids: [ID!], $all: Boolean! = false) { markNotificationsRead(ids: $ids, all: $all) {
  __typename ... on NotificationsMarked { markedIds unreadCount } ... on Error { code message } } }"""
LIVE = "subscription($s: ID) { notificationReceived(since: $s) { id kind title body badge read } }"


def inbox(api, token, unread_only=False, first=20, after=None) -> tuple[list[dict], int]:
    data = api(INBOX, {"u": unread_only, "n": first, "a": after}, token=token)
    return [e["node"] for e in data["notifications"]["edges"]], data["unreadNotificationCount"]


def kinds(api, token) -> list[str]:
    return sorted(n["kind"] for n in inbox(api, token)[0])


class Feed:
    """`notificationReceived` over graphql-transport-ws, as the PWA opens it."""

    def __init__(self, stack, token: str, since: str | None = None):
        self._open = ExitStack()
        url = stack.api_url.replace("http://", "ws://") + "/graphql"
        self.ws = self._open.enter_context(connect(url, subprotocols=["graphql-transport-ws"]))
        self.ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}))
        assert json.loads(self.ws.recv(timeout=30))["type"] == "connection_ack"
        self.ws.send(json.dumps({"id": "n", "type": "subscribe", "payload": {"query": LIVE, "variables": {"s": since}}}))

    def next(self, timeout: float = 120) -> dict:
        while True:
            message = json.loads(self.ws.recv(timeout=timeout))
            if message["type"] == "ping":
                self.ws.send(json.dumps({"type": "pong"}))
                continue
            assert message["type"] == "next" and not message["payload"].get("errors"), message
            return message["payload"]["data"]["notificationReceived"]

    def close(self) -> None:
        self._open.close()
