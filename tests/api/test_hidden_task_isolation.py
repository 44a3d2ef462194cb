"""Hidden and proposed tasks stay hidden from strangers wherever a task is named (issue #28 point 1): an upload, the
owner queries and mutations, a model's `task`, a leaderboard configuration, and the owners' live feeds. For a stranger
a hidden or proposed task and a missing one answer identically (same code and message, the code aside)."""

import copy
import json

from strawberry.relay import to_base64
from websockets.sync.client import connect

from server.tasks.builtin import BUILTIN_TASKS
from tests.api.models_helpers import upload_model
from tests.conftest import run_sql, seed_builtin_tasks

SENTIMENT = copy.deepcopy(next(t for t in BUILTIN_TASKS if t["code"] == "sentiment")["config"])
ERR = "... on Error { code message }"
HIDE = f"""mutation($c: String!) {{ setTaskVisibility(taskCode: $c, visibility: HIDDEN) {{ __typename {ERR} }} }}"""
CREATE_TASK = f"""mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename
  ... on TaskCreated {{ task {{ status }} }} {ERR} }} }}"""
MISSING = "no_such_task"
# Owner queries that name a task by code: refused to a stranger as NOT_FOUND (a GraphQL error).
OWNER_QUERIES = {
    "taskQuality": "query($c: String!) { taskQuality(taskCode: $c) { duplicatesRefused } }",
    "trainingRuns": "query($c: String!) { trainingRuns(taskCode: $c) { id } }",
    "campaigns": "query($c: String!) { campaigns(taskCode: $c) { id } }",
    "webhooks": "query($c: String!) { webhooks(taskCode: $c) { id } }",
    "flaggedExamples": "query($c: String!) { flaggedExamples(taskCode: $c) { edges { node { id } } } }",
    "myModels": "query($c: String!) { myModels(taskCode: $c) { id } }",
}
# Mutations that name a task by code: a NotFoundError member for a stranger.
SAVE_CONFIG = f"""mutation($c: String!) {{ saveLeaderboardConfig(taskCode: $c, name: "mine",
  metricWeights: [{{metric: PERF, weight: 1}}]) {{ __typename {ERR} }} }}"""
OWNER_MUTATIONS = {
    "saveLeaderboardConfig": SAVE_CONFIG,
    "updateTask": f"""mutation($c: String!) {{ updateTask(input: {{taskCode: $c, name: "mine"}}) {{ __typename {ERR} }} }}""",
    "addTaskOwner": f"""mutation($c: String!) {{ addTaskOwner(taskCode: $c, username: "stranger") {{ __typename {ERR} }} }}""",
    "openNextRound": f"""mutation($c: String!) {{ openNextRound(taskCode: $c, modelVersion: "2") {{ __typename {ERR} }} }}""",
    "setTaskVisibility": f"""mutation($c: String!) {{ setTaskVisibility(taskCode: $c, visibility: PUBLIC) {{
      __typename {ERR} }} }}""",
}
ADD_OWNER = f"""mutation($u: String!) {{ addTaskOwner(taskCode: "sentiment", username: $u) {{ __typename {ERR} }} }}"""
ROUND_STATS = "subscription($r: ID!) { roundStats(roundId: $r) { id totalCollected } }"


def _hidden_world(api, admin_token) -> dict[str, str]:
    """sentiment hidden by the admin, movies proposed by its owner; tokens of the owner and a stranger."""
    seed_builtin_tasks()
    assert api(HIDE, {"c": "sentiment"}, token=admin_token)["setTaskVisibility"]["__typename"] == "TaskVisibilityChanged"
    owner, stranger = api.sign_up("owner"), api.sign_up("stranger")
    created = api(CREATE_TASK, {"i": {"code": "movies", "name": "Movies", "config": SENTIMENT}}, token=owner)["createTask"]
    assert created["task"]["status"] == "PROPOSED", created
    return {"owner": owner, "stranger": stranger}


def _as_missing(code: str, answer: dict) -> dict:
    """The answer with the task's code replaced, to compare a hidden task's answer with a missing one's."""
    return json.loads(json.dumps(answer).replace(f"'{code}'", "'<task>'"))


def test_an_upload_to_another_users_hidden_or_proposed_task_is_refused_like_a_missing_one(api, admin_token):
    tokens = _hidden_world(api, admin_token)
    answers = {
        code: upload_model(api, tokens["stranger"], code, "probe", b"not even read") for code in ("sentiment", "movies", MISSING)
    }
    assert answers[MISSING] == {
        "__typename": "NotFoundError",
        "code": "NOT_FOUND",
        "message": f"Task '{MISSING}' does not exist.",
    }
    assert (
        _as_missing("sentiment", answers["sentiment"])
        == _as_missing("movies", answers["movies"])
        == _as_missing(MISSING, answers[MISSING])
    )
    assert run_sql("SELECT count(*) AS n FROM models")[0]["n"] == 0
    # Its owners get past the task: the archive itself is what is refused.
    for token, code in ((admin_token, "sentiment"), (tokens["owner"], "movies")):
        assert upload_model(api, token, code, "probe", b"not even read")["__typename"] == "ArchiveRejectedError"


