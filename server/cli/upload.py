"""`dynabench model upload DIR|ARCHIVE`: send a Triton model repository to the API, with a progress bar."""

from __future__ import annotations

import argparse
import json
import os
import tarfile
import tempfile
from pathlib import Path

UPLOAD = """mutation($t: String!, $n: String!, $a: Upload!, $c: ModelCardInput, $anon: Boolean!) {
  uploadModel(taskCode: $t, name: $n, archive: $a, card: $c, anonymous: $anon) {
    __typename ... on ModelUploaded { model { id status } } ... on Error { code message } } }"""


class _ProgressReader:
    """A file object whose reads advance a tqdm bar (httpx streams multipart bodies by reading)."""

    def __init__(self, path: Path, bar) -> None:
        self._file = path.open("rb")
        self._bar = bar

    def read(self, size: int = -1) -> bytes:
        chunk = self._file.read(size)
        self._bar.update(len(chunk))
        return chunk

    def close(self) -> None:
        self._file.close()


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", type=Path, help="a model repository directory (config.pbtxt + version dirs) or an archive")
    parser.add_argument("--task", required=True, help="task code, e.g. sentiment")
    parser.add_argument("--name", required=True, help="the model's display name")
    parser.add_argument("--api-url", default=os.environ.get("DYNABENCH_API_URL", "http://127.0.0.1:8000"))
    parser.add_argument(
        "--token", default=os.environ.get("DYNABENCH_TOKEN"), help="API token with the 'models' scope (or $DYNABENCH_TOKEN)"
    )
    parser.add_argument("--description", default=None)
    parser.add_argument("--license", default=None)
    parser.add_argument("--source-url", default=None)
    parser.add_argument("--anonymous", action="store_true")


def run(args: argparse.Namespace) -> int:
    import httpx
    from tqdm import tqdm

    if not args.token:
        print("error: pass --token or set DYNABENCH_TOKEN (create one with the createApiToken mutation)")
        return 2
    if not args.path.exists():
        print(f"error: {args.path} does not exist")
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        archive = args.path
        if args.path.is_dir():
            archive = Path(scratch) / f"{args.path.name}.tar.gz"
            with tarfile.open(archive, "w:gz") as tar:
                tar.add(args.path, arcname=args.path.name)
        card = {
            k: v for k, v in {"description": args.description, "license": args.license, "sourceUrl": args.source_url}.items() if v
        }
        operations = {
            "query": UPLOAD,
            "variables": {"t": args.task, "n": args.name, "a": None, "c": card or None, "anon": args.anonymous},
        }
        with tqdm(total=archive.stat().st_size, unit="B", unit_scale=True, desc=f"uploading {archive.name}") as bar:
            reader = _ProgressReader(archive, bar)
            try:
                response = httpx.post(
                    f"{args.api_url.rstrip('/')}/graphql",
                    data={"operations": json.dumps(operations), "map": json.dumps({"0": ["variables.a"]})},
                    files={"0": (archive.name, reader, "application/octet-stream")},
                    headers={"Authorization": f"Bearer {args.token}"},
                    timeout=httpx.Timeout(60, write=None),
                )
            except httpx.HTTPError as exc:
                print(f"error: the API at {args.api_url} could not be reached: {exc}")
                return 1
            finally:
                reader.close()
    if response.status_code != 200:
        print(f"error: HTTP {response.status_code}: {response.text[:500]}")
        return 1
    body = response.json()
    if body.get("errors"):
        print(f"error: {body['errors'][0]['message']}")
        return 1
    result = body["data"]["uploadModel"]
    if result["__typename"] != "ModelUploaded":
        print(f"refused ({result['code']}): {result['message']}")
        return 1
    print(
        f"uploaded: model {result['model']['id']} is {result['model']['status']}; it deploys and is evaluated next "
        "(watch it with the modelUpdated subscription or `model {{ status statusLog }}`)."
    )
    return 0
