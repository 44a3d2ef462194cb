"""Fuzzing adversary runs (issue #31 point 5): startAdversaryRun and cancelAdversaryRun with junk and plausible
inputs. The fuzz world's tasks name no generator, so a start by an owner (alice on alpha) is a clean INPUT_ERROR and
one by anyone else a refusal; nothing is written (adversary_runs is tracked). The world holds no run: any run id is
NOT_FOUND, malformed ones an InputError or a GraphQL validation error, never a crash."""

from hypothesis import example, given
from strawberry.relay import to_base64

from tests.fuzz.conftest import FUZZ
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases

VALID = {"roundId": Ref("round:alpha"), "clientId": "0c7d1a2e-4b5f-4e6a-8b9c-1d2e3f4a5b6c", "count": 3}


@FUZZ
@example(Case("startAdversaryRun", "alice", {"input": VALID}))  # alpha's owner: no generator, an InputError
@example(Case("startAdversaryRun", "carol", {"input": VALID}))  # not an owner
@example(Case("startAdversaryRun", "alice:token", {"input": VALID}))
@example(Case("startAdversaryRun", "anonymous", {"input": VALID}))
@example(Case("startAdversaryRun", "alice", {"input": {**VALID, "count": 0}}))
@example(Case("startAdversaryRun", "alice", {"input": {**VALID, "count": 201}}))
@example(Case("startAdversaryRun", "alice", {"input": {**VALID, "count": 2**31 - 1}}))
@example(Case("startAdversaryRun", "alice", {"input": {**VALID, "roundId": Ref("round:gamma")}}))  # bob's QA task
@given(case=cases("startAdversaryRun"))
def test_start_adversary_run(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("cancelAdversaryRun", "alice", {"runId": to_base64("AdversaryRun", 1)}))
@example(Case("cancelAdversaryRun", "alice", {"runId": to_base64("AdversaryRun", 2**31)}))
@example(Case("cancelAdversaryRun", "alice", {"runId": to_base64("Round", 1)}))
@example(Case("cancelAdversaryRun", "anonymous", {"runId": to_base64("AdversaryRun", 1)}))
@given(case=cases("cancelAdversaryRun"))
def test_cancel_adversary_run(fuzzer, case):
    fuzzer.send(case)
