"""Shared by the tests/security/test_holes_*.py files: GraphQL over HTTP from a chosen client address (an
X-Forwarded-For header, believed only by an API process that trusts the test's loopback proxy), and a
graphql-transport-ws client that reports how the server closed the socket."""

from __future__ import annotations

import json
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

PASSWORD = "correct horse battery"
SIGN_UP = """mutation($i: SignUpInput!) { signUp(input: $i) {
  __typename ... on AuthPayload { token } ... on Error { code message } ... on RateLimitedError { retryAfterSeconds } } }"""
LOG_IN = """mutation($i: LogInInput!) { logIn(input: $i) {
  __typename ... on AuthPayload { token } ... on Error { code message } ... on RateLimitedError { retryAfterSeconds } } }"""


class Client:
    """GraphQL over HTTP to one API process, optionally as if forwarded for `address`."""

    def __init__(self, url: str, address: str | None = None):
        self.url, self.address = url, address
        self.http = httpx.Client(base_url=url, timeout=60)

    def headers(self, token: str | None) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if self.address:
            headers["X-Forwarded-For"] = self.address
        return headers

    def body(self, query: str, variables: dict | None = None, token: str | None = None) -> dict:
        response = self.http.post("/graphql", json={"query": query, "variables": variables or {}}, headers=self.headers(token))
        assert response.status_code in (200, 400), response.text
        return response.json()

    def __call__(self, query: str, variables: dict | None = None, token: str | None = None) -> dict:
        body = self.body(query, variables, token)
        assert not body.get("errors"), body["errors"]
        return body["data"]

    def sign_up(self, username: str) -> dict:
        return self(SIGN_UP, {"i": {"username": username, "password": PASSWORD}})["signUp"]

    def token(self, username: str) -> str:
        result = self.sign_up(username)
        assert result["__typename"] == "AuthPayload", result
        return result["token"]

    def log_in(self, username: str, password: str) -> dict:
        return self(LOG_IN, {"i": {"username": username, "password": password}})["logIn"]

    def close(self) -> None:
        self.http.close()


class Socket:
    """One graphql-transport-ws connection."""

    def __init__(self, url: str, token: str | None):
        self.ws: ClientConnection = connect(url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"])
        self.ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"} if token else {}}))
        self.serial = 0

    def acknowledged(self) -> bool:
        message = self.receive()
        return message is not None and message["type"] == "connection_ack"

    def subscribe(self, query: str, variables: dict | None = None) -> str:
        self.serial += 1
        operation = str(self.serial)
        self.ws.send(
            json.dumps({"id": operation, "type": "subscribe", "payload": {"query": query, "variables": variables or {}}})
        )
        return operation

    def receive(self, timeout: float = 60) -> dict[str, Any] | None:
        """The next message that is not a ping; None once the server closed the socket."""
        while True:
            try:
                message = json.loads(self.ws.recv(timeout=timeout))
            except ConnectionClosed:
                return None
            if message["type"] == "ping":
                self.ws.send(json.dumps({"type": "pong"}))
                continue
            return message

    def closed_with(self, timeout: float = 60) -> tuple[int | None, str]:
        """Read until the server closes the socket: its close code and reason."""
        while self.receive(timeout) is not None:
            pass
        return self.ws.close_code, self.ws.close_reason or ""

    def close(self) -> None:
        self.ws.close()
