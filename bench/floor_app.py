"""The cheapest HTTP hop we could put in front of Triton, for bench/api_floor.py: a bare ASGI app (no framework, no
GraphQL, no auth) under the same uvicorn (uvloop, httptools) as the API, that calls the same model with the same
client library and answers its label; with `"store": true` it also inserts the sentence and label into a scratch
table of PostgreSQL (one statement, its own commit) before answering, as createExample must.

    TRITON_URL=... DATABASE_URL=... python -m uvicorn bench.floor_app:app --port P
"""

from __future__ import annotations

import json
import os

import asyncpg
import numpy as np
from tritonclient.http.aio import InferenceServerClient, InferInput

from bench.common import raw_infer

MODEL = os.environ.get("FLOOR_MODEL", "sentiment_minilm")
state: dict = {}


async def _startup() -> None:
    state["triton"] = InferenceServerClient(os.environ["TRITON_URL"], conn_limit=64)
    state["pool"] = await asyncpg.create_pool(os.environ["DATABASE_URL"], min_size=1, max_size=10)
    await state["pool"].execute(
        "CREATE TABLE IF NOT EXISTS floor_examples (id bigserial PRIMARY KEY, text text NOT NULL, label text NOT NULL,"
        " created_at timestamptz NOT NULL DEFAULT now())"
    )


async def _shutdown() -> None:
    await state["triton"].close()
    await state["pool"].close()


async def _answer(body: dict) -> dict:
    tensor = InferInput("statement", [1, 1], "BYTES")
    tensor.set_data_from_numpy(np.array([[body["text"].encode()]], dtype=np.object_))
    result = await raw_infer(state["triton"], MODEL, [tensor])
    label = result.as_numpy("label")[0][0].decode()
    answer = {"label": label}
    if body.get("store"):
        answer["id"] = await state["pool"].fetchval(
            "INSERT INTO floor_examples (text, label) VALUES ($1, $2) RETURNING id", body["text"], label
        )
    return answer


async def app(scope, receive, send) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await _startup()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await _shutdown()
                await send({"type": "lifespan.shutdown.complete"})
                return
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    payload = json.dumps(await _answer(json.loads(b"".join(chunks)))).encode()
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": payload})
