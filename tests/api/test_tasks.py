"""Tasks, rounds and contexts through GraphQL: creation, validation errors, paging, node lookup."""

import copy

from server.tasks.builtin import BUILTIN_TASKS
from tests.conftest import run_sql, seed_builtin_tasks

CREATE_TASK = """mutation($i: CreateTaskInput!) { createTask(input: $i) {
  __typename
  ... on TaskCreated { task { id code viewerIsOwner currentRound { number } } }
  ... on InputError { code message fields { field message } }
  ... on Error { code message }
} }"""
CREATE_ROUND = """mutation($i: CreateRoundInput!) { createRound(input: $i) {
  __typename ... on RoundCreated { round { id number targetModels { name version } task { code currentRound { number } } } }
  ... on InputError { fields { field message } } ... on Error { code message }
} }"""
ADD_CONTEXTS = """mutation($i: AddContextsInput!) { addContexts(input: $i) {
  __typename ... on ContextsAdded { count round { number } }
  ... on InputError { message fields { field message } } ... on Error { code message }
} }"""
SENTIMENT_CONFIG = BUILTIN_TASKS[0]["config"]


def create_task(api, token, code="movies", config=None):
    variables = {"i": {"code": code, "name": "Movie sentiment", "config": config or SENTIMENT_CONFIG}}
    return api(CREATE_TASK, variables, token=token)["createTask"]


def test_the_four_builtin_tasks_with_round_one_and_contexts(api):
    seed_builtin_tasks()
    seed_builtin_tasks()  # idempotent
    data = api(
        "{ tasks { edges { node { code name config currentRound { number contexts(first: 5) { edges { node { fields } } } } } } } }"
    )
    nodes = [edge["node"] for edge in data["tasks"]["edges"]]
    assert [n["code"] for n in nodes] == ["sentiment", "nli", "hate_speech", "qa"]
    for node in nodes:
        assert node["currentRound"]["number"] == 1
        contexts = node["currentRound"]["contexts"]["edges"]
        assert len(contexts) == 5 and all(c["node"]["fields"]["context"] for c in contexts)
    assert nodes[3]["config"]["fooling"] == {"metric": "string_f1", "threshold": 0.4}
    assert run_sql("SELECT count(*) AS n FROM rounds")[0]["n"] == 4


def test_create_task_makes_the_creator_its_owner(api, admin_token):
    token = api.sign_up("owner")
    result = create_task(api, token)
    assert result["__typename"] == "TaskCreated"
    assert result["task"]["viewerIsOwner"] is True and result["task"]["currentRound"] is None
    other = api.sign_up("someone")
    # A proposal until an admin approves it (tests/api/test_task_lifecycle.py).
    assert api('{ task(code: "movies") { viewerIsOwner } }', token=other) == {"task": None}
    approve = 'mutation { approveTask(taskCode: "movies", note: "") { __typename } }'
    assert api(approve, token=admin_token)["approveTask"]["__typename"] == "TaskApproved"
    assert api('{ task(code: "movies") { viewerIsOwner } }', token=other) == {"task": {"viewerIsOwner": False}}


def test_create_task_with_a_bad_config_names_the_fields(api):
    token = api.sign_up("owner")
    config = copy.deepcopy(SENTIMENT_CONFIG)
    config["labels"] = ["positive"]
    config["model_inputs"] = ["statement", "missing_field"]
    result = create_task(api, token, code="Bad Code", config=config)
    assert result["__typename"] == "InputError"
    fields = {f["field"]: f["message"] for f in result["fields"]}
    assert fields == {
        "code": "2–48 characters: lowercase letters, digits, '_', starting with a letter",
        "config.model_inputs.1": "'missing_field' is not a context or input field",
        "config.labels": "a classification task needs at least two labels",
    }
    assert run_sql("SELECT count(*) AS n FROM tasks")[0]["n"] == 0


def test_create_task_errors(api):
    assert create_task(api, None)["__typename"] == "AuthenticationError"
    token = api.sign_up("owner")
    assert create_task(api, token)["__typename"] == "TaskCreated"
    assert create_task(api, token) == {
        "__typename": "ConflictError",
        "code": "CONFLICT",
        "message": "A task with code 'movies' already exists.",
    }
    not_object = api(CREATE_TASK, {"i": {"code": "x2", "name": "n", "config": [1, 2]}}, token=token)["createTask"]
    assert not_object["fields"] == [{"field": "config.config", "message": "must be a JSON object"}]


