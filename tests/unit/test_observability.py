"""The pure parts of server/observability: request ids, redaction, log formats, labels, job hooks."""

import asyncio
import contextvars
import io
import json
import logging
import pickle

import pytest
from arq.worker import Retry
from graphql import GraphQLError, parse
from prometheus_client import REGISTRY

from server.core.errors import ServiceError
from server.observability.graphql import MULTIPLE, UNKNOWN, OperationNames, error_code
from server.observability.jobs import deserialize_job, instrument, serialize_job
from server.observability.logs import (
    REDACTED,
    ContextFilter,
    JsonFormatter,
    RedactingFilter,
    TextFormatter,
    job_var,
    new_request_id,
    redact,
    request_id_var,
    valid_request_id,
)
from server.observability.metrics import OTHER, BoundedValues


@pytest.mark.parametrize("value", ["a", "req-123", "A.b_c-9", "x" * 64, pytest.param(new_request_id(), id="generated")])
def test_sane_request_ids_are_kept(value):
    assert valid_request_id(value)


@pytest.mark.parametrize("value", [None, "", "x" * 65, "has space", 'quo"te', "new\nline", "semi;colon", "é", "a/b"])
def test_other_request_ids_are_refused(value):
    assert not valid_request_id(value)


def test_generated_request_ids_are_distinct_and_valid():
    ids = {new_request_id() for _ in range(1000)}
    assert len(ids) == 1000 and all(valid_request_id(i) for i in ids)


JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJlLWJ5dGVz"
API_TOKEN = "dbk_0123456789ab_Zm9vYmFyYmF6cXV4LXNlY3JldC10b2tlbi12YWx1ZQ"


@pytest.mark.parametrize(
    "text, secret",
    [
        ("Authorization: Bearer abcdefghijkl123", "abcdefghijkl123"),
        ("headers={'authorization': 'Bearer s3cr3t-token-value'}", "s3cr3t-token-value"),
        (f"token was {JWT}", JWT),
        (f"got {API_TOKEN} from the client", "Zm9vYmFyYmF6cXV4"),
        ("connecting to postgresql://dynabench:hunter2pass@postgres:5432/db", "hunter2pass"),
        ("redis://:redispw@redis:6379/0", "redispw"),
        ("password=correct-horse user=ann", "correct-horse"),
        ('{"username": "ann", "password": "correct horse battery"}', "correct"),
        ("{'jwt_secret': 'x' * 3, 'JWT_SECRET': 'abcdefabcdef'}", "abcdefabcdef"),
    ],
)
def test_redaction_removes_secrets(text, secret):
    cleaned = redact(text)
    assert secret not in cleaned and REDACTED in cleaned


def test_redaction_leaves_ordinary_text_alone():
    text = "createExample took 12.5 ms for round 3 (model sentiment_minilm v2) at /graphql"
    assert redact(text) == text
    assert redact("dbk_0123456789ab_secretpart").startswith("dbk_0123456789ab_")  # the public prefix stays


def _logger(formatter: logging.Formatter) -> tuple[logging.Logger, io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ContextFilter())
    handler.addFilter(RedactingFilter())
    handler.setFormatter(formatter)
    logger = logging.getLogger(f"test.observability.{id(stream)}")
    logger.handlers, logger.propagate, logger.level = [handler], False, logging.INFO
    return logger, stream


def test_json_lines_carry_the_request_id_extra_fields_and_no_secret():
    logger, stream = _logger(JsonFormatter())

    def in_request():
        request_id_var.set("req-abc")
        logger.info(
            "login by %s with %s",
            "ann",
            "Authorization: Bearer sekrit-value-123",
            extra={"password": "hunter2", "route": "/graphql", "attempt": 2},
        )
        try:
            raise RuntimeError("could not connect to postgresql://u:dbpass@db/x")
        except RuntimeError:
            logger.exception("failed")

    contextvars.copy_context().run(in_request)
    logger.info("outside any request")
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(lines) == 3
    first, failed, outside = lines
    assert set(first) >= {"ts", "level", "logger", "message", "request_id"}
    assert first["request_id"] == "req-abc" and first["level"] == "INFO" and first["logger"] == logger.name
    assert first["route"] == "/graphql" and first["attempt"] == 2 and first["password"] == REDACTED
    assert "sekrit-value-123" not in first["message"] and first["message"].startswith("login by ann with")
    assert failed["request_id"] == "req-abc" and "RuntimeError" in failed["exc"] and "dbpass" not in failed["exc"]
    assert outside["request_id"] is None
    assert "hunter2" not in stream.getvalue() and "dbpass" not in stream.getvalue()


