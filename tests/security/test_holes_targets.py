"""Issue #15 point 6.1: nobody but its own task's owners (or an admin) can retrain and replace a built-in target
model. The attack: create a task, open its round with `sentiment_minilm`, retrain it from your own examples;
a round of the built-in `sentiment` task that followed "the newest version" was then judged by the result.
Now a built-in target belongs to its built-in task (server/permissions/target_models.py) and every round pins
the exact version it opened with."""

import asyncio
import copy
import json

from server.tasks.builtin import BUILTIN_TASKS
from tests.conftest import run_sql, seed_builtin_tasks

ERR = "... on Error { code message } ... on InputError { fields { field message } }"
CREATE_TASK = f"mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename {ERR} }} }}"
CREATE_ROUND = f"""mutation($i: CreateRoundInput!) {{ createRound(input: $i) {{
  __typename ... on RoundCreated {{ round {{ number targetModels {{ name version }} }} }} {ERR} }} }}"""
TRAIN = f"""mutation($t: String!) {{ trainTargetModel(taskCode: $t, fromRounds: [1], profile: FAST) {{
  __typename ... on TrainingStarted {{ run {{ id }} }} {ERR} }} }}"""
SENTIMENT = next(task for task in BUILTIN_TASKS if task["code"] == "sentiment")


def _admin(api, name="site-admin") -> str:
    token = api.sign_up(name)
    run_sql("UPDATE users SET is_admin = true WHERE username = $1", name)
    return token


def _own_task(api, token, code="my_sentiment") -> None:
    config = copy.deepcopy(SENTIMENT["config"])
    assert api(CREATE_TASK, {"i": {"code": code, "name": "Mine", "config": config}}, token=token)["createTask"] == {
        "__typename": "TaskCreated"
    }


def _queued_run(code: str, user: str) -> None:
    """A run already queued for the task: a request that passes every check is then refused as a conflict
    (instead of starting minutes of training)."""
    run_sql(
        "INSERT INTO training_runs (task, requested_by, from_rounds, base_model, profile, status, progress, status_log, "
        "model_name, model_version, n_validated, metrics, created_at) SELECT t.id, u.id, '[1]', '', 'fast', 'queued', 0, "
        "'[]', 'sentiment_minilm', '', 0, '{}', now() FROM tasks t, users u WHERE t.code = $1 AND u.username = $2",
        code,
        user,
    )


def test_a_task_owner_cannot_borrow_a_builtin_target_nor_retrain_it(api, target_models):
    seed_builtin_tasks()
    attacker = api.sign_up("attacker")
    _own_task(api, attacker)
    borrowed = {"i": {"taskCode": "my_sentiment", "targetModels": [{"name": "sentiment_minilm"}]}}
    refused = api(CREATE_ROUND, borrowed, token=attacker)["createRound"]
    assert refused["code"] == "FORBIDDEN" and "belongs to the built-in task 'sentiment'" in refused["message"]
    assert run_sql("SELECT count(*) AS n FROM rounds r JOIN tasks t ON t.id = r.task WHERE t.code = 'my_sentiment'")[0]["n"] == 0

    # An admin may open such a round (the model judges; nothing is replaced) ...
    admin = _admin(api)
    opened = api(CREATE_ROUND, borrowed, token=admin)["createRound"]
    assert opened["round"]["targetModels"] == [{"name": "sentiment_minilm", "version": "1"}]  # pinned, not "newest"
    # ... but the task's owner still cannot retrain the model through it; the admin can (here: refused only as
    # a conflict with an already queued run, i.e. past every permission check).
    refused = api(TRAIN, {"t": "my_sentiment"}, token=attacker)["trainTargetModel"]
    assert refused["code"] == "FORBIDDEN" and "built-in task 'sentiment'" in refused["message"]
    assert run_sql("SELECT count(*) AS n FROM training_runs")[0]["n"] == 0
    _queued_run("my_sentiment", "site-admin")
    assert api(TRAIN, {"t": "my_sentiment"}, token=admin)["trainTargetModel"]["code"] == "CONFLICT"


