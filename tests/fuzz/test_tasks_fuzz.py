"""Fuzzing what task owners do: createTask, addContexts, exportRound, trainTargetModel, and last the
mutations that end the world's rounds: createRound, openNextRound, closeRound. Each `@example` is a case
that once crashed the server (a masked `Unexpected error.`).

A valid trainTargetModel meets the world's queued run and is refused as a conflict, so no minutes-long
training starts."""

from hypothesis import example, given
from strawberry.relay import to_base64

from tests.fuzz.conftest import FUZZ
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases
from tests.fuzz.world import SENTIMENT_CONFIG


def task(**changes) -> dict:
    return {"input": {"code": "fresh_task", "name": "Fresh", "config": SENTIMENT_CONFIG, **changes}}


@FUZZ
@example(Case("createTask", "alice:token", task(name="\r\n\x08FALSE\udbff")))
@example(Case("createTask", "alice", task(description="a\x00b")))
@example(Case("createTask", "alice", task(config={**SENTIMENT_CONFIG, "labels": ["neg\x00", "positive"]})))
@given(case=cases("createTask"))
def test_create_task(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(
    Case("addContexts", "alice", {"input": {"roundId": Ref("round:alpha"), "contexts": [{"fields": {"context": "a\x00b"}}]}})
)
@example(
    Case("addContexts", "alice", {"input": {"roundId": Ref("round:alpha"), "contexts": [{"fields": {"context": "\ud800"}}]}})
)
@example(
    Case(
        "addContexts",
        "alice",
        {"input": {"roundId": Ref("round:alpha"), "contexts": [{"fields": {"context": "ok"}, "tag": "\x00"}]}},
    )
)
@given(case=cases("addContexts"))
def test_add_contexts(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@given(case=cases("exportRound"))
def test_export_round(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("trainTargetModel", "alice", {"taskCode": "\x00", "fromRounds": [1]}))
@given(case=cases("trainTargetModel"))
def test_train_target_model(fuzzer, case):
    # Before createRound: tasks the fuzzers create have no round yet, so nothing can be retrained.
    assert fuzzer.send(case) != "success", "a training run started (minutes of CPU)"


@FUZZ
@example(Case("createRound", "carol", {"input": {"taskCode": "\x00", "targetModels": [{"name": "sentiment_minilm"}]}}))
# Accepted before, and then every createExample of the round crashed (examples.model_version is a varchar(32)).
@example(
    Case(
        "createRound",
        "alice",
        {"input": {"taskCode": Ref("code:alpha"), "targetModels": [{"name": "sentiment_minilm", "version": "1" * 40}]}},
    )
)
@given(case=cases("createRound"))
def test_create_round(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("openNextRound", "alice", {"taskCode": "\udfff", "modelVersion": "8"}))
@given(case=cases("openNextRound"))
def test_open_next_round(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("closeRound", "carol", {"roundId": Ref("context:alpha:0")}))
@example(Case("closeRound", "anonymous", {"roundId": to_base64("Round", 2**31)}))
@given(case=cases("closeRound"))
def test_close_round(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("setRoundTargets", "alice", {"input": {"roundId": Ref("round:alpha"), "targetModels": [{"modelId": "\x00"}]}}))
@example(
    Case(
        "setRoundTargets",
        "alice",
        {"input": {"roundId": Ref("round:alpha"), "targetModels": [{"name": "submission_1", "modelId": to_base64("Model", 1)}]}},
    )
)
@given(case=cases("setRoundTargets"))
def test_set_round_targets(fuzzer, case):
    fuzzer.send(case)
