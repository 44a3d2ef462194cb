"""The SDK's retraining calls against the real stack, without training (the whole run, followed live through
`wait_for_training`, is `dynabench train`'s test: tests/api/test_training.py::test_cli_train_follows_the_run_to_the_end)."""

from __future__ import annotations

import base64

import pytest

from dynabench_client import Client, InputError, NotFoundError, PermissionDeniedError
from tests.conftest import seed_builtin_tasks


def test_a_retraining_is_refused_with_the_reason_and_bad_input_is_named(stack, api, admin_token):
    seed_builtin_tasks()
    with Client(stack.api_url, admin_token, progress=False) as owner:
        with pytest.raises(InputError) as refused:
            owner.train_target_model("sentiment", [5], profile="fast")
        assert "the task has no round 5" in str(refused.value)
        with pytest.raises(ValueError, match="profile must be one of"):
            owner.train_target_model("sentiment", [1], profile="quick")
        missing = base64.b64encode(b"TrainingRun:999999").decode()
        with pytest.raises(NotFoundError):
            owner.training_run(missing)
    stranger = api.sign_up("sdk-trainer")
    with Client(stack.api_url, stranger, progress=False) as client, pytest.raises((PermissionDeniedError, NotFoundError)):
        client.train_target_model("sentiment", [1], profile="fast")