def test_owner_queries_and_mutations_answer_a_hidden_task_as_a_missing_one(api, admin_token):
    tokens = _hidden_world(api, admin_token)
    for field, query in OWNER_QUERIES.items():
        errors = {code: api.errors(query, {"c": code}, token=tokens["stranger"]) for code in ("sentiment", "movies", MISSING)}
        shapes = {
            code: _as_missing(code, [{"message": e["message"], "code": e["extensions"]["code"]} for e in errs])
            for code, errs in errors.items()
        }
        assert shapes[MISSING] == [{"message": "Task '<task>' does not exist.", "code": "NOT_FOUND"}], (field, errors)
        assert shapes["sentiment"] == shapes["movies"] == shapes[MISSING], (field, errors)
        assert not api.errors(query, {"c": "sentiment"}, token=admin_token), field  # the owners still read it
    for field, mutation in OWNER_MUTATIONS.items():
        answers = {code: api(mutation, {"c": code}, token=tokens["stranger"])[field] for code in ("sentiment", "movies", MISSING)}
        assert answers[MISSING]["__typename"] == "NotFoundError", (field, answers)
        assert _as_missing("sentiment", answers["sentiment"]) == _as_missing(MISSING, answers[MISSING]), (field, answers)
        assert _as_missing("movies", answers["movies"]) == _as_missing(MISSING, answers[MISSING]), (field, answers)
    # A public task's stranger is still told FORBIDDEN: it exists for everyone to see.
    assert api.errors(OWNER_QUERIES["webhooks"], {"c": "nli"}, token=tokens["stranger"])[0]["extensions"]["code"] == "FORBIDDEN"


def test_a_non_owner_cannot_save_a_leaderboard_configuration_on_a_hidden_task(api, admin_token):
    tokens = _hidden_world(api, admin_token)
    refused = api(SAVE_CONFIG, {"c": "sentiment"}, token=tokens["stranger"])["saveLeaderboardConfig"]
    assert refused == {"__typename": "NotFoundError", "code": "NOT_FOUND", "message": "Task 'sentiment' does not exist."}
    assert run_sql("SELECT count(*) AS n FROM leaderboard_configs")[0]["n"] == 0
    assert (
        api(SAVE_CONFIG, {"c": "nli"}, token=tokens["stranger"])["saveLeaderboardConfig"]["__typename"]
        == "LeaderboardConfigSaved"
    )
    saved = api(SAVE_CONFIG, {"c": "sentiment"}, token=admin_token)["saveLeaderboardConfig"]
    assert saved["__typename"] == "LeaderboardConfigSaved", saved


def test_a_models_task_is_what_its_viewer_may_see(api, admin_token):
    """A published model on a task hidden after the upload (or uploaded before the rule): the model is public, its
    task is null to everyone who may not see the task (as `node(id:)` answers for the task itself)."""
    tokens = _hidden_world(api, admin_token)
    uploader = api.sign_up("uploader")
    model_id = run_sql(
        "INSERT INTO models (task, owner, name, card, status, status_log, triton_name, triton_version, published, "
        "anonymous, created_at) SELECT t.id, u.id, 'early bird', '{}', 'evaluated', '[]', '', '', true, false, now() "
        "FROM tasks t, users u WHERE t.code = 'sentiment' AND u.username = 'uploader' RETURNING id"
    )[0]["id"]
    query = """query($id: ID!) { node(id: $id) { ... on Model { name task { code instructions
      currentRound { contexts(first: 1) { edges { node { id } } } } } } } }"""
    model_gid = to_base64("Model", model_id)
    for token in (None, tokens["stranger"], uploader):
        assert api(query, {"id": model_gid}, token=token)["node"] == {"name": "early bird", "task": None}, token
    assert api(query, {"id": model_gid}, token=admin_token)["node"]["task"]["code"] == "sentiment"
    mine = api("{ myModels { name task { code } } }", token=uploader)["myModels"]
    assert mine == [{"name": "early bird", "task": None}]


def test_a_removed_owners_round_stats_feed_ends(stack, api, admin_token):
    _hidden_world(api, admin_token)
    co_owner = api.sign_up("co-owner")
    for username in ("keeper", "co-owner"):  # the task keeps one owner when the co-owner is removed
        if username == "keeper":
            api.sign_up(username)
        added = api(ADD_OWNER, {"u": username}, token=admin_token)["addTaskOwner"]
        assert added["__typename"] == "TaskOwnerAdded", added
    round_pk = run_sql(
        "SELECT r.id FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment' ORDER BY r.number DESC LIMIT 1"
    )[0]["id"]
    round_gid = to_base64("Round", round_pk)
    with connect(stack.api_url.replace("http://", "ws://") + "/graphql", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {co_owner}"}}))
        assert json.loads(ws.recv(timeout=30))["type"] == "connection_ack"
        ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": ROUND_STATS, "variables": {"r": round_gid}}}))
        first = json.loads(ws.recv(timeout=30))
        assert first["type"] == "next" and first["payload"]["data"]["roundStats"]["id"] == round_gid, first
        removed = api(
            f"""mutation {{ removeTaskOwner(taskCode: "sentiment", username: "co-owner") {{ __typename {ERR} }} }}""",
            token=admin_token,
        )
        assert removed["removeTaskOwner"]["__typename"] == "TaskOwnerRemoved", removed
        while (message := json.loads(ws.recv(timeout=30)))["type"] == "ping":
            ws.send(json.dumps({"type": "pong"}))
        # Ended as a missing round would have been refused at the start.
        assert message["type"] == "next" and message["payload"]["errors"][0]["message"] == "That round does not exist.", message
        assert message["payload"]["errors"][0]["extensions"]["code"] == "NOT_FOUND"
        assert json.loads(ws.recv(timeout=30))["type"] == "complete"
