"""GraphQL abuse: depth, alias, token, batch, operation-name, nesting, introspection and fragment games
are refused with a 4xx or a GraphQL error (never a 5xx, never a masked error, nothing written).

Extends tests/api/test_limits_and_live.py (plain depth, 30 root aliases, 3,000 tokens). Request bodies:
test_request_bodies.py. The shared client's timeout bounds how long any refusal may take.
"""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.abuse import SIGN_UP, refusal, refused
from tests.fuzz.conftest import FUZZ
from tests.fuzz.harness import assert_clean


def test_depth_is_counted_through_named_and_inline_fragments(world, send):
    chain = "currentRound { task { currentRound { task { currentRound { task { code } } } } } }"
    named = f"fragment F on Task {{ {chain} }} {{ tasks {{ edges {{ node {{ currentRound {{ task {{ ...F }} }} }} }} }} }}"
    refused(world, send, {"query": named}, "exceeds maximum operation depth")
    inline = f"{{ tasks {{ edges {{ node {{ ... on Task {{ currentRound {{ task {{ ... {{ {chain} }} }} }} }} }} }} }} }}"
    refused(world, send, {"query": inline}, "exceeds maximum operation depth")
    allowed = send({"query": "{ tasks { edges { node { currentRound { task { currentRound { number } } } } } } }"}).json()
    assert "errors" not in allowed and allowed["data"]["tasks"]["edges"]


def test_aliases_are_counted_across_fragments_and_aliased_mutations_write_nothing(world, send):
    spread = "fragment F on Query { " + " ".join(f"a{i}: me {{ id }}" for i in range(10)) + " } "
    refused(
        world, send, {"query": spread + "{ ...F " + " ".join(f"b{i}: me {{ id }}" for i in range(10)) + " }"}, "aliases found"
    )
    sign_ups = "mutation { " + " ".join(f"s{i}: " + SIGN_UP.format(i=i) for i in range(16)) + " }"
    refused(world, send, {"query": sign_ups}, "aliases found", viewer="anonymous")


def test_nesting_too_deep_for_the_parser(world, send):
    refused(world, send, {"query": "{" + "me {" * 600 + "id" + "}" * 601}, "nested too deeply")
    literal = 'mutation { createTask(input: {code: "x", name: "x", config: ' + "[" * 900 + "]" * 900 + "}) { __typename } }"
    refused(world, send, {"query": literal}, "nested too deeply")


def test_deeply_nested_input_values_get_typed_errors(world, send):
    """Within the decoder's limits, deep JSON reaches the resolvers, which refuse it naming the field."""
    config = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{"deep": "x"}]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
    for _ in range(20):
        config = {"nested": config}
    query = (
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename ... on InputError { fields { field message } } } }"
    )
    result = send({"query": query, "variables": {"i": {"code": "deep_task", "name": "Deep", "config": config}}}).json()
    assert result["data"]["createTask"]["__typename"] == "InputError", result
    assert result["data"]["createTask"]["fields"][0]["field"].startswith("config"), result
    lists = {
        "query": 'mutation($r: [Int!]!) { trainTargetModel(taskCode: "alpha", fromRounds: $r) { __typename } }',
        "variables": {"r": [[[[[[1]]]]]]},
    }
    refused(world, send, lists, "Int cannot represent")


def test_lone_surrogates_and_nul_in_query_text_are_syntax_errors(world, send):
    refused(world, send, {"query": '{ task(code: "\\ud800") { id } }'}, "Syntax Error")
    refused(world, send, {"query": '{ task(code: "a\ud800") { id } }'}, "Syntax Error")
    refused(world, send, {"query": "{ me\x00 { id } }"}, "Syntax Error")


def test_batched_requests_are_refused(world, send):
    mutation = {"query": "mutation { " + SIGN_UP.format(i="batch") + " }"}
    refused(world, send, [mutation, mutation], "Batching is not enabled", viewer="anonymous")
    refused(world, send, [{"query": "{ me { id } }"}] * 20_000, "Batching is not enabled")
    refused(world, send, [], "Batching is not enabled")
    response = world.http.post(
        "/graphql",
        data={"operations": json.dumps([mutation, mutation]), "map": "{}"},
        files={"0": ("x", b"x")},
        headers={"Authorization": f"Bearer {world.tokens['alice']}"},
    )
    assert "Batching is not enabled" in refusal(response)


@pytest.mark.parametrize(
    ("operation_name", "expected"),
    [
        (None, "operation name"),
        ("Nope", "Unknown operation"),
        (["A"], "Unknown operation"),
        ({"A": 1}, "Unknown operation"),
        (5, "Unknown operation"),
        ("", "operation name"),
    ],
)
def test_operation_name_games(world, send, operation_name, expected):
    document = "query A { me { id } } mutation B { " + SIGN_UP.format(i="opname") + " }"
    refused(world, send, {"query": document, "operationName": operation_name}, expected, viewer="anonymous")


