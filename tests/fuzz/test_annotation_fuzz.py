"""Fuzzing what annotators and validators do: createExample, submitExamples, validateExample,
flagExample, explainExample, claimFooled, retractExample (last: it retracts the world's examples). Each `@example`
is a case that once crashed the server (a masked `Unexpected error.`)."""

from hypothesis import example, given

from tests.fuzz.conftest import FUZZ
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases

VALID = {
    "roundId": Ref("round:alpha"),
    "contextId": Ref("context:alpha:1"),
    "fields": {"statement": "Fine soup."},
    "label": "positive",
    "clientId": "6a0f2b34-57a0-4c3e-9d51-0d1c2f3e4a5b",
}


@FUZZ
@example(Case("createExample", "carol", {"input": {**VALID, "explanation": "because\ud800"}}))
@example(Case("createExample", "carol", {"input": {**VALID, "fields": {"statement": "lone \udfff"}}}))
@given(case=cases("createExample"))
def test_create_example(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("submitExamples", "carol", {"inputs": [{**VALID, "explanation": "\udbff"}]}))
@given(case=cases("submitExamples"))
def test_submit_examples(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("validateExample", "bob", {"exampleId": Ref("example:alice:beta"), "label": "INCORRECT", "note": "\udc00\u2066"}))
@given(case=cases("validateExample"))
def test_validate_example(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("flagExample", "carol", {"exampleId": Ref("example:carol:alpha"), "reason": "spam\ud800"}))
@given(case=cases("flagExample"))
def test_flag_example(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("explainExample", "carol", {"exampleId": Ref("example:carol:alpha"), "explanation": "\udfff"}))
@given(case=cases("explainExample"))
def test_explain_example(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@given(case=cases("claimFooled"))
def test_claim_fooled(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@given(case=cases("retractExample"))
def test_retract_example(fuzzer, case):
    fuzzer.send(case)
