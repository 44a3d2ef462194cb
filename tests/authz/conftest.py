"""Fixtures of the authorization tests: one world per test module (see world.py)."""

import pytest

from tests.authz.world import build_world, load_qa_target


@pytest.fixture(scope="module")
def world(stack, request):
    load_qa_target(stack, request)
    built = build_world(stack)
    yield built
    built.api.http.close()
