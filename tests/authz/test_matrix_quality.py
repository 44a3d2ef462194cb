"""Authorization matrix, crowd quality (issue #17): gold items and the owners' quality view (see matrix.py)."""

import pytest

from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.authz.world import MAIN_TASK, gid, pk_of
from tests.conftest import run_sql

ERR = "... on Error { code message }"


def _gold_of(world, variables):
    return run_sql("SELECT example, answer FROM gold_items WHERE example = $1", pk_of(variables["e"]))


def _gold_example(world, principal):
    example = world.new_example("annotator")
    run_sql("INSERT INTO gold_items (example, task, answer) VALUES ($1, $2, 'correct')", example, world.ids["task"])
    return {"e": gid("Example", example)}


def _paused_validator(world, principal):
    """A fresh validator with five wrong gold answers in the main task: paused by the default rule (5 answers, 0.7)."""
    name = world.unique("paused-validator-")
    user = run_sql(
        "INSERT INTO users (username, email, password_hash, is_admin) VALUES ($1, NULL, '!', false) RETURNING id", name
    )[0]["id"]
    for _ in range(5):
        example = world.new_example("annotator")
        run_sql("INSERT INTO gold_items (example, task, answer) VALUES ($1, $2, 'correct')", example, world.ids["task"])
        run_sql(
            "INSERT INTO gold_answers (example, task, \"user\", label, gold_label) VALUES ($1, $2, $3, 'incorrect', 'correct')",
            example,
            world.ids["task"],
            user,
        )
    return {"c": MAIN_TASK, "u": name, "_user": user}


def _reinstatements_of(world, variables):
    return run_sql('SELECT count(*) AS n FROM validator_reinstatements WHERE "user" = $1', variables["_user"])


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "markGold",
        "Mutation.markGold",
        f"mutation($e: ID!) {{ markGold(exampleId: $e, answer: INCORRECT) {{ __typename "
        f"... on GoldMarked {{ answer example {{ id }} }} {ERR} }} }}",
        # The task's owners (and admins); to anyone else the example does not exist. Tokens need the admin scope.
        "401 hide hide ok ok 403 403 403 ok",
        ok_type="GoldMarked",
        prepare=lambda w, p: {"e": gid("Example", w.new_example("annotator"))},
        watch=_gold_of,
        check=lambda w, p, v, a: same(_gold_of(w, a), [{"example": pk_of(a["e"]), "answer": "incorrect"}]),
    ),
    Op(
        "unmarkGold",
        "Mutation.unmarkGold",
        f"mutation($e: ID!) {{ unmarkGold(exampleId: $e) {{ __typename ... on GoldUnmarked {{ example {{ id }} }} {ERR} }} }}",
        "401 hide hide ok ok 403 403 403 ok",
        ok_type="GoldUnmarked",
        prepare=_gold_example,
        watch=_gold_of,
        check=lambda w, p, v, a: same(_gold_of(w, a), []),
    ),
    Op(
        "uploadGold",
        "Mutation.uploadGold",
        f"mutation($r: ID!, $f: Upload!) {{ uploadGold(roundId: $r, file: $f) {{ __typename "
        f"... on GoldUploaded {{ count }} {ERR} }} }}",
        # The task's owners (and admins); tokens need the admin scope. Rounds are public: others are refused.
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="GoldUploaded",
        prepare=lambda w, p: {"r": w.round},
        upload=("f", "gold.jsonl", b'{"fields": {"question": "Which letter?"}, "answer": "e", "gold": "correct"}\n'),
        watch=lambda w, v: run_sql("SELECT count(*) AS n FROM gold_items WHERE hidden"),
        check=lambda w, p, v, a: same(v["count"], 1),
    ),
    Op(
        "reinstateValidator",
        "Mutation.reinstateValidator",
        f"mutation($c: String!, $u: String!) {{ reinstateValidator(taskCode: $c, username: $u) {{ __typename "
        f"... on ValidatorReinstated {{ validator {{ username paused reinstatedAt }} }} {ERR} }} }}",
        # The task's owners (and admins); tokens need the admin scope.
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="ValidatorReinstated",
        prepare=_paused_validator,
        watch=_reinstatements_of,
        check=lambda w, p, v, a: holds(
            v["validator"]["username"] == a["u"] and not v["validator"]["paused"] and v["validator"]["reinstatedAt"], v
        ),
    ),
    Op(
        "taskQuality",
        "Query.taskQuality",
        "query($c: String!) { taskQuality(taskCode: $c) { duplicatesRefused validators { username paused } } }",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"c": MAIN_TASK},
        check=lambda w, p, v, a: same(v["duplicatesRefused"], 0),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
