"""Fixtures of the fuzz suite: one HTTP client, one database connection, the sentiment target model, and a
fresh fuzz world per module.

Hypothesis profiles: `ci` (the default) is derandomized and keeps no example database, so every run
tries exactly the same cases and a CI failure reproduces locally. For bug hunting, run with
`HYPOTHESIS_PROFILE=explore` (random seeds, failures remembered in .hypothesis/): each run then tries new
cases; turn any failure it finds into an `@example(...)` on the test.
"""

from __future__ import annotations

import os
import shutil

import httpx
import pytest
from hypothesis import HealthCheck, settings

from tests.conftest import MODEL_CACHE, TRAINING_DATA, target_triton
from tests.fuzz.abuse import sender
from tests.fuzz.harness import Fuzzer
from tests.fuzz.world import QA_TARGET, TARGET, Database, build_world

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Every fuzz test: 200 generated cases, no per-case deadline (the stack shares two cores with other
# work). The `fuzzer` fixture is deliberately per test, not per case (it counts outcomes of all cases).
FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


@pytest.fixture(scope="session")
def fuzz_http(stack):
    with httpx.Client(base_url=stack.api_url, timeout=60) as client:
        yield client


@pytest.fixture(scope="session")
def fuzz_db(stack):
    database = Database(os.environ["DATABASE_URL"])
    yield database
    database.close()


@pytest.fixture(scope="session")
def fuzz_targets(stack) -> list[str]:
    """The sentiment and QA target models the world's rounds use, loaded into the target Triton (fast
    profile, cached build)."""

    from server.modelbuild import build_models

    built = {model.name: model for model in build_models(MODEL_CACHE, profile="fast", data=TRAINING_DATA)}
    client = target_triton(stack)
    for name in (TARGET, QA_TARGET):
        destination = stack.model_repository / name
        if not destination.exists():
            shutil.copytree(built[name].path, destination)
        client.load_model(name)
    client.close()
    return [TARGET, QA_TARGET]


@pytest.fixture(scope="module")
def world(fuzz_http, fuzz_db, fuzz_targets):
    return build_world(fuzz_http, fuzz_db)


@pytest.fixture
def fuzzer(world):
    """Sends one test's cases; after all of them, checks that enough got past GraphQL validation into
    the resolver (a fuzzer stopped at the door tests nothing)."""
    fuzzer = Fuzzer(world)
    yield fuzzer
    fuzzer.assert_reached_resolver()


@pytest.fixture(scope="module")
def send(world):
    """POST a body (JSON-encoded unless bytes) as one of the world's viewers."""
    return sender(world)
