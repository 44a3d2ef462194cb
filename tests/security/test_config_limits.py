"""uploadModel refuses a config.pbtxt that asks for more than submitted models may use (GPUs, too many instances,
a too large batch, server-side features, unknown parameters), before anything is stored or deployed; an accepted
config without a device kind is loaded into the submissions Triton on CPU."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

import pytest

from tests.api.examples_helpers import wait_until
from tests.api.models_helpers import model_status, upload_model
from tests.conftest import loaded_submissions, run_sql, seed_builtin_tasks, submissions_triton

# A sentiment model that follows the I/O contract without torch: every statement is "negative".
MODEL_PY = b"""import numpy as np
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        responses = []
        for request in requests:
            n = pb_utils.get_input_tensor_by_name(request, "statement").as_numpy().shape[0]
            label = np.array([[b"negative"]] * n, dtype=object)
            probs = np.tile(np.array([[1.0, 0.0, 0.0]], dtype=np.float32), (n, 1))
            responses.append(pb_utils.InferenceResponse([pb_utils.Tensor("label", label), pb_utils.Tensor("probs", probs)]))
        return responses
"""
CONFIG = """name: "limited"
backend: "python"
max_batch_size: 8
input [ { name: "statement" data_type: TYPE_STRING dims: [ 1 ] } ]
output [ { name: "label" data_type: TYPE_STRING dims: [ 1 ] }, { name: "probs" data_type: TYPE_FP32 dims: [ 3 ] } ]
parameters { key: "task" value: { string_value: "sentiment" } }
parameters { key: "labels" value: { string_value: "[\\"negative\\", \\"positive\\", \\"neutral\\"]" } }
"""
REFUSED = {
    "gpu": (
        "instance_group [ { kind: KIND_GPU } ]",
        "instance_group #1 asks for KIND_GPU, which runs the instances on GPUs; submitted models run on CPU here",
    ),
    "auto": ("instance_group [ { count: 1 kind: KIND_AUTO } ]", "instance_group #1 asks for KIND_AUTO"),
    "gpus": ("instance_group [ { kind: KIND_CPU gpus: [ 0 ] } ]", "instance_group #1 names gpus [0]"),
    "instances": (
        "instance_group [ { count: 2 kind: KIND_CPU }, { count: 1 kind: KIND_CPU } ]",
        "instance_group asks for 3 model instances in all (2 + 1); the limit here is 2",
    ),
    "batch": ("", "max_batch_size is 65; the limit here is 64"),
    "execution env": (
        'parameters { key: "EXECUTION_ENV_PATH" value: { string_value: "$$TRITON_MODEL_DIRECTORY/1/env.tar.gz" } }',
        "parameter 'EXECUTION_ENV_PATH' is not allowed",
    ),
    "agents": ('model_repository_agents { agents [ { name: "checksum" } ] }', "model_repository_agents is not allowed"),
    "cache": ("response_cache { enable: true }", "response_cache is not allowed"),
    "unknown parameter": (
        'parameters { key: "shm-default-byte-size" value: { string_value: "1" } }',
        "parameter 'shm-default-byte-size' is not allowed: a model config may carry only the parameters",
    ),
}


def archive(config: str) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in {"limited/config.pbtxt": config.encode(), "limited/1/model.py": MODEL_PY}.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def submission_models(stack) -> set[str]:
    return set(loaded_submissions(stack))


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_config_over_the_limits_is_refused_with_its_reason_and_nothing_is_deployed(stack, api, case):
    seed_builtin_tasks()
    extra, expected = REFUSED[case]
    config = CONFIG + extra + "\n"
    if case == "batch":
        config = config.replace("max_batch_size: 8", "max_batch_size: 65")
    store = Path(os.environ["MODEL_STORE_DIR"])
    stored_before = set(store.iterdir()) if store.is_dir() else set()
    loaded_before = submission_models(stack)

    result = upload_model(api, api.sign_up(f"researcher-{case.replace(' ', '-')}"), "sentiment", case, archive(config))

    assert result["__typename"] == "ArchiveRejectedError", result
    assert result["code"] == "ARCHIVE_REJECTED"
    assert result["reason"] == "CONFIG_LIMIT"  # the code in its own field; the message is sentences for people
    assert result["message"].startswith("config.pbtxt asks for more than submitted models may use here: ")
    assert expected in result["message"]
    assert run_sql("SELECT count(*) AS n FROM models")[0]["n"] == 0
    assert (set(store.iterdir()) if store.is_dir() else set()) == stored_before
    assert submission_models(stack) == loaded_before


def test_an_accepted_config_without_a_device_kind_runs_on_cpu(stack, api):
    seed_builtin_tasks()
    researcher = api.sign_up("researcher")
    result = upload_model(api, researcher, "sentiment", "no kind", archive(CONFIG + "instance_group [ { count: 2 } ]\n"))
    assert result["__typename"] == "ModelUploaded", result
    model_id = result["model"]["id"]
    status = wait_until(
        lambda: (
            (s := model_status(api, researcher, model_id)["status"]) in ("deployed", "evaluated", "not_ranked", "failed") and s
        ),
        timeout=600,
        interval=0.5,
    )
    assert status != "failed", model_status(api, researcher, model_id)["statusLog"]
    name = run_sql("SELECT triton_name FROM models")[0]["triton_name"]
    groups = submissions_triton(stack).get_model_config(name)["instance_group"]
    assert [(g["kind"], g["count"]) for g in groups] == [("KIND_CPU", 2)]
