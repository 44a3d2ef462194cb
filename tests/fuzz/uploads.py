"""Multipart GraphQL requests for the Upload mutations: junk operations and maps, and hostile files
(junk bytes, broken and malicious archives, model repositories that break the I/O contract, JSONL with
every kind of bad line)."""

from __future__ import annotations

import io
import json
import os
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.fuzz.harness import Fuzzer, document
from tests.fuzz.junk import INVALID_UTF8_BYTES, junk_strings, short_junk, weighted
from tests.fuzz.plausible import texts
from tests.fuzz.strategies import VIEWERS, variables_for
from tests.fuzz.world import PASSAGE

CONFIG = """name: "{name}"
backend: "{backend}"
max_batch_size: {batch}
input [ {{ name: "{input}" data_type: TYPE_STRING dims: [ 1 ] }} ]
output [ {{ name: "label" data_type: TYPE_STRING dims: [ 1 ] }}, {{ name: "probs" data_type: TYPE_FP32 dims: [ {n} ] }} ]
"""


def tar_gz(members: list[tuple[str, bytes | str]]) -> bytes:
    """A .tar.gz; a str member is a symlink to that target, bytes a regular file."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.GNU_FORMAT) as tar:
        for name, content in members:
            info = tarfile.TarInfo(name)
            if isinstance(content, str):
                info.type, info.linkname = tarfile.SYMTYPE, content
                tar.addfile(info)
            else:
                info.size = len(content)
                tar.addfile(info, io.BytesIO(content))
    return buffer.getvalue()


def zip_of(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members:
            archive.writestr(name, content)
    return buffer.getvalue()


def repository(name: str, backend: str, batch: int, input_name: str, n: int) -> list[tuple[str, bytes]]:
    config = CONFIG.format(name=name, backend=backend, batch=batch, input=input_name, n=n).encode()
    return [(f"{name}/config.pbtxt", config), (f"{name}/1/model.py", b"raise SystemExit('never loaded')\n")]


archives = st.one_of(
    st.binary(max_size=64),
    st.sampled_from(
        [
            b"",
            b"\x1f\x8b",
            b"\x1f\x8b\x08\x00" + b"\x00" * 20,
            b"PK\x03\x04" + b"\xff" * 40,
            b"PK\x05\x06" + b"\x00" * 18,
            b"ustar" * 100,
            INVALID_UTF8_BYTES * 10,
            b"\x00" * 1024,
            b"BZh91AY&SY",
            b"7z\xbc\xaf\x27\x1c",
        ]
    ),
    st.builds(lambda head, tail: tar_gz([("m/config.pbtxt", b"x")])[:head] + tail, st.integers(0, 200), st.binary(max_size=16)),
    st.sampled_from(
        [
            tar_gz([("../evil/config.pbtxt", b"x")]),
            tar_gz([("/abs/config.pbtxt", b"x")]),
            tar_gz([("m/link", "/etc/passwd")]),
            tar_gz([("m/config.pbtxt", b"a"), ("m/config.pbtxt", b"b")]),
            tar_gz([("m\\..\\x/config.pbtxt", b"x")]),
            tar_gz([("/".join(["d"] * 20) + "/f", b"x")]),
            tar_gz([("m/" + "n" * 300, b"x")]),
            tar_gz([("m/\x01", b"x")]),
            zip_of([("../../x", b"x")]),
            zip_of([(f"m/{i}", b"") for i in range(1001)]),
            zip_of([("m/big", b"\x00" * 5_000_000)]),
            zip_of([("m/config.pbtxt", b"not protobuf text {{{")]),
            tar_gz([("m/config.pbtxt", "\u00e9 {".encode())]),
        ]
    ),
    # Repositories that pass every archive check but the I/O contract (`probs` never has one entry per
    # label), so that no upload succeeds and no deploy job starts.
    st.builds(
        lambda members, pack: pack(members),
        st.builds(
            repository,
            st.sampled_from(["m", "sentiment_minilm", "ü", "a b"]),
            st.sampled_from(["python", "onnxruntime", "evil", ""]),
            st.sampled_from([0, 1, 64, -1]),
            st.sampled_from(["statement", "text", ""]),
            st.sampled_from([2, 0, 4]),
        ),
        st.sampled_from([tar_gz, zip_of]),
    ),
)

_ROW = {"uid": "r1", "statement": "Lovely.", "label": "positive"}
jsonl_lines = st.one_of(
    st.fixed_dictionaries(
        {
            "statement": weighted((3, st.sampled_from(["Lovely.", "Awful."])), (1, junk_strings)),
            "label": st.sampled_from(["positive", "negative", "neutral", "Positive", ""]),
        },
        optional={
            "uid": st.one_of(st.text(max_size=5), st.just("u" * 300), st.just("a#r0")),
            "tags": st.lists(short_junk, max_size=2),
            "answer": short_junk,
        },
    ).map(lambda row: json.dumps(row).encode()),
    st.sampled_from(
        [
            b"",
            b"   ",
            b"{",
            b"[]",
            b"null",
            b"42",
            b'"text"',
            b'{"statement": NaN, "label": "positive"}',
            b'{"statement": "x", "label": "positive", "extra": Infinity}',
            b'{"statement": "\\u0000", "label": "positive"}',
            b'{"statement": "\\ud800", "label": "positive"}',
            b'{"statement": "x", "label": "positive", "tags": ["\\udfff"]}',
            b'{"statement": "x", "label": "positive", "uid": "\\u0000"}',
            b'{"\\ud800": 1, "statement": "x", "label": "neutral"}',
            b"\xef\xbb\xbf" + json.dumps(_ROW).encode(),
            json.dumps(_ROW).encode() + b"\r",
            INVALID_UTF8_BYTES,
            json.dumps({**_ROW, "statement": "s" * 100_001}).encode(),
            json.dumps([_ROW]).encode(),
        ]
    ),
)
valid_lines = st.one_of(
    st.fixed_dictionaries(
        {"statement": texts, "label": st.sampled_from(["positive", "negative", "neutral"])},
        optional={"uid": st.from_regex(r"\A[a-z0-9]{1,8}\Z")},
    ),
    st.fixed_dictionaries(
        {"context": st.just(PASSAGE), "question": texts, "answer": texts}, optional={"answers": st.lists(texts, max_size=2)}
    ),
).map(lambda row: json.dumps(row).encode())
jsonl_files = weighted((2, st.lists(valid_lines, min_size=1, max_size=4)), (3, st.lists(jsonl_lines, max_size=6))).map(b"\n".join)

OK_MAP = object()  # the valid map for the case's file variable


@dataclass(frozen=True)
class MultipartCase:
    mutation: str
    viewer: str
    variables: dict[str, Any]
    files: tuple[tuple[str, str, bytes], ...]  # (part name, file name, content)
    map: Any = OK_MAP  # a JSON value, a raw str, or None (no map part)
    operations: Any = None  # None: the real operation; else a raw str sent as is

    def __repr__(self) -> str:
        files = tuple((part, name, content[:40] + b"..." if len(content) > 40 else content) for part, name, content in self.files)
        return f"MultipartCase({self.mutation!r}, {self.viewer!r}, {self.variables!r}, files={files!r}, map={self.map!r}, operations={self.operations!r})"


def multipart_cases(mutation: str, file_arg: str, contents: st.SearchStrategy[bytes]) -> st.SearchStrategy[MultipartCase]:
    path = f"variables.{file_arg}"
    parts = st.tuples(
        weighted((6, st.just("0")), (1, st.sampled_from(["1", "", "map", "operations", "ü"]))),
        st.sampled_from(["model.tar.gz", "data.jsonl", "", "../../etc/passwd", "ü.tgz", "x" * 300, 'a"b.zip']),
        contents,
    )
    maps = weighted(
        (8, st.just(OK_MAP)),
        (
            1,
            st.sampled_from(
                [
                    None,
                    "not json",
                    "[]",
                    {},
                    {"0": path},
                    {"0": [42]},
                    {"0": []},
                    {"0": [path, path]},
                    {"0": ["query"]},
                    {"0": ["variables"]},
                    {"0": ["variables.taskCode"]},
                    {"0": [f"{path}.deep"]},
                    {"9": [path]},
                    {"0": ["variables.nope.x.y"]},
                    {"0": ["operationName"]},
                    {"0": [path], "1": [path]},
                ]
            ),
        ),
    )
    operations = weighted(
        (12, st.none()),
        (
            1,
            st.sampled_from(
                [
                    "",
                    "not json",
                    "[]",
                    '[{"query": "{ me { id } }"}]',
                    '{"query": 5}',
                    '{"variables": {}}',
                    "null",
                    '{"query": "{ me { id } }", "variables": []}',
                ]
            ),
        ),
    )
    viewers = weighted((6, st.sampled_from(VIEWERS[:3])), (2, st.sampled_from(VIEWERS[3:5])), (1, st.sampled_from(VIEWERS[5:])))
    variables = st.one_of(variables_for(mutation, (file_arg,), trust=3), variables_for(mutation, (file_arg,), trust=30))
    files = weighted((8, st.lists(parts, min_size=1, max_size=1)), (1, st.lists(parts, max_size=3))).map(tuple)
    return st.builds(MultipartCase, st.just(mutation), viewers, variables, files, maps, operations)


def send_multipart(fuzzer: Fuzzer, case: MultipartCase, file_arg: str) -> str:
    fuzzer.mutation = fuzzer.mutation or case.mutation
    data = {}
    if case.operations is None:
        variables = {**fuzzer.world.resolve(case.variables), file_arg: None}
        data["operations"] = json.dumps({"query": document(case.mutation), "variables": variables})
    else:
        data["operations"] = case.operations
    if case.map is OK_MAP:
        data["map"] = json.dumps({"0": [f"variables.{file_arg}"]})
    elif case.map is not None:
        data["map"] = case.map if isinstance(case.map, str) else json.dumps(case.map)
    files = [(part, (name, content, "application/octet-stream")) for part, name, content in case.files]
    store = Path(os.environ["MODEL_STORE_DIR"])
    outcome = fuzzer.judge(
        lambda: fuzzer.world.http.post("/graphql", data=data, files=files or None, headers=fuzzer.headers(case.viewer)), case
    )
    leftovers = sorted(p.name for p in store.glob(".upload-*")) if store.exists() else []
    assert not leftovers, f"staging files left behind: {leftovers} for {case}"
    return outcome
