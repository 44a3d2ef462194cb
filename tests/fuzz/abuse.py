"""Helpers of the abuse tests: what a refusal looks like, and that it wrote nothing."""

from __future__ import annotations

import json

from tests.fuzz.harness import assert_clean
from tests.fuzz.world import World

SIGN_UP = 'signUp(input: {{username: "abuser{i}", password: "correct horse battery"}}) {{ __typename }}'


def sender(world: World):
    def send(body, viewer="alice", content_type="application/json", method="POST"):
        headers = {"content-type": content_type}
        if world.tokens.get(viewer):
            headers["Authorization"] = f"Bearer {world.tokens[viewer]}"
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        return world.http.request(method, "/graphql", content=content, headers=headers)

    return send


def refusal(response) -> str:
    """The refusal's message: a 4xx (a short plain text or JSON) or GraphQL errors without data."""
    assert response.status_code < 500, (response.status_code, response.text[:300])
    if response.status_code >= 400:
        try:
            body = response.json()
            message = body.get("detail") or body["errors"][0]["message"]
        except ValueError:
            message = response.text
    else:
        body = response.json()
        assert body.get("errors") and not body.get("data"), body
        message = " | ".join(error["message"] for error in body["errors"])
    assert_clean([message], response.request.url)
    return message


def refused(world: World, send, body, expected: str, **kwargs) -> None:
    """`body` is refused with a message containing `expected`, and no table changed."""
    before = world.db.fingerprint()
    message = refusal(send(body, **kwargs))
    assert expected.lower() in message.lower(), message
    assert world.db.fingerprint() == before
