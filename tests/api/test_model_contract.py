"""The model contract where researchers upload (issue #29 point 4): `modelContract` states a task's tensors, labels and
parameters, and its example archive passes the whole path (checks, sandboxed deploy, evaluation) as it is; an archive
without the required `labels` parameter is refused with what to add."""

from __future__ import annotations

import asyncio
import base64
import io
import zipfile

import pytest

from tests.api.examples_helpers import wait_until
from tests.api.models_helpers import model_status, upload_model
from tests.conftest import seed_builtin_tasks

CONTRACT = """query($t: String!) { modelContract(taskCode: $t) { kind labels configPbtxt exampleArchiveName
  exampleArchiveBase64 inputs { name dataType dims meaning } outputs { name dataType dims } } }"""


@pytest.mark.parametrize(
    "task, inputs, outputs",
    [
        ("sentiment", ["statement"], [("label", [1]), ("probs", [3])]),
        ("qa", ["context", "question"], [("answer", [1]), ("start", [1]), ("end", [1]), ("confidence", [1])]),
    ],
)
def test_the_example_archive_of_a_task_passes_as_it_is(api, target_models, task, inputs, outputs):
    from server.evaluation.datasets.seed import seed_scoring_datasets

    seed_builtin_tasks()
    asyncio.run(seed_scoring_datasets())  # as `dynabench migrate` does: each built-in task's demo scoring dataset
    contract = api(CONTRACT, {"t": task})["modelContract"]  # no account needed to read it
    assert [i["name"] for i in contract["inputs"]] == inputs
    assert all(i["dataType"] == "TYPE_STRING" and i["dims"] == [1] for i in contract["inputs"])
    assert [(o["name"], o["dims"]) for o in contract["outputs"]] == outputs
    assert contract["labels"] == (["negative", "positive", "neutral"] if task == "sentiment" else [])
    assert 'key: "labels"' in contract["configPbtxt"] and contract["exampleArchiveName"] == f"{task}-example-model.zip"

    researcher = api.sign_up(f"contract-{task}")
    archive = base64.b64decode(contract["exampleArchiveBase64"])
    uploaded = upload_model(api, researcher, task, "example", archive, filename=contract["exampleArchiveName"])
    assert uploaded["__typename"] == "ModelUploaded", uploaded
    model_id = uploaded["model"]["id"]
    wait_until(lambda: model_status(api, researcher, model_id)["status"] in ("evaluated", "not_ranked", "failed"), timeout=600)
    model = model_status(api, researcher, model_id)
    assert model["status"] == "evaluated", model
    assert len(model["scores"]) >= 1


def test_a_classifier_without_its_labels_parameter_is_refused_with_what_to_add(api, target_models):
    seed_builtin_tasks()
    contract = api(CONTRACT, {"t": "sentiment"})["modelContract"]
    source = zipfile.ZipFile(io.BytesIO(base64.b64decode(contract["exampleArchiveBase64"])))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in source.namelist():
            data = source.read(name)
            if name.endswith("config.pbtxt"):
                data = b"\n".join(line for line in data.splitlines() if b'key: "labels"' not in line)
            archive.writestr(name, data)
    refused = upload_model(api, api.sign_up("no-labels"), "sentiment", "unlabelled", buffer.getvalue(), filename="m.zip")
    assert refused["__typename"] == "ArchiveRejectedError" and refused["reason"] == "CONTRACT", refused
    assert "parameter 'labels' is missing" in refused["message"]
    assert '["negative", "positive", "neutral"]' in refused["message"]
