"""Fuzzing suggestions for the adversary (issue #31 point 4): suggestExamples with junk and plausible inputs. The
module turns the perturbation search on for the world's task `alpha` (its config and the round's config version, by
SQL), so that plausible cases run real searches against its sentiment target; every answer is a typed result or a
clean refusal, and a refused case writes nothing (the `suggestions` table is tracked). createExample's suggestionId
is fuzzed with createExample (tests/fuzz/test_annotation_fuzz.py); junk ids here too, through `@example`s."""

import json

import pytest
from hypothesis import example, given

from tests.fuzz.conftest import FUZZ
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases
from tests.fuzz.world import SENTIMENT_CONFIG

SUGGESTING = {**SENTIMENT_CONFIG, "suggestions": {"perturbation": True, "query_budget": 8}}
VALID = {
    "roundId": Ref("round:alpha"),
    "contextId": Ref("context:alpha:1"),
    "kind": "PERTURBATION",
    "clientId": "7b1f2b34-57a0-4c3e-9d51-0d1c2f3e4a5c",
    "fields": {"statement": "Fine soup."},
}


@pytest.fixture(scope="module", autouse=True)
def suggesting(world):
    config = json.dumps(SUGGESTING)
    world.db.fetch("UPDATE tasks SET config = $1::jsonb WHERE code = 'alpha'", config)
    world.db.fetch(
        "UPDATE task_config_versions SET config = $1::jsonb WHERE task = (SELECT id FROM tasks WHERE code = 'alpha')", config
    )


@FUZZ
@example(Case("suggestExamples", "carol", {"input": VALID}))
@example(Case("suggestExamples", "carol", {"input": {**VALID, "kind": "GENERATOR"}}))
@example(Case("suggestExamples", "carol", {"input": {**VALID, "fields": {"statement": "lone \udfff"}}}))
@example(Case("suggestExamples", "carol", {"input": {**VALID, "fields": {"statement": "x" * 5000}}}))
@example(Case("suggestExamples", "carol", {"input": {**VALID, "fields": ["Fine soup."]}}))
@example(Case("suggestExamples", "carol", {"input": {**VALID, "fields": {"statement": "a\x00b"}}}))
@example(Case("suggestExamples", "alice", {"input": VALID}))  # carol's request UUID: another user's
@example(Case("suggestExamples", "anonymous", {"input": VALID}))
@given(case=cases("suggestExamples"))
def test_suggest_examples(fuzzer, case):
    fuzzer.send(case)