def test_rounds_are_numbered_and_only_owners_open_them(api, community_model):
    owner = api.sign_up("owner")
    create_task(api, owner)
    variables = {"i": {"taskCode": "movies", "targetModels": [{"name": community_model, "version": "1"}]}}
    stranger = api.sign_up("stranger")
    # "movies" is a proposal: a stranger is told it does not exist (PermissionError told them it does: issue #28).
    assert api(CREATE_ROUND, variables, token=stranger)["createRound"]["__typename"] == "NotFoundError"
    assert api(CREATE_ROUND, variables)["createRound"]["__typename"] == "AuthenticationError"
    first = api(CREATE_ROUND, variables, token=owner)["createRound"]["round"]
    second = api(CREATE_ROUND, variables, token=owner)["createRound"]["round"]
    assert (first["number"], second["number"]) == (1, 2)
    assert second["task"]["currentRound"]["number"] == 2
    assert second["targetModels"] == [{"name": community_model, "version": "1"}]
    assert run_sql("SELECT count(*) AS n FROM rounds WHERE end_at IS NULL")[0]["n"] == 1
    unknown = api(CREATE_ROUND, {"i": {"taskCode": "nope", "targetModels": [{"name": "m"}]}}, token=owner)
    assert unknown["createRound"] == {
        "__typename": "NotFoundError",
        "code": "NOT_FOUND",
        "message": "Task 'nope' does not exist.",
    }
    bad = api(CREATE_ROUND, {"i": {"taskCode": "movies", "targetModels": [{"name": "../etc", "version": "x"}]}}, token=owner)
    assert bad["createRound"]["fields"] == [{"field": "targetModels.0.name", "message": "is not a valid Triton model name"}]
    admin = api.sign_up("boss")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'boss'")
    assert api(CREATE_ROUND, variables, token=admin)["createRound"]["round"]["number"] == 3


def test_add_contexts_validates_against_the_task_config_all_or_nothing(api, community_model):
    owner = api.sign_up("owner")
    create_task(api, owner)
    targets = [{"name": community_model, "version": "1"}]
    round_id = api(CREATE_ROUND, {"i": {"taskCode": "movies", "targetModels": targets}}, token=owner)["createRound"]["round"][
        "id"
    ]
    good = {"fields": {"context": "Write about a film."}, "tag": "films"}
    bad = [{"fields": {"context": ""}}, {"fields": {"premise": "x"}}, {"fields": {"context": "x" * 5001}}]
    result = api(ADD_CONTEXTS, {"i": {"roundId": round_id, "contexts": [good, *bad]}}, token=owner)["addContexts"]
    assert result["__typename"] == "InputError"
    assert [f["field"] for f in result["fields"]] == [
        "contexts.1.fields.context",
        "contexts.2.fields",
        "contexts.2.fields",
        "contexts.3.fields.context",
    ]
    assert run_sql("SELECT count(*) AS n FROM contexts")[0]["n"] == 0
    ok = api(ADD_CONTEXTS, {"i": {"roundId": round_id, "contexts": [good] * 3}}, token=owner)["addContexts"]
    assert ok == {"__typename": "ContextsAdded", "count": 3, "round": {"number": 1}}
    stranger = api.sign_up("stranger")
    assert (  # a proposal's round: as missing to a stranger (it was PermissionError, which told them it exists)
        api(ADD_CONTEXTS, {"i": {"roundId": round_id, "contexts": [good]}}, token=stranger)["addContexts"]["__typename"]
        == "NotFoundError"
    )
    task_id = api('{ task(code: "movies") { id } }', token=owner)["task"]["id"]  # a proposal: its owner sees it
    wrong_type = api(ADD_CONTEXTS, {"i": {"roundId": task_id, "contexts": [good]}}, token=owner)["addContexts"]
    assert wrong_type["fields"] == [{"field": "roundId", "message": "not a Round id"}]


def test_cursor_pagination_is_capped_and_complete(api):
    owner = api.sign_up("owner")
    for i in range(7):
        create_task(api, owner, code=f"task_{i}")
    seen, after = [], None
    while True:
        page = api(
            "query($after: String) { tasks(first: 3, after: $after) { edges { cursor node { code } } pageInfo { hasNextPage endCursor } } }",
            {"after": after},
            token=owner,  # proposals: listed to their owner
        )["tasks"]
        seen += [e["node"]["code"] for e in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert seen == [f"task_{i}" for i in range(7)]
    too_big = api.errors("{ tasks(first: 1000) { edges { cursor } } }")
    assert too_big[0]["extensions"]["code"] == "PAGE_SIZE"
    bad_cursor = api.errors('{ tasks(after: "zzz") { edges { cursor } } }')
    assert bad_cursor[0]["extensions"]["code"] == "BAD_CURSOR"


def test_node_lookup_by_global_id(api):
    seed_builtin_tasks()
    data = api('{ task(code: "nli") { id currentRound { id contexts(first: 1) { edges { node { id } } } } } }')["task"]
    context_id = data["currentRound"]["contexts"]["edges"][0]["node"]["id"]
    query = "query($id: ID!) { node(id: $id) { __typename ... on Task { code } ... on Round { number task { code } } ... on Context { round { number } } } }"
    assert api(query, {"id": data["id"]})["node"] == {"__typename": "Task", "code": "nli"}
    assert api(query, {"id": data["currentRound"]["id"]})["node"] == {"__typename": "Round", "number": 1, "task": {"code": "nli"}}
    assert api(query, {"id": context_id})["node"] == {"__typename": "Context", "round": {"number": 1}}
    assert api.errors(query, {"id": "not-a-global-id"})[0]["message"] != "Unexpected error."
