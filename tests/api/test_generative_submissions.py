"""Uploaded generative models (issue #30 point 2): the example archive of a generative task's `modelContract`, uploaded as
it is, runs in the sandbox (a decoupled model streamed through the sandbox agent's relay), is evaluated on the demo
task's shipped scoring dataset (token F1, tokens/s), published, taken as a round's target, and a message's reply streams
from it; an archive that is not decoupled and lacks text_output is refused with the lines to add; a model that streams
past the sandbox's response limit is stopped as oversize."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import re
import time
import zipfile

import pytest

from server.annotation.fooling import squad_f1
from server.core.triton_clients import triton_client
from server.evaluation.datasets.seed import seed_dataset_path
from server.generation.params import GenerationParams
from server.generation.triton_stream import stream_triton
from server.sandbox.bwrap import SandboxLimits
from tests.api.conversations_helpers import CONVERSATION, ReplyFeed, send
from tests.api.examples_helpers import NEXT_CONTEXT, wait_until
from tests.api.models_helpers import model_status, upload_model
from tests.conftest import run_sql

CONTRACT = """query($t: String!) { modelContract(taskCode: $t) { kind labels configPbtxt exampleArchiveName
  exampleArchiveBase64 inputs { name dataType dims meaning } outputs { name dataType dims } } }"""
ERR = "... on InputError { fields { field message } } ... on Error { code message }"
CREATE_ROUND = f"""mutation($i: CreateRoundInput!) {{ createRound(input: $i) {{ __typename
  ... on RoundCreated {{ round {{ id number targetModels {{ name version modelId status {{ ready }} }} }} }} {ERR} }} }}"""
FINAL = ("evaluated", "not_ranked", "failed")
MESSAGE = "Tell me which mountain is the tallest in the whole world please"


@pytest.fixture
def chat_demo(api, admin_token) -> dict:
    """The demo generative task as `dynabench up` seeds it (round 1, contexts, its shipped scoring dataset) and its
    model contract."""
    from server.evaluation.datasets.seed import seed_scoring_datasets
    from server.tasks.builtin import seed_builtin_tasks

    asyncio.run(seed_builtin_tasks(generative_demo=True))
    assert "chat_demo" in asyncio.run(seed_scoring_datasets())
    return api(CONTRACT, {"t": "chat_demo"})["modelContract"]


def _with_config(archive: bytes, change) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(archive))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as out:
        for name in source.namelist():
            data = source.read(name)
            out.writestr(name, change(name, data))
    return buffer.getvalue()


def _evaluated(api, token, name: str, archive: bytes) -> tuple[str, dict]:
    uploaded = upload_model(api, token, "chat_demo", name, archive, filename="model.zip")
    assert uploaded["__typename"] == "ModelUploaded", uploaded
    model_id = uploaded["model"]["id"]
    wait_until(lambda: model_status(api, token, model_id)["status"] in FINAL, timeout=600, interval=0.5)
    return model_id, model_status(api, token, model_id)


def _echo(prompt: str, max_words: int = 8) -> str:
    """What the example model answers: the first words of the user's message, each after a space."""
    return "".join(" " + word for word in prompt.split()[:max_words])


def _pieces_through_the_relay(stack, triton_name: str, prompt: str) -> list[tuple[str, float]]:
    async def go():
        client = triton_client(stack.env["TRITON_SUBMISSIONS_URL"], stack.env["TRITON_CONTROL_KEY"])
        started, pieces = time.perf_counter(), []
        try:
            stream = stream_triton(
                client,
                triton_name,
                "1",
                f"User: {prompt}\nAssistant:",
                GenerationParams(max_tokens=32, temperature=0.0, seed=0),
                first_token_timeout_s=30,
                idle_timeout_s=30,
            )
            async for piece in stream:
                pieces.append((piece.text, time.perf_counter() - started))
        finally:
            await client.close()
        return pieces

    return asyncio.run(go())


