"""Submissions share the sandbox's memory: at most SUBMISSIONS_MAX_LOADED (3 here) stay loaded. Before another
load the least recently active idle one is unloaded, never one that judges an open round; one taken as a
round's target is loaded again; and the folders Triton wrote the unloaded models' files into (in the
sandbox's /tmp, which is memory) are removed."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import psutil

from tests.api.examples_helpers import wait_until
from tests.api.models_helpers import model_status, upload_model
from tests.api.test_submission_targets import _open, _task
from tests.conftest import loaded_submissions, run_sql
from tests.security.hostile import archive

OVERRIDE_FOLDER = re.compile(r"/tmp/(folder[A-Za-z0-9]{6})/")


def _not_ranked(api, token, n: int) -> str:
    """Upload a small well-behaved model to the task (no scoring dataset: it ends not ranked); its Triton name."""
    data = archive("benign", {}, name=f"benign{n}", replace={"BENIGN-MARKER-PLACEHOLDER": uuid.uuid4().hex})
    uploaded = upload_model(api, token, "residency", f"benign {n}", data)
    assert uploaded["__typename"] == "ModelUploaded", uploaded
    model_id = uploaded["model"]["id"]
    wait_until(lambda: model_status(api, token, model_id)["status"] in ("not_ranked", "failed"), timeout=300, interval=0.5)
    assert model_status(api, token, model_id)["status"] == "not_ranked"
    return model_id


def _triton_name(model_id: str) -> str:
    import base64

    pk = int(base64.b64decode(model_id).decode().split(":")[1])
    return run_sql("SELECT triton_name FROM models WHERE id = $1", pk)[0]["triton_name"]


def _sandbox_processes(stack) -> list[psutil.Process]:
    return psutil.Process(stack.triton_submissions.pid).children(recursive=True)


def _folders_written(stack) -> set[str]:
    """The folders of models' files in the sandbox's /tmp (seen from the host through Triton's root)."""
    triton = next(p for p in _sandbox_processes(stack) if p.name() == "tritonserver")
    scratch = Path(f"/proc/{triton.pid}/root/tmp")
    return {entry.name for entry in scratch.iterdir() if re.fullmatch(r"folder[A-Za-z0-9]{6}", entry.name)}


def _folders_in_use(stack) -> set[str]:
    """The folders the loaded models' processes run from (a stub's model.py path)."""
    used = set()
    for process in _sandbox_processes(stack):
        try:
            used.update(m.group(1) for arg in process.cmdline() if (m := OVERRIDE_FOLDER.match(arg)))
        except psutil.Error:
            continue
    return used


def test_idle_submissions_make_room_and_a_round_target_comes_back_and_stays(stack, api):
    owner, researcher = api.sign_up("owner"), api.sign_up("researcher")
    _task(api, owner, "residency")
    first, second, third, fourth = (_not_ranked(api, researcher, n) for n in range(4))
    names = {model: _triton_name(model) for model in (first, second, third, fourth)}
    # The fourth load made room by unloading the least recently active idle one: the first.
    assert set(loaded_submissions(stack)) == {names[second], names[third], names[fourth]}

    # Taken as a round's target, the first is loaded again (the oldest idle one, the second, makes room) and judges.
    api("mutation($m: ID!) { publishModel(modelId: $m) { __typename } }", {"m": first}, token=researcher)
    opened = _open(api, owner, [{"modelId": first}], code="residency")
    assert opened["__typename"] == "RoundCreated", opened
    assert opened["round"]["targetModels"][0]["status"] == {"ready": True}
    assert set(loaded_submissions(stack)) == {names[first], names[third], names[fourth]}

    # A target of an open round is never the one unloaded, however long it has been idle.
    fifth = _not_ranked(api, researcher, 4)
    assert set(loaded_submissions(stack)) == {names[first], names[fourth], _triton_name(fifth)}

    # The unloaded models' files leave the sandbox's memory; the loaded ones' stay.
    wait_until(lambda: _folders_written(stack) == _folders_in_use(stack), timeout=120, interval=1)
    assert len(_folders_in_use(stack)) == 3
