"""Helpers for the researcher-model tests: archives, multipart GraphQL uploads, waiting on statuses."""

import io
import json
import tarfile
from pathlib import Path

UPLOAD = """mutation($t: String!, $n: String!, $a: Upload!, $c: ModelCardInput) {
  uploadModel(taskCode: $t, name: $n, archive: $a, card: $c) {
    __typename ... on ModelUploaded { model { id status } } ... on Error { code message }
    ... on ArchiveRejectedError { reason entry } } }"""
CREATE_DATASET = """mutation($t: String!, $n: String!, $f: Upload!, $a: DatasetAccess!) {
  createDataset(taskCode: $t, name: $n, file: $f, access: $a) {
    __typename ... on DatasetCreated { dataset { id name } exampleCount } ... on InputError { message fields { field message } } ... on Error { code message } } }"""


def tar_gz_of(directory: Path, arcname: str | None = None) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(directory, arcname=arcname or directory.name)
    return buffer.getvalue()


def multipart(api, query: str, variables: dict, file_variable: str, content: bytes, filename: str, token: str) -> dict:
    operations = json.dumps({"query": query, "variables": {**variables, file_variable: None}})
    response = api.http.post(
        "/graphql",
        data={"operations": operations, "map": json.dumps({"0": [f"variables.{file_variable}"]})},
        files={"0": (filename, content, "application/octet-stream")},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert not body.get("errors"), body["errors"]
    return body["data"]


def upload_model(api, token, task_code, name, archive: bytes, filename="model.tar.gz", card=None) -> dict:
    return multipart(api, UPLOAD, {"t": task_code, "n": name, "c": card}, "a", archive, filename, token)["uploadModel"]


def create_dataset(api, token, task_code, name, jsonl: bytes, access="SCORING") -> dict:
    return multipart(api, CREATE_DATASET, {"t": task_code, "n": name, "a": access}, "f", jsonl, "data.jsonl", token)[
        "createDataset"
    ]


def model_status(api, token, model_id) -> dict:
    return api(
        "query($m: ID!) { node(id: $m) { ... on Model { status statusLog { status message } scores { dataset { name } perf robustness fairness throughput memoryGb } } } }",
        {"m": model_id},
        token=token,
    )["node"]