def test_the_builtin_tasks_owners_retrain_their_model(api, target_models):
    seed_builtin_tasks()
    owner = api.sign_up("sentiment-owner")
    run_sql(
        'INSERT INTO task_owners (task, "user") SELECT t.id, u.id FROM tasks t, users u '
        "WHERE t.code = 'sentiment' AND u.username = 'sentiment-owner'"
    )
    stranger = api.sign_up("stranger")
    assert api(TRAIN, {"t": "sentiment"}, token=stranger)["trainTargetModel"]["code"] == "FORBIDDEN"
    _queued_run("sentiment", "sentiment-owner")
    assert api(TRAIN, {"t": "sentiment"}, token=owner)["trainTargetModel"]["code"] == "CONFLICT"  # past the permission
    # Its own rounds may name it; "the newest version" is pinned to the exact one Triton serves now.
    opened = api(CREATE_ROUND, {"i": {"taskCode": "sentiment", "targetModels": [{"name": "sentiment_minilm"}]}}, token=owner)
    assert opened["createRound"]["round"] == {"number": 2, "targetModels": [{"name": "sentiment_minilm", "version": "1"}]}


def test_rounds_record_exact_versions(api, target_models):
    seed_builtin_tasks()
    seeded = run_sql("SELECT t.code, r.target_models::text AS targets FROM rounds r JOIN tasks t ON t.id = r.task ORDER BY t.id")
    assert all('"version": "1"' in row["targets"] for row in seeded), seeded
    owner = api.sign_up("owner")
    _own_task(api, owner, "movies")
    # A model nobody owns: an owner may name it; without a version it is pinned, and a model the target Triton
    # does not serve has no version to pin.
    unknown = api(CREATE_ROUND, {"i": {"taskCode": "movies", "targetModels": [{"name": "ghost_model"}]}}, token=owner)
    assert unknown["createRound"]["fields"] == [
        {
            "field": "targetModels.0.version",
            "message": "the target Triton serves no model 'ghost_model' right now: name the version that judges this round",
        }
    ]
    # Named with a version, it is still checked live: a model Triton does not serve cannot judge a round.
    named = api(
        CREATE_ROUND, {"i": {"taskCode": "movies", "targetModels": [{"name": "ghost_model", "version": "3"}]}}, token=owner
    )
    assert named["createRound"]["fields"] == [
        {"field": "targetModels.0", "message": "'ghost_model' version 3: not loaded and ready in the target Triton"}
    ]


def test_builtin_task_codes_are_reserved(api):
    # Without the built-in tasks seeded, a user could otherwise create `nli` and own its built-in target model.
    token = api.sign_up("squatter")
    refused = api(CREATE_TASK, {"i": {"code": "nli", "name": "Mine", "config": SENTIMENT["config"]}}, token=token)
    assert refused["createTask"] == {
        "__typename": "PermissionError",
        "code": "FORBIDDEN",
        "message": "The code 'nli' is reserved for a built-in task.",
    }


def test_the_migration_pins_rounds_that_followed_the_newest_version(api):
    """Rounds stored before this fix with a built-in target and no version: pinned to the version that judged the
    round's latest example, else to version 1; other models are left as they were."""
    from server.tasks.piccolo_migrations.tasks_2026_11_25t09_00_00_000000 import forwards

    seed_builtin_tasks()
    api.sign_up("author")
    unpinned = [{"name": "sentiment_minilm", "version": ""}, {"name": "somebody_elses", "version": ""}]
    run_sql("UPDATE rounds SET target_models = $1::jsonb", json.dumps(unpinned))
    run_sql(
        'INSERT INTO examples (client_id, round, context, "user", input, model_output, fooled, status, retracted, flagged, '
        "flag_reason, explanation, pending_reason, model_name, model_version, created_at) "
        "SELECT gen_random_uuid(), r.id, c.id, u.id, '{}', '{}', false, 'closed', false, false, '', '', '', "
        "'sentiment_minilm', '2', now() FROM rounds r JOIN tasks t ON t.id = r.task JOIN contexts c ON c.round = r.id "
        "JOIN users u ON u.username = 'author' WHERE t.code = 'sentiment' LIMIT 1"
    )
    asyncio.run(_migrate(forwards))
    pinned = {
        row["code"]: json.loads(row["targets"])
        for row in run_sql("SELECT t.code, r.target_models::text AS targets FROM rounds r JOIN tasks t ON t.id = r.task")
    }
    assert pinned["sentiment"] == [{"name": "sentiment_minilm", "version": "2"}, {"name": "somebody_elses", "version": ""}]
    assert pinned["nli"] == [{"name": "sentiment_minilm", "version": "1"}, {"name": "somebody_elses", "version": ""}]


async def _migrate(forwards) -> None:
    manager = await forwards()
    await manager.run()
