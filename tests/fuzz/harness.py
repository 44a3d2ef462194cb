"""Sending fuzz cases through the real GraphQL HTTP API and judging every answer.

A response passes when: the status is below 500; the body is JSON (a request-level refusal such as a
413 or a 400 for a body that is not JSON may be a short plain message); GraphQL errors leak no internals
and none is the masked `Unexpected error.` (an unexpected error is a bug: every failure a client can
cause must be typed); a mutation result is a member of its result union; and when the outcome is an
error, no table changed (no partial writes).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
from graphql import GraphQLList, GraphQLNonNull, GraphQLUnionType

from tests.fuzz.junk import INVALID_UTF8, INVALID_UTF8_BYTES
from tests.fuzz.strategies import MUTATIONS, SCHEMA, Case, has_default
from tests.fuzz.world import World

# Text that must never reach a client: tracebacks, internal module and driver names, Python exception
# texts, and the masked message of an unexpected error.
INTERNALS = (
    "Unexpected error",
    "Traceback",
    'File "',
    "asyncpg",
    "piccolo",
    "site-packages",
    "sqlstate",
    "object has no attribute",
    "NoneType",
    "KeyError",
    "UnicodeEncodeError",
    "UnicodeDecodeError",
    "server/",
)
ERROR_TYPES = {name for name, type_ in SCHEMA.type_map.items() if "Error" in {i.name for i in getattr(type_, "interfaces", ())}}


def result_types(mutation: str) -> set[str]:
    type_ = MUTATIONS[mutation].type
    while isinstance(type_, (GraphQLNonNull, GraphQLList)):
        type_ = type_.of_type
    assert isinstance(type_, GraphQLUnionType), mutation
    return {member.name for member in type_.types}


def document(mutation: str, skip_defaults_for: tuple[str, ...] = ()) -> str:
    """`mutation($a: T!, ...) { m(a: $a, ...) { __typename ... } }`; arguments with defaults get nullable
    variables, so that leaving a variable out lets the default apply."""
    args = MUTATIONS[mutation].args
    declared = []
    for name, arg in args.items():
        type_ = arg.type
        if has_default(arg) and isinstance(type_, GraphQLNonNull):
            type_ = type_.of_type
        declared.append(f"${name}: {type_}")
    passed = ", ".join(f"{name}: ${name}" for name in args)
    selection = "__typename ... on Error { code message }"
    if "InputError" in result_types(mutation):
        selection += " ... on InputError { fields { field message } }"
    return f"mutation Fuzz({', '.join(declared)}) {{ {mutation}({passed}) {{ {selection} }} }}"


def json_body(payload: Any) -> bytes:
    """JSON as Python writes it (NaN and Infinity allowed; lone surrogates as \\u escapes), with the
    invalid-UTF-8 marker replaced by raw bytes that are not UTF-8."""
    text = json.dumps(payload)
    marker = json.dumps(INVALID_UTF8)[1:-1]
    return text.encode().replace(marker.encode(), INVALID_UTF8_BYTES)


def assert_clean(messages: list[str], context: Any) -> None:
    for message in messages:
        assert isinstance(message, str) and message.strip(), (message, context)
        leaked = [word for word in INTERNALS if word in message]
        assert not leaked, f"error leaks {leaked}: {message[:500]!r} for {context}"


@dataclass(repr=False)
class Fuzzer:
    """Sends cases of one mutation; counts outcomes so a test can show it reached the resolver."""

    world: World
    mutation: str = ""
    outcomes: Counter = field(default_factory=Counter)

    def __repr__(self) -> str:
        return f"Fuzzer({self.mutation})"

    def _repr_pretty_(self, printer, cycle) -> None:  # Hypothesis prints failing cases with this
        printer.text(repr(self))

    def headers(self, viewer: str) -> dict[str, str]:
        token = self.world.tokens[viewer]
        return {"Authorization": f"Bearer {token}"} if token else {}

    def send(self, case: Case) -> str:
        self.mutation = self.mutation or case.mutation
        assert case.mutation == self.mutation
        payload = {"query": document(case.mutation), "variables": self.world.resolve(case.variables)}
        return self.judge(
            lambda: self.world.http.post(
                "/graphql", content=json_body(payload), headers={"content-type": "application/json", **self.headers(case.viewer)}
            ),
            case,
        )

    def judge(self, request, case: Any) -> str:
        before = self.world.db.fingerprint()
        response: httpx.Response = request()
        outcome = self.outcome(response, case)
        self.outcomes[outcome] += 1
        if outcome != "success":
            after = self.world.db.fingerprint()
            changed = {table: (before[table], after[table]) for table in before if before[table] != after[table]}
            assert not changed, f"{self.mutation} answered {outcome} but wrote to {changed} for {case}"
        return outcome

    def outcome(self, response: httpx.Response, case: Any) -> str:
        """`refused` (HTTP 4xx), `graphql-error`, `success`, or the Error type of the result."""
        assert response.status_code < 500, (response.status_code, response.text[:500], case)
        if response.status_code >= 400:
            try:
                body = response.json()
            except ValueError:
                body = {"errors": [{"message": response.text}]}
            messages = [e.get("message", "") for e in body.get("errors", [])] or [str(body.get("detail", ""))]
            assert_clean(messages, case)
            return "refused"
        assert response.status_code == 200, (response.status_code, response.text[:500], case)
        body = response.json()
        if body.get("errors"):
            assert_clean([error.get("message") for error in body["errors"]], case)
            assert not (body.get("data") or {}).get(self.mutation), body
            return "graphql-error"
        value = body["data"][self.mutation]
        results = value if isinstance(value, list) else [value]
        allowed = result_types(self.mutation)
        for result in results:
            assert result["__typename"] in allowed, (result, case)
            if result["__typename"] in ERROR_TYPES:
                assert_clean([result["message"]] + [f["message"] for f in result.get("fields", [])], case)
        kinds = {r["__typename"] for r in results if r["__typename"] in ERROR_TYPES}
        if len(kinds) < len(results) or not results:
            return "success" if results else "empty"
        return min(kinds)

    def assert_reached_resolver(self, at_least: float = 0.1) -> None:
        """Most junk dies in GraphQL validation; a useful fuzzer must also get past it regularly."""
        total = sum(self.outcomes.values())
        assert total >= 200, f"{self.mutation}: only {total} cases were sent"
        typed = total - self.outcomes["refused"] - self.outcomes["graphql-error"]
        assert total and typed >= at_least * total, (
            f"{self.mutation}: only {typed}/{total} cases reached the resolver: {dict(self.outcomes)}"
        )
