"""Fuzzing the owners' bulk actions on examples (issue #18): actOnExamples."""

from hypothesis import example, given

from tests.fuzz.conftest import FUZZ
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases


@FUZZ
@example(Case("actOnExamples", "alice", {"exampleIds": [Ref("example:bob:alpha")] * 2, "action": "RETRACT", "note": "\x00"}))
@example(Case("actOnExamples", "carol", {"exampleIds": [], "action": "RESOLVE_FLAG"}))
@given(case=cases("actOnExamples"))
def test_act_on_examples(fuzzer, case):
    fuzzer.send(case)