def test_the_example_generative_model_is_evaluated_and_judges_a_round_from_the_sandbox(stack, api, admin_token, chat_demo):
    assert chat_demo["kind"] == "generative" and chat_demo["labels"] == []
    assert [i["name"] for i in chat_demo["inputs"]] == ["text_input", "sampling_parameters", "stream"]
    assert [(o["name"], o["dataType"]) for o in chat_demo["outputs"]] == [("text_output", "TYPE_STRING")]
    assert "model_transaction_policy { decoupled: true }" in chat_demo["configPbtxt"]

    researcher = api.sign_up("gen-researcher")
    archive = base64.b64decode(chat_demo["exampleArchiveBase64"])
    model_id, model = _evaluated(api, researcher, "echo-baseline", archive)
    assert model["status"] == "evaluated", model["statusLog"]
    [score] = model["scores"]
    assert score["dataset"]["name"] == "demo-scoring-v1"
    # token F1 computed here from the shipped rows and what the example model answers (its first 8 words).
    rows = [json.loads(line) for line in seed_dataset_path("chat_demo").read_text().splitlines() if line.strip()]
    expected = 100 * sum(squad_f1(_echo(r["prompt"]), r["reference"]) for r in rows) / len(rows)
    assert score["perf"] == pytest.approx(expected, abs=1e-6)
    assert score["throughput"] > 0 and 0 <= score["robustness"] <= 1
    assert any(re.search(r"token_f1 [0-9.]+ on 52 examples, [0-9.]+ tokens/s", e["message"] or "") for e in model["statusLog"])

    # Through the sandbox's relay, one piece per word, as the model sends them.
    triton_name = run_sql("SELECT triton_name FROM models WHERE name = 'echo-baseline'")[0]["triton_name"]
    pieces = _pieces_through_the_relay(stack, triton_name, MESSAGE)
    assert [text for text, _ in pieces] == [" " + w for w in MESSAGE.split()[:8]]

    # Published, it judges a new round of the task; a message's reply streams from it.
    not_yet = api(CREATE_ROUND, {"i": {"taskCode": "chat_demo", "targetModels": [{"modelId": model_id}]}}, token=admin_token)
    assert not_yet["createRound"]["__typename"] == "InputError"
    api("mutation($m: ID!) { publishModel(modelId: $m) { __typename } }", {"m": model_id}, token=researcher)
    opened = api(CREATE_ROUND, {"i": {"taskCode": "chat_demo", "targetModels": [{"modelId": model_id}]}}, token=admin_token)
    opened = opened["createRound"]
    assert opened["__typename"] == "RoundCreated", opened
    assert opened["round"]["targetModels"] == [
        {"name": triton_name, "version": "1", "modelId": model_id, "status": {"ready": True}}
    ]
    round_id = opened["round"]["id"]
    added = api(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"scenario": "A quiz about mountains."}}]}},
        token=admin_token,
    )
    assert added["addContexts"]["__typename"] == "ContextsAdded"
    author = api.sign_up("gen-author")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    sent = send(api, author, round_id, MESSAGE, context_id=context_id)
    assert sent["__typename"] == "MessageSent", sent
    chunks = ReplyFeed(stack, author, sent["turn"]["id"]).all()
    streamed, end = chunks[:-1], chunks[-1]
    assert end["done"] is True and end["status"] == "DONE", end
    assert streamed and "".join(c["text"] for c in streamed) == _echo(MESSAGE)
    stored = api(CONVERSATION, {"id": sent["conversation"]["id"]}, token=author)["conversation"]
    (turn,) = stored["turns"]
    assert turn["reply"] == _echo(MESSAGE) and turn["modelName"] == triton_name and turn["modelVersion"] == "1"


def test_a_generative_archive_that_is_not_decoupled_nor_has_text_output_is_refused(api, chat_demo):
    def change(name: str, data: bytes) -> bytes:
        if not name.endswith("config.pbtxt"):
            return data
        text = data.decode().replace("model_transaction_policy { decoupled: true }\n", "")
        return text.replace('"text_output"', '"reply"').encode()

    archive = _with_config(base64.b64decode(chat_demo["exampleArchiveBase64"]), change)
    refused = upload_model(api, api.sign_up("gen-refused"), "chat_demo", "not-decoupled", archive, filename="m.zip")
    assert refused["__typename"] == "ArchiveRejectedError" and refused["reason"] == "CONTRACT", refused
    assert "the model is not decoupled" in refused["message"], refused
    assert "add the line model_transaction_policy { decoupled: true } to config.pbtxt" in refused["message"]
    assert 'add { name: "text_output" data_type: TYPE_STRING dims: [ 1 ] } to its output' in refused["message"]
    assert run_sql("SELECT count(*) AS n FROM models")[0]["n"] == 0


# Each response carries a tiny piece of text and 100 KB in an extra output: the reply stays short (the API never stops
# reading it for its length) while the stream's bytes pass the sandbox's response limit.
FLOOD = """
        for request in requests:
            sender = request.get_response_sender()
            padding = np.array([b"p" * 100_000], dtype=np.object_)
            for _ in range(5_000):
                if sender.is_cancelled():
                    break
                text = pb_utils.Tensor("text_output", np.array([b"."], dtype=np.object_))
                sender.send(pb_utils.InferenceResponse(output_tensors=[text, pb_utils.Tensor("padding", padding)]))
            sender.send(flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)
        return None
"""


def test_a_model_streaming_past_the_response_limit_is_stopped_as_oversize(stack, api, chat_demo):
    def change(name: str, data: bytes) -> bytes:
        text = data.decode()
        if name.endswith("config.pbtxt"):
            return text.replace(
                '  { name: "text_output" data_type: TYPE_STRING dims: [ 1 ] }',
                '  { name: "text_output" data_type: TYPE_STRING dims: [ 1 ] },\n'
                '  { name: "padding" data_type: TYPE_STRING dims: [ 1 ] }',
            ).encode()
        head, _, _ = text.partition("        for request in requests:\n")
        _, _, tail = text.partition("        return None\n")
        return (head + FLOOD.lstrip("\n") + tail).encode()

    log = stack.logs / "triton-submissions.log"
    cuts_before = log.read_text(errors="replace").count("sandbox agent: refused a ")
    archive = _with_config(base64.b64decode(chat_demo["exampleArchiveBase64"]), change)
    _model_id, model = _evaluated(api, api.sign_up("gen-flood"), "flood", archive)
    assert model["status"] == "failed", model["statusLog"]
    message = model["statusLog"][-1]["message"]
    expected = "Smoke test failed: your model was stopped in the sandbox: oversize output: a streamed response of more than"
    assert message.startswith(expected), message
    cuts = re.findall(r"sandbox agent: refused a (\d+)-byte stream \(limit (\d+)\)", log.read_text(errors="replace"))
    assert log.read_text(errors="replace").count("sandbox agent: refused a ") > cuts_before and cuts
    assert int(cuts[-1][0]) > int(cuts[-1][1]) == SandboxLimits.from_env().max_response_bytes