def test_text_lines_show_the_request_id_and_job():
    logger, stream = _logger(TextFormatter())

    def in_job():
        request_id_var.set("req-1")
        job_var.set("aggregate_example")
        logger.warning("slow", extra={"duration_ms": 12})

    contextvars.copy_context().run(in_job)
    line = stream.getvalue().strip()
    assert "WARNING" in line and "[request_id=req-1 job=aggregate_example]: slow" in line and line.endswith("duration_ms=12")


ROOTS = {"query": {"tasks", "task", "me", "nextContext"}, "mutation": {"createExample", "submitExamples", "signUp"}}


@pytest.mark.parametrize(
    "query, label",
    [
        ("mutation($i: CreateExampleInput!) { createExample(input: $i) { __typename } }", "createExample"),
        ("mutation CreateExample { createExample { __typename } }", "createExample"),  # the PWA's spelling
        ("mutation createExample { signUp { __typename } }", "createExample"),
        ("query TaskDetail { task { id } }", "TaskDetail"),  # a client operation name
        ("query Hostile_7f3a { tasks { edges { node { id } } } }", "tasks"),  # unknown name -> its field
        ("{ tasks { id } }", "tasks"),
        ("{ a: tasks { id } b: tasks { id } }", "tasks"),
        ("{ tasks { id } me { id } }", MULTIPLE),
        ("{ ...F } fragment F on Query { tasks { id } }", MULTIPLE),
        ("{ noSuchField }", UNKNOWN),
        ("query X { createExample }", UNKNOWN),  # a mutation field in a query
        ("{ __typename }", "__typename"),
    ],
)
def test_operation_labels(query, label):
    names = OperationNames(ROOTS)
    definition = parse(query).definitions[0]
    assert names.label(definition) == label


def test_bounded_values_cap_and_refuse_odd_strings():
    bounded = BoundedValues(3)
    assert [bounded(v) for v in ("a", "b", "a", "c", "d", "b")] == ["a", "b", "a", "c", OTHER, "b"]
    assert BoundedValues(10)("bad value with spaces") == OTHER


def test_error_codes():
    assert error_code(GraphQLError("Syntax Error"), parsed=False) == "GRAPHQL_PARSE_FAILED"
    assert error_code(GraphQLError("Cannot query field"), parsed=True) == "GRAPHQL_VALIDATION_FAILED"
    assert error_code(GraphQLError("x", path=["a"], original_error=ServiceError("FORBIDDEN", "no")), True) == "FORBIDDEN"
    assert error_code(GraphQLError("x", path=["a"], original_error=KeyError("boom")), True) == "INTERNAL"


def test_jobs_carry_the_request_id_only_when_there_is_one():
    job = {"t": None, "f": "aggregate_example", "a": (1,), "k": {}, "et": 0}
    assert "rid" not in pickle.loads(serialize_job(job))

    def enqueue_in_request():
        request_id_var.set("req-42")
        return serialize_job(job), serialize_job({**job, "s": True, "r": None})  # a job, a job result

    raw_job, raw_result = contextvars.copy_context().run(enqueue_in_request)
    assert pickle.loads(raw_job)["rid"] == "req-42" and "rid" not in pickle.loads(raw_result)

    def run_in_worker():
        data = deserialize_job(raw_job)
        return data["f"], request_id_var.get(), job_var.get()

    assert contextvars.copy_context().run(run_in_worker) == ("aggregate_example", "req-42", "aggregate_example")
    assert request_id_var.get() is None
    # A job enqueued by an older API (no rid) leaves no stale id behind in the worker's context.
    raw_plain = serialize_job(job)

    def next_job_in_same_context():
        request_id_var.set("stale")
        deserialize_job(raw_plain)
        return request_id_var.get()

    assert contextvars.copy_context().run(next_job_in_same_context) is None


def _jobs(function: str, outcome: str) -> float:
    return REGISTRY.get_sample_value("dynabench_jobs_total", {"function": function, "outcome": outcome}) or 0.0


def test_instrumented_jobs_count_outcomes_and_durations():
    async def unit_job_ok(ctx, x):
        return x * 2

    async def unit_job_fails(ctx):
        raise ValueError("nope")

    async def unit_job_retries(ctx):
        raise Retry(defer=1)

    ok, fails, retries = instrument(unit_job_ok), instrument(unit_job_fails), instrument(unit_job_retries)
    assert ok.__qualname__.endswith("unit_job_ok")  # arq names jobs by __qualname__
    name = ok.__qualname__

    async def run():
        assert await ok({"job_id": "j1"}, 21) == 42
        with pytest.raises(ValueError):
            await fails({})
        with pytest.raises(Retry):
            await retries({})

    asyncio.run(run())
    assert _jobs(name, "ok") == 1 and _jobs(fails.__qualname__, "error") == 1 and _jobs(retries.__qualname__, "retry") == 1
    assert REGISTRY.get_sample_value("dynabench_job_duration_seconds_count", {"function": name}) == 1
