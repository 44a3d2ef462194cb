"""Shared GraphQL snippets and helpers for the example-writing tests."""

import uuid

import numpy as np
import tritonclient.http as triton_http

CREATE = """mutation($i: CreateExampleInput!) { createExample(input: $i) {
  __typename
  ... on ExampleSubmitted { verdict message duplicate
      example { id fooled status modelName modelVersion modelOutput input }
      predictions { modelName modelVersion label probabilities { label probability } answer answerStart answerEnd confidence } }
  ... on InputError { message fields { field message } }
  ... on Error { code message }
} }"""
NEXT_CONTEXT = "query($r: ID!) { nextContext(roundId: $r) { id fields } }"


def current_round(api, code: str) -> str:
    return api(f'{{ task(code: "{code}") {{ currentRound {{ id }} }} }}')["task"]["currentRound"]["id"]


def submit(api, token, round_id, context_id, fields, label=None, answer=None, client_id=None, sandbox=False, **extra):
    variables = {
        "i": {
            "roundId": round_id,
            "contextId": context_id,
            "fields": fields,
            "label": label,
            "answer": answer,
            "clientId": None if sandbox and client_id is None else str(client_id or uuid.uuid4()),
            "sandbox": sandbox,
            **extra,
        }
    }
    return api(CREATE, variables, token=token)["createExample"]


def triton_predict(url: str, model: str, inputs: dict[str, str]) -> tuple[str, np.ndarray]:
    """An independent call of the same model (plain tritonclient, no platform code)."""
    client = triton_http.InferenceServerClient(url)
    tensors = []
    for name, value in inputs.items():
        tensor = triton_http.InferInput(name, [1, 1], "BYTES")
        tensor.set_data_from_numpy(np.array([[value.encode()]], dtype=object))
        tensors.append(tensor)
    result = client.infer(model, tensors)
    client.close()
    return result.as_numpy("label")[0][0].decode(), result.as_numpy("probs")[0]


def fooling_example(api, token, round_id, context_id, text, labels=("negative", "positive", "neutral")):
    """Write an example that certainly fools the model: ask in sandbox mode, then claim another label."""
    predicted = submit(api, token, round_id, context_id, {"statement": text}, label=labels[0], sandbox=True)["predictions"][0][
        "label"
    ]
    label = next(label for label in labels if label != predicted)
    result = submit(api, token, round_id, context_id, {"statement": text}, label=label)
    assert result["verdict"] == "FOOLED", result
    return result["example"]


def wait_until(condition, timeout=60.0, interval=0.2):
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError("condition not met in time")