def test_duplicate_and_many_operations(world, send):
    refused(
        world,
        send,
        {"query": "query A { me { id } } query A { me { username } }", "operationName": "A"},
        "only one operation named",
    )
    many = " ".join(f"query Q{i} {{ me {{ id }} }}" for i in range(400))
    refused(world, send, {"query": many, "operationName": "Q399"}, "more than 2000 tokens")


def test_introspection_bombs(world, send):
    nested = "{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }"
    refused(world, send, {"query": nested}, "Maximum introspection depth exceeded")
    via_fragments = (
        "fragment T on __Type { fields { type { fields { type { fields { type { name } } } } } } } "
        "{ __schema { types { ...T } } }"
    )
    refused(world, send, {"query": via_fragments}, "Maximum introspection depth exceeded")
    of_types = send({"query": '{ __type(name: "Query") { fields { type { ofType { ofType { ofType { name } } } } } } }'}).json()
    assert of_types["data"]["__type"]["fields"]


def test_fragment_cycles(world, send):
    refused(world, send, {"query": "fragment A on Query { ...B } fragment B on Query { ...A } { ...A }"}, "within itself")
    refused(world, send, {"query": "fragment A on Query { me { id } ...A } { ...A }"}, "within itself")


def test_duplicated_fields_and_directives(world, send):
    refused(world, send, {"query": "{ me { " + "id " * 1990 + "} }"}, "Validation aborted")
    refused(world, send, {"query": "{ me @include(if: true)" + " @skip(if: false)" * 300 + " { id } }"}, "more than 2000 tokens")
    refused(world, send, {"query": "{ me @skip(if: false) @skip(if: false) { id } }"}, "can only be used once")


def test_very_long_single_strings(world, send):
    refused(world, send, {"query": "{ " + "a" * 1_000_000 + " }"}, "Cannot query field")
    label = {
        "query": 'mutation($l: ValidationLabel!) { validateExample(exampleId: "x", label: $l) { __typename } }',
        "variables": {"l": "A" * 1_000_000},
    }
    refused(world, send, label, "does not exist in 'ValidationLabel' enum")
    missing = send({"query": "query($c: String!) { task(code: $c) { id } }", "variables": {"c": "x" * 1_900_000}}).json()
    assert missing == {"data": {"task": None}}


def test_subscriptions_and_mutations_over_the_wrong_transport(world, send):
    refused(
        world,
        send,
        {"query": "subscription($r: ID!) { roundStats(roundId: $r) { number } }", "variables": {"r": world.refs["round:alpha"]}},
        "served over WebSocket",
    )
    response = world.http.get("/graphql", params={"query": "mutation { " + SIGN_UP.format(i="get") + " }"})
    assert "not allowed when using GET" in refusal(response)
    response = world.http.get("/graphql", params={"query": "{ me { id } }", "variables": "{not json"})
    assert response.status_code == 400
    refused(world, send, b"query=%7B%7D", "Unsupported content type", content_type="application/x-www-form-urlencoded")


DOCUMENT_TOKENS = st.sampled_from(
    [
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ":",
        "!",
        "$",
        "@",
        "...",
        "=",
        "|",
        "&",
        ",",
        "query",
        "mutation",
        "subscription",
        "fragment",
        "on",
        "me",
        "id",
        "tasks",
        "edges",
        "node",
        "code",
        "task",
        "signUp",
        "input",
        "__typename",
        "__schema",
        "__type",
        "types",
        "fields",
        "name",
        "include",
        "skip",
        "if",
        "true",
        "null",
        "1",
        "-1e999",
        '"x"',
        '"""block"""',
        '"\\u0000"',
        "$v",
        "Int",
        "String!",
        "ID",
        "a:",
        "F",
        "\ud800",
        "\x00",
        "#",
        "\n",
    ]
)


@FUZZ
@given(
    document=st.lists(DOCUMENT_TOKENS, max_size=40).map(" ".join),
    variables=st.none()
    | st.dictionaries(
        st.sampled_from(["v", "i", "input"]), st.none() | st.integers() | st.text(max_size=3) | st.just([[]]), max_size=2
    ),
)
def test_random_documents_never_crash(world, send, document, variables):
    response = send({"query": document, "variables": variables}, viewer="carol")
    assert response.status_code < 500, (document, response.text[:300])
    body = response.json() if response.headers.get("content-type", "").startswith("application/json") else {}
    assert_clean([error["message"] for error in body.get("errors", [])], document)
