"""Issue #15 point 6.5: text PostgreSQL cannot store (a NUL character) in a query's arguments is an input error, not
"Unexpected error.". The operation rules (server/graphql/core/operation_rules.py) refuse it for every query and
subscription argument, literal or variable; mutations answer an InputError naming the field, as before."""

import pytest

from tests.conftest import seed_builtin_tasks
from tests.security.holes_helpers import Socket

# Every query field with a text argument that reaches PostgreSQL, with NUL in it.
QUERIES = [
    ('{ task(code: "\\u0000") { id } }', {}),
    ("query($c: String!) { task(code: $c) { id } }", {"c": "sentiment\x00"}),
    ("query($c: String!) { datasets(taskCode: $c) { id } }", {"c": "\x00"}),
    ("query($c: String!) { userLeaderboard(taskCode: $c) { rank } }", {"c": "qa\x00"}),
    ("query($c: String!) { myStats(taskCode: $c) { submitted } }", {"c": "\x00"}),
    ('query($n: String!) { leaderboard(taskCode: "sentiment", configName: $n) { totalCount } }', {"n": "x\x00"}),
    ("query($a: String) { tasks(after: $a) { edges { node { id } } } }", {"a": "\x00"}),
    ("query($c: String!) { trainingRuns(taskCode: $c) { id } }", {"c": "\x00"}),
]


@pytest.mark.parametrize(("query", "variables"), QUERIES)
def test_nul_in_a_query_argument_is_an_input_error(api, query, variables):
    seed_builtin_tasks()
    token = api.sign_up("reader")
    errors = api.errors(query, variables, token=token)
    assert len(errors) == 1, errors
    assert errors[0]["extensions"] == {"code": "INVALID_INPUT"}, errors
    assert "contains a NUL character" in errors[0]["message"] and "Unexpected error" not in errors[0]["message"]


def test_the_error_names_the_variable_and_its_path(api):
    errors = api.errors("query($c: String!) { task(code: $c) { id } }", {"c": "a\x00b"})
    assert errors == [{"message": "Variable `$c` contains a NUL character.", "extensions": {"code": "INVALID_INPUT"}}]


def test_a_subscription_argument_with_nul_is_refused_too(stack, api):
    socket = Socket(stack.api_url, None)
    assert socket.acknowledged()
    socket.subscribe("subscription($r: ID!) { roundStats(roundId: $r) { number } }", {"r": "Um91bmQ6MQ==\x00"})
    message = socket.receive()
    assert message["type"] == "error" and message["payload"][0]["extensions"]["code"] == "INVALID_INPUT", message
    socket.close()


def test_mutations_still_name_the_field(api):
    token = api.sign_up("writer")
    result = api(
        "mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) { __typename ... on InputError { fields { field message } } } }",
        {"i": {"name": "bad\x00name", "scopes": ["READ"]}},
        token=token,
    )["createApiToken"]
    assert result == {"__typename": "InputError", "fields": [{"field": "name", "message": "contains a NUL character"}]}
