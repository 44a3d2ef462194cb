"""Fuzzing the LLM endpoint mutations (issue #30 point 4): registerLlmEndpoint, updateLlmEndpoint and
removeLlmEndpoint. Nobody in the fuzz world is an admin, so every case must be refused cleanly and write nothing (the
harness compares the database before and after, llm_endpoints and generation_usage included); tests/llm_endpoints/
covers what admins do, and tests/unit/test_llm_endpoint_rules.py every setting's rule."""

from hypothesis import example, given

from tests.fuzz.conftest import FUZZ
from tests.fuzz.junk import INVALID_UTF8
from tests.fuzz.strategies import Case, cases

SETTINGS = {"name": "fuzz-llm", "baseUrl": "http://127.0.0.1:9/v1", "model": "m", "apiKey": "sk-fuzz"}


@FUZZ
@example(Case("registerLlmEndpoint", "alice", {"input": SETTINGS}))
@example(Case("registerLlmEndpoint", "alice:token", {"input": {**SETTINGS, "baseUrl": "https://u:p@h/v1"}}))
@example(Case("registerLlmEndpoint", "anonymous", {"input": {**SETTINGS, "apiKey": "sk\r\nX-Evil: 1", "timeoutS": -1}}))
@example(Case("registerLlmEndpoint", "carol:token", {"input": {**SETTINGS, "name": INVALID_UTF8}}))
@given(case=cases("registerLlmEndpoint"))
def test_register_llm_endpoint(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("updateLlmEndpoint", "bob", {"input": {"name": "fuzz-llm", "apiKey": ""}}))
@example(Case("updateLlmEndpoint", "alice:token", {"input": {"name": "\x00", "maxConcurrency": 2**40}}))
@example(Case("updateLlmEndpoint", "garbage", {"input": {"name": "fuzz-llm", "pricePer1kPromptTokens": 1e308}}))
@given(case=cases("updateLlmEndpoint"))
def test_update_llm_endpoint(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("removeLlmEndpoint", "carol", {"name": "fuzz-llm"}))
@example(Case("removeLlmEndpoint", "expired", {"name": "x" * 10_000}))
@given(case=cases("removeLlmEndpoint"))
def test_remove_llm_endpoint(fuzzer, case):
    fuzzer.send(case)
