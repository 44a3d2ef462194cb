"""Fuzzing what task owners do with a retraining run: cancelTrainingRun and overrideTrainingGate. The world's runs are
a published and a queued one per task (so a cancelled queued run never starts training: it has no job), none
rejected, so an override is refused as a conflict unless the fuzzer is refused earlier."""

from hypothesis import example, given

from tests.fuzz.conftest import FUZZ
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases


@FUZZ
@example(Case("cancelTrainingRun", "alice", {"runId": Ref("run:queued:alpha")}))
@example(Case("cancelTrainingRun", "carol", {"runId": Ref("run:published:beta")}))
@example(Case("cancelTrainingRun", "alice", {"runId": "\x00"}))
@given(case=cases("cancelTrainingRun"))
def test_cancel_training_run(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("overrideTrainingGate", "alice", {"runId": Ref("run:published:alpha"), "reason": "a\x00b"}))
@example(Case("overrideTrainingGate", "bob", {"runId": Ref("run:queued:beta"), "reason": "\udfff" * 600}))
@example(Case("overrideTrainingGate", "alice", {"runId": Ref("run:published:alpha"), "reason": ""}))
@given(case=cases("overrideTrainingGate"))
def test_override_training_gate(fuzzer, case):
    fuzzer.send(case)
