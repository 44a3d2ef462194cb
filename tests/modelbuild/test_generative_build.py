"""The generative demo (`chat_demo`, Triton model `generative_demo`): its fast build (the same cache as the rest of the
test models), its Hugging Face directory, and its streamed contract served by the session's real target Triton."""

from __future__ import annotations

import importlib.util
import json
import queue
import stat
import sys
import time
from pathlib import Path

import httpx
import numpy as np
import pytest

from server.modelbuild import BuildError, build_models
from server.modelbuild.generative import COPIED_KIND, MODEL_KIND, hf_directory
from server.modelbuild.generative_data import sample_prompt
from server.modelbuild.recipes import default_base_model
from tests.conftest import MODEL_CACHE

ROOT = Path(__file__).resolve().parents[2]
MODEL = "generative_demo"
EXAMPLE = "You are a helpful assistant.\n\nUser: hi\nAssistant: Hello! How can I help?\nUser: what is the capital of France?\nAssistant:"
MESSAGES = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "content": "hi"},
    {"role": "assistant", "content": "Hello! How can I help?"},
    {"role": "user", "content": [{"type": "text", "text": "what is the capital of France?"}]},
]


def _model_py():
    spec = importlib.util.spec_from_file_location("_generative_demo_model", ROOT / "triton_models" / MODEL / "1" / "model.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def built():
    """The fast build in the test suite's model cache (tests/conftest.py build_test_models builds the same one)."""
    first = build_models(MODEL_CACHE, tasks=["chat_demo"], profile="fast")[0]
    again = build_models(MODEL_CACHE, tasks=["chat_demo"], profile="fast")[0]
    return first, again


def test_the_build_writes_a_complete_model_with_a_hugging_face_directory_and_is_cached(built) -> None:
    first, again = built
    assert (first.task, first.name) == ("chat_demo", MODEL)
    assert again.skipped and again.metadata["cache_key"] == first.metadata["cache_key"]
    version = first.path / "1"
    assert hf_directory(MODEL_CACHE) == version / "weights"
    assert (version / "model.py").read_bytes() == (ROOT / "triton_models" / MODEL / "1" / "model.py").read_bytes()
    for name in ("config.json", "model.safetensors", "generation_config.json", "tokenizer.json", "tokenizer_config.json"):
        path = version / "weights" / name
        assert path.is_file() and stat.S_IMODE(path.stat().st_mode) & 0o044 == 0o044, path
    meta = json.loads((version / "metadata.json").read_text())
    assert meta["model_kind"] == MODEL_KIND and meta["profile"] == "fast" and meta["n_train"] > 1000
    assert 500_000 < meta["parameters"] < 10_000_000, meta["parameters"]
    assert 1 < meta["heldout_perplexity"] < 30 and meta["train_steps"] > 0, meta
    assert meta["sample"]["prompt"] == EXAMPLE and meta["sample"]["reply"].strip(), meta["sample"]
    config = (first.path / "config.pbtxt").read_text()
    for key, value in (("task_kind", "generative"), ("chat_format", "plain"), ("model_kind", MODEL_KIND), ("task", "chat_demo")):
        assert f'key: "{key}" value: {{ string_value: "{value}" }}' in config, key
    assert "decoupled: true" in config and 'key: "context_window"' in config and 'key: "heldout_perplexity"' in config


def test_the_hugging_face_directory_loads_and_its_chat_template_renders_the_plain_format(built) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    weights = hf_directory(MODEL_CACHE)
    tokenizer = AutoTokenizer.from_pretrained(weights, local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(weights, local_files_only=True).eval()
    assert tokenizer.eos_token == tokenizer.pad_token == "<|endoftext|>"
    assert tokenizer.apply_chat_template(MESSAGES, tokenize=False, add_generation_prompt=True) == EXAMPLE
    assert tokenizer.apply_chat_template(MESSAGES[1:3], tokenize=False) == "User: hi\nAssistant: Hello! How can I help?"
    assert tokenizer.decode(tokenizer("café ✓ 東京")["input_ids"]) == "café ✓ 東京"  # byte-level: any text round-trips
    ids = tokenizer(EXAMPLE, return_tensors="pt")["input_ids"]
    with torch.inference_mode():
        out = model.generate(ids, max_new_tokens=8, do_sample=False, tokenizer=tokenizer)
    assert out.shape[1] > ids.shape[1]


def test_a_local_causal_lm_base_model_is_copied_as_it_is_and_an_encoder_is_refused(built, tmp_path) -> None:
    base = hf_directory(MODEL_CACHE)
    [copied] = build_models(tmp_path / "models", tasks=["chat_demo"], profile="fast", base_model=str(base))
    weights = copied.path / "1" / "weights"
    assert (weights / "model.safetensors").read_bytes() == (base / "model.safetensors").read_bytes()
    assert copied.metadata["model_kind"] == COPIED_KIND and copied.metadata["base_model"] == str(base.resolve())
    assert copied.metadata["sample"]["reply"] == built[0].metadata["sample"]["reply"]
    with pytest.raises(BuildError, match="not a local causal LM"):
        build_models(tmp_path / "other", tasks=["chat_demo"], profile="fast", base_model=str(default_base_model()))


def test_user_dialogues_are_read_in_the_plain_format(tmp_path) -> None:
    from server.modelbuild.generative_data import load_dialogues

    path = tmp_path / "chats.jsonl"
    rows = [{"messages": MESSAGES[:3]}, {"text": "User: a\nAssistant: b"}, {"messages": [{"role": "user", "content": "x"}]}]
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")
    assert load_dialogues(path) == [EXAMPLE.rsplit("\nUser:", 1)[0], "User: a\nAssistant: b"]
    path.write_text('{"messages": 3}\n')
    with pytest.raises(BuildError, match=r"chats\.jsonl:1"):
        load_dialogues(path)


def test_deltas_never_split_a_character_nor_send_the_start_of_a_stop_string() -> None:
    module = _model_py()
    text = module.DeltaText(["\nUser:"])
    assert [text.update(t) for t in ("Hel", "Hello\n", "Hello\nUs", "Hello\nUser: more")] == ["Hel", "lo", "", ""]
    assert text.done
    text = module.DeltaText([])
    assert [text.update(t) for t in ("a\ufffd", "a€", "a€b\ufffd")] == ["a", "€", "b"]
    assert text.update("a€b\ufffd", final=True) == "\ufffd"
    text = module.DeltaText(["END", "\nUser:"])
    assert text.update("x\nU") == "x" and text.update("x\nUEN") == "\nU" and text.update("x\nUENDzz") == ""
    params = module.parse_sampling('{"max_tokens": 5000, "temperature": 0, "stop": "##", "seed": -3}', "\nUser:")
    expected = {"max_tokens": 1024, "temperature": 0.0, "top_p": 1.0, "seed": -3, "stop": ["##", "\nUser:"]}
    assert {key: params[key] for key in expected} == expected
    assert module.parse_sampling("", "")["max_tokens"] == 128
    for bad in ("[1]", '{"stop": [1]}', '{"max_tokens": "many"}', "not json"):
        with pytest.raises(ValueError):
            module.parse_sampling(bad, "")


def test_the_generator_slides_its_window_past_the_context_it_was_trained_on(built) -> None:
    module = _model_py()
    generator = module.Generator(str(hf_directory(MODEL_CACHE)), window=16)
    params = module.parse_sampling('{"max_tokens": 60, "temperature": 1.5, "seed": 4}', "")
    text = "".join(generator.deltas(sample_prompt(1) * 3, params))
    assert text == "".join(generator.deltas(sample_prompt(1) * 3, params))  # the same seed, the same text


# ---- served by the session's target Triton (tests/conftest.py target_models loads it) ----


def _stream(stack, prompt: str, params: dict | str | None = None, stream: bool | None = True) -> list[tuple[float, str]]:
    """(seconds since the request, text_output) of each server-sent event of generate_stream."""
    body: dict = {"text_input": prompt}
    if params is not None:
        body["sampling_parameters"] = params if isinstance(params, str) else json.dumps(params)
    if stream is not None:
        body["stream"] = stream
    url = f"http://{stack.env['TRITON_URL']}/v2/models/{MODEL}/generate_stream"
    events = []
    started = time.monotonic()
    with httpx.stream("POST", url, json=body, timeout=120) as response:
        for line in response.iter_lines():
            if line.startswith("data:"):
                event = json.loads(line[5:])
                assert "error" not in event, event
                events.append((time.monotonic() - started, event.get("text_output", "")))
    return events


def _text(events: list[tuple[float, str]]) -> str:
    return "".join(delta for _, delta in events)


LONG = {"max_tokens": 300, "min_tokens": 300, "temperature": 1.0, "seed": 5}  # vLLM's min_tokens: no eos/stop before


@pytest.fixture(scope="module")
def long_run(stack, target_models) -> list[tuple[float, str]]:
    assert target_models["chat_demo"] == MODEL
    return _stream(stack, EXAMPLE, LONG)


def test_generate_stream_sends_the_text_delta_by_delta(stack, long_run) -> None:
    """One server-sent event per delta (test_a_cancelled_request_stops_generating shows they leave while the model is
    still generating: a client that read the first one can stop the rest)."""
    events = long_run
    assert len(events) >= 100, len(events)
    # The same seed without streaming: one response with the whole text, equal to the deltas joined.
    whole = _stream(stack, EXAMPLE, LONG, stream=False)
    assert len(whole) == 1 and whole[0][1] == _text(events)
    generate = httpx.post(
        f"http://{stack.env['TRITON_URL']}/v2/models/{MODEL}/generate",
        json={"text_input": EXAMPLE, "sampling_parameters": json.dumps(LONG), "stream": False},
        timeout=120,
    )
    assert generate.status_code == 200 and generate.json()["text_output"] == _text(events)


def test_max_tokens_stop_strings_and_seeds(stack, target_models) -> None:
    greedy = _stream(stack, EXAMPLE, {"max_tokens": 20, "temperature": 0})
    text = _text(greedy)
    assert len(greedy) >= 2 and text.strip() and "\nUser:" not in text, greedy
    assert _text(_stream(stack, EXAMPLE, {"max_tokens": 20, "temperature": 0})) == text  # greedy is deterministic
    short = _stream(stack, EXAMPLE, {"max_tokens": 2, "temperature": 0})
    assert 1 <= len(short) <= 2 and text.startswith(_text(short))
    word = next(delta for _, delta in greedy[1:] if delta.strip())
    assert _text(_stream(stack, EXAMPLE, {"max_tokens": 20, "temperature": 0, "stop": [word]})) == text[: text.index(word)]
    sampled = [_text(_stream(stack, EXAMPLE, {"max_tokens": 30, "temperature": 1.5, "seed": s})) for s in (7, 7, 8, 9, 10)]
    assert sampled[0] == sampled[1] and len(set(sampled)) > 1, sampled  # the same seed, the same text; others differ
    assert _stream(stack, EXAMPLE, None, stream=None)  # every parameter has a default
    url = f"http://{stack.env['TRITON_URL']}/v2/models/{MODEL}/generate_stream"
    refused = httpx.post(url, json={"text_input": EXAMPLE, "sampling_parameters": "[1]"}, timeout=60)
    assert "sampling_parameters must be a JSON object" in refused.text


def test_a_cancelled_request_stops_generating(stack, long_run) -> None:
    import tritonclient.grpc as triton_grpc

    events = long_run
    responses: queue.Queue = queue.Queue()
    client = triton_grpc.InferenceServerClient(stack.triton.grpc_url)
    client.start_stream(callback=lambda result, error: responses.put((result, error)))
    inputs = []
    params = {**LONG, "max_tokens": 1024, "min_tokens": 1024}
    for name, value in (("text_input", EXAMPLE), ("sampling_parameters", json.dumps(params))):
        tensor = triton_grpc.InferInput(name, [1], "BYTES")
        tensor.set_data_from_numpy(np.array([value.encode()], dtype=np.object_))
        inputs.append(tensor)
    request_id = f"cancel-{time.monotonic_ns()}"
    client.async_stream_infer(MODEL, inputs, request_id=request_id)
    received = []
    for _ in range(2):  # the first deltas reach the client while the model writes the rest (1,024 tokens)
        result, error = responses.get(timeout=60)
        assert error is None, error
        received.append(result.as_numpy("text_output")[0].decode())
    client.stop_stream(cancel_requests=True)
    client.close()
    assert "".join(received) == _text(events)[: len("".join(received))]  # the same seed: the same start
    deadline = time.monotonic() + 30
    line = ""
    while time.monotonic() < deadline and not line:
        log = stack.triton.log_path.read_text(errors="replace")
        line = next((row for row in log.splitlines() if f"'{request_id}' cancelled by the client" in row), "")
        time.sleep(0.2)
    assert line, "the model did not see the cancellation"
    sent = int(line.split("after ")[1].split(" responses")[0])
    assert sent >= 2 and line.endswith('stopped generating"'), line  # before the end of its text: no work for nobody
