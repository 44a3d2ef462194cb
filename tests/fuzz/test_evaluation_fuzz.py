"""Fuzzing the researchers' and leaderboard mutations: uploadModel and createDataset (as multipart
requests with junk files, maps and operations, and as JSON, where the file can only be some other
value), publishModel, saveLeaderboardConfig. Each `@example` is a case that once crashed the server (a
masked `Unexpected error.` or a 500).

No case uploads an archive that passes every check, so no deploy job starts."""

from hypothesis import example, given

from tests.fuzz.conftest import FUZZ
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases
from tests.fuzz.uploads import (
    MultipartCase,
    archives,
    jsonl_files,
    multipart_cases,
    send_multipart,
)

MODEL = {"taskCode": Ref("code:alpha"), "name": "junk model"}
DATASET = {"taskCode": Ref("code:alpha"), "name": "junk data"}
JUNK = (("0", "model.tar.gz", b"\x1f\x8b"),)


@FUZZ
@example(MultipartCase("uploadModel", "bob", MODEL, JUNK, operations="null"))
@example(MultipartCase("uploadModel", "bob", MODEL, JUNK, map="[]"))
@example(MultipartCase("uploadModel", "bob", MODEL, JUNK, map={"0": [42]}))
@example(MultipartCase("uploadModel", "bob", MODEL, JUNK, map={"0": ["variables.taskCode.deep"]}))
@given(case=multipart_cases("uploadModel", "archive", archives))
def test_upload_model_multipart(fuzzer, case):
    assert send_multipart(fuzzer, case, "archive") != "success", "an upload passed every check (a deploy job started)"


@FUZZ
@example(Case("uploadModel", "bob", {**MODEL, "archive": False}))
@example(Case("uploadModel", "carol", {**MODEL, "archive": "\udfff"}))
@given(case=cases("uploadModel"))
def test_upload_model_as_json(fuzzer, case):
    assert fuzzer.send(case) != "success"


@FUZZ
@example(MultipartCase("createDataset", "alice", DATASET, (("0", "d.jsonl", b'{"statement": "\\ud800", "label": "positive"}'),)))
@example(
    MultipartCase(
        "createDataset",
        "alice",
        DATASET,
        (("0", "d.jsonl", b'{"statement": "x", "label": "positive", "uid": "' + b"u" * 300 + b'"}'),),
    )
)
@given(case=multipart_cases("createDataset", "file", jsonl_files))
def test_create_dataset_multipart(fuzzer, case):
    send_multipart(fuzzer, case, "file")


@FUZZ
@example(Case("createDataset", "alice:token", {**DATASET, "file": "\u202eevil.exe"}))
@given(case=cases("createDataset"))
def test_create_dataset_as_json(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("publishModel", "bob", {"modelId": Ref("round:alpha")}))
@given(case=cases("publishModel"))
def test_publish_model(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("saveLeaderboardConfig", "carol", {"taskCode": "\udbff", "name": "x", "metricWeights": []}))
@example(
    Case(
        "saveLeaderboardConfig",
        "carol",
        {"taskCode": Ref("code:alpha"), "name": "a\x00", "metricWeights": [{"metric": "PERF", "weight": 1}]},
    )
)
@given(case=cases("saveLeaderboardConfig"))
def test_save_leaderboard_config(fuzzer, case):
    fuzzer.send(case)
