"""The built-in classifiers' offline exports as the PWA fetches them (issue #19 point 7): `Round.offlineModel`
describes the round's target model's files, and `GET /offline-models/<name>/<version>/<file>` serves exactly those
(immutable, ETag = sha256), nothing else from the model repository."""

from __future__ import annotations

import hashlib
import json

from tests.api.examples_helpers import current_round
from tests.conftest import seed_builtin_tasks

OFFLINE = """query($id: ID!) { node(id: $id) { ... on Round { offlineModel {
  name version labels inputs inputNames maxLength files { name url sha256 bytes } } } } }"""


def _offline_model(api, code: str) -> dict | None:
    return api(OFFLINE, {"id": current_round(api, code)})["node"]["offlineModel"]


def test_a_classifier_round_describes_its_offline_model_and_the_files_are_served(api, target_models):
    seed_builtin_tasks()
    model = _offline_model(api, "sentiment")
    assert model is not None
    assert (model["name"], model["version"]) == (target_models["sentiment"], "1")
    assert model["labels"] == ["negative", "positive", "neutral"] and model["inputs"] == ["statement"]
    assert "input_ids" in model["inputNames"] and model["maxLength"] == 256
    assert [f["name"] for f in model["files"]] == ["model.onnx", "tokenizer.json"]
    for file in model["files"]:
        assert file["url"] == f"/offline-models/{model['name']}/1/{file['name']}"
        response = api.http.get(file["url"])
        assert response.status_code == 200, response.text[:200]
        assert hashlib.sha256(response.content).hexdigest() == file["sha256"]
        assert len(response.content) == file["bytes"]
        assert response.headers["etag"] == f'"{file["sha256"]}"'
        assert "immutable" in response.headers["cache-control"] and "max-age=31536000" in response.headers["cache-control"]
        again = api.http.get(file["url"], headers={"If-None-Match": response.headers["etag"]})
        assert again.status_code == 304 and not again.content
    manifest = api.http.get(f"/offline-models/{model['name']}/1/manifest.json")
    assert manifest.status_code == 200 and json.loads(manifest.content)["labels"] == model["labels"]
    # NLI reads two fields; the QA baseline is not a classifier and has no export.
    nli = _offline_model(api, "nli")
    assert nli is not None and nli["inputs"] == ["context", "hypothesis"] and "token_type_ids" in nli["inputNames"]
    assert _offline_model(api, "qa") is None


def test_only_export_files_of_built_in_models_are_served(api, target_models, community_model):
    name = target_models["sentiment"]
    refused = [
        f"/offline-models/{name}/1/model.py",  # in the version dir, not an export file
        f"/offline-models/{name}/1/metadata.json",
        f"/offline-models/{name}/1/..%2Fweights%2Fmodel.safetensors",
        f"/offline-models/{name}/1/%2E%2E%2F%2E%2E%2Fconfig.pbtxt",
        f"/offline-models/{name}/..%2F1/model.onnx",
        f"/offline-models/{name}/1.0/model.onnx",
        f"/offline-models/{name}/2/model.onnx",  # no such version
        f"/offline-models/..%2F{name}/1/model.onnx",
        "/offline-models/no_such_model/1/model.onnx",
        # A copy of the sentiment model under another name (an operator's model) has the files, but is not built in.
        f"/offline-models/{community_model}/1/model.onnx",
        f"/offline-models/{target_models['qa']}/1/model.onnx",
    ]
    for path in refused:
        response = api.http.get(path)
        assert response.status_code == 404, (path, response.status_code)
        assert b"safetensors" not in response.content[:100] and len(response.content) < 10_000, path
