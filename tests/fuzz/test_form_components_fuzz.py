"""Fuzzing the annotation form components (issue #18): answerFollowUp, the author's answers to the fields asked after
the model's verdict (the fields of createExample and validateExample are fuzzed with those mutations). Each `@example`
aims at a real example of the world: its author, another user, junk and unstorable values."""

from hypothesis import example, given

from tests.fuzz.conftest import FUZZ
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases

CLIENT = "0b8e5c1a-9f7d-4c2b-8a61-3e5d7f9a1b2c"


def _answer(viewer: str, example_ref: str, fields) -> Case:
    return Case("answerFollowUp", viewer, {"input": {"exampleId": Ref(example_ref), "fields": fields, "clientId": CLIENT}})


@FUZZ
@example(_answer("carol", "example:carol:alpha", {"why": "because"}))
@example(_answer("carol", "example:carol:alpha", {"why": "nul\x00"}))
@example(_answer("carol", "example:carol:alpha", {"why": "\ud800"}))
@example(_answer("carol", "example:carol:alpha", ["not", "an", "object"]))
@example(_answer("carol", "example:carol:delta", {"why": "awaiting its claim"}))
@example(_answer("bob", "example:carol:alpha", {"why": "not mine"}))
@example(_answer("carol", "example:carol:gamma", {"why": {"deep": [1.5e308, None, True]}}))
@given(case=cases("answerFollowUp"))
def test_answer_follow_up(fuzzer, case):
    fuzzer.send(case)
