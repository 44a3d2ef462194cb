"""Fixtures of the LLM endpoint tests: one real `transformers serve` for the session (llm_server.py), and the
in-process Services the streaming function takes (Redis and the database of the session's stack)."""

from __future__ import annotations

import pytest

from tests.llm_endpoints.llm_server import LlmServer, build_tiny_chat_model, demo_model_directory


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory):
    return build_tiny_chat_model(tmp_path_factory.mktemp("tiny-chat-model") / "model")


@pytest.fixture(scope="session")
def llm_server(tmp_path_factory, tiny_model):
    """`transformers serve` for the session: the built demo model if the cache has it, else the tiny one."""
    logs = tmp_path_factory.mktemp("llm-server")
    server = LlmServer(demo_model_directory() or tiny_model, logs / "transformers-serve.log").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def services(stack):
    from server.core.services import Services
    from server.core.settings import Settings

    started = await Services.start(Settings.from_env())
    try:
        yield started
    finally:
        await started.close()
