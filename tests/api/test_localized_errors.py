"""Refusals in the reader's language (server/core/i18n.py): the PWA sends its UI language as Accept-Language (over
WebSocket as the `locale` connection parameter); expected errors, their field messages and a query's public errors
come back in it. Without a supported language, English, unchanged."""

from __future__ import annotations

import json

from strawberry import relay
from websockets.sync.client import connect

from server.core.i18n import tr, translate
from tests.conftest import seed_builtin_tasks

RETRACT = "mutation($id: ID!) { retractExample(exampleId: $id) { __typename ... on Error { code message } } }"
SIGN_UP = "mutation($i: SignUpInput!) { signUp(input: $i) { __typename ... on InputError { message fields { field message } } } }"
NO_SUCH_EXAMPLE = tr("{what} does not exist.", what=tr("That example"))


def _post(api, query: str, variables: dict, language: str | None, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if language is not None:
        headers["Accept-Language"] = language
    response = api.http.post("/graphql", json={"query": query, "variables": variables}, headers=headers)
    assert response.status_code in (200, 400), response.text
    return response.json()


def test_a_mutation_refusal_in_each_language(api):
    token = api.sign_up("reader")
    missing = relay.to_base64("Example", 424242)
    said = {}
    for language in ("es-ES,es;q=0.9,en;q=0.5", "fr", "ar", "de", None):
        result = _post(api, RETRACT, {"id": missing}, language, token)["data"]["retractExample"]
        assert result["__typename"] == "NotFoundError" and result["code"] == "NOT_FOUND"
        said[language] = result["message"]
    assert said[None] == said["de"] == "That example does not exist."  # English, exactly as before
    assert said["es-ES,es;q=0.9,en;q=0.5"] == translate(NO_SUCH_EXAMPLE, "es")
    assert said["fr"] == translate(NO_SUCH_EXAMPLE, "fr")
    assert said["ar"] == translate(NO_SUCH_EXAMPLE, "ar")
    assert len(set(said.values())) == 4  # English, Spanish, French, Arabic: four different sentences
    assert not any("{" in message or "That example" in message for language, message in said.items() if language in ("fr", "ar"))


def test_field_messages_are_translated_too(api):
    english = _post(api, SIGN_UP, {"i": {"username": "x", "password": "short"}}, None)["data"]["signUp"]
    spanish = _post(api, SIGN_UP, {"i": {"username": "x", "password": "short"}}, "es")["data"]["signUp"]
    assert english["__typename"] == spanish["__typename"] == "InputError"
    assert [f["field"] for f in spanish["fields"]] == [f["field"] for f in english["fields"]] != []
    for before, after in zip(english["fields"], spanish["fields"], strict=True):
        assert after["message"] != before["message"], after
    assert spanish["message"] != english["message"]


def test_a_query_error_in_the_readers_language(api):
    english = _post(api, "{ tasks(first: 100000) { edges { node { code } } } }", {}, None)["errors"][0]
    french = _post(api, "{ tasks(first: 100000) { edges { node { code } } } }", {}, "fr")["errors"][0]
    assert english["extensions"]["code"] == french["extensions"]["code"] == "PAGE_SIZE"
    assert english["message"].startswith("`first` must be between 1 and ")
    assert french["message"] != english["message"] and "`first`" in french["message"]


def test_a_subscription_error_in_the_connections_language(stack, api):
    seed_builtin_tasks()
    task_id = api('{ task(code: "qa") { id } }')["task"]["id"]
    messages = {}
    for locale in ("es", None):
        with connect(stack.api_url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"]) as ws:
            ws.send(json.dumps({"type": "connection_init", "payload": {"locale": locale} if locale else {}}))
            assert json.loads(ws.recv(timeout=30))["type"] == "connection_ack"
            query = "subscription($id: ID!) { roundStats(roundId: $id) { number } }"
            ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query, "variables": {"id": task_id}}}))
            message = json.loads(ws.recv(timeout=30))
            errors = message["payload"] if message["type"] == "error" else message["payload"]["errors"]
            messages[locale] = errors[0]["message"]
    assert "not a Round id" in messages[None]
    assert messages["es"] != messages[None] and "is not a" not in messages["es"]
