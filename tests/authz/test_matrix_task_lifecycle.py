"""Authorization matrix, a task's life (issue #18; see matrix.py and world.py): the task's owners and admins edit it,
manage its co-owners and hide or archive it; only admins approve or reject a proposal. Rows act on the scratch task
(`hate_speech`) with changes that leave it as the other rows need it, or on fresh proposals."""

import pytest

from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.authz.world import SCRATCH_TASK
from tests.conftest import run_sql

ERR = "... on Error { code message }"
SPARE_USER = "mx-login"  # a user of the world who owns nothing


def _task(world, variables):
    return run_sql(
        "SELECT name, instructions, status, review_note, config_version FROM tasks WHERE id = $1", world.ids["scratch"]
    )


def _owners(world, variables):
    return run_sql('SELECT "user" FROM task_owners WHERE task = $1 ORDER BY "user"', world.ids["scratch"])


def _spare_owns_scratch(world, principal):
    run_sql(
        'INSERT INTO task_owners (task, "user") SELECT $1, id FROM users WHERE username = $2 ON CONFLICT DO NOTHING',
        world.ids["scratch"],
        SPARE_USER,
    )
    return {"c": SCRATCH_TASK, "u": SPARE_USER}


def _spare_owns_nothing(world, principal, variables=None):
    run_sql(
        'DELETE FROM task_owners WHERE task = $1 AND "user" = (SELECT id FROM users WHERE username = $2)',
        world.ids["scratch"],
        SPARE_USER,
    )
    return {"c": SCRATCH_TASK, "u": SPARE_USER}


def _proposal(world, principal):
    code = world.unique("proposal_")
    run_sql(
        "INSERT INTO tasks (code, name, description, config, active, current_round, created_at, status, review_note, "
        "instructions, config_version) SELECT $1, 'A proposal', '', config, true, 0, now(), 'PROPOSED', '', '', 1 "
        "FROM tasks WHERE id = $2",
        code,
        world.ids["scratch"],
    )
    return {"c": code, "n": f"reviewed for {principal}"}


def _proposals(world, variables):
    return run_sql("SELECT code, status, review_note FROM tasks WHERE code = $1", variables["c"])


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "updateTask",
        "Mutation.updateTask",
        f"mutation($i: UpdateTaskInput!) {{ updateTask(input: $i) {{ __typename ... on TaskUpdated {{ task {{ name }} }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"i": {"taskCode": SCRATCH_TASK, "name": f"Hate speech ({p})", "instructions": f"By {p}."}},
        check=lambda w, p, value, v: same(value["task"]["name"], f"Hate speech ({p})"),
        watch=_task,
        ok_type="TaskUpdated",
    ),
    Op(
        "addTaskOwner",
        "Mutation.addTaskOwner",
        f"mutation($c: String!, $u: String!) {{ addTaskOwner(taskCode: $c, username: $u) {{ __typename "
        f"... on TaskOwnerAdded {{ owners }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=_spare_owns_nothing,
        check=lambda w, p, value, v: holds(SPARE_USER in value["owners"], value),
        watch=_owners,
        ok_type="TaskOwnerAdded",
        after=_spare_owns_nothing,
    ),
    Op(
        "removeTaskOwner",
        "Mutation.removeTaskOwner",
        f"mutation($c: String!, $u: String!) {{ removeTaskOwner(taskCode: $c, username: $u) {{ __typename "
        f"... on TaskOwnerRemoved {{ owners }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=_spare_owns_scratch,
        check=lambda w, p, value, v: holds(SPARE_USER not in value["owners"], value),
        watch=_owners,
        ok_type="TaskOwnerRemoved",
        after=_spare_owns_nothing,
    ),
    Op(
        "approveTask",
        "Mutation.approveTask",
        f"mutation($c: String!, $n: String!) {{ approveTask(taskCode: $c, note: $n) {{ __typename "
        f"... on TaskApproved {{ task {{ status }} }} {ERR} }} }}",
        "401 403 403 403 ok 403 403 403 ok",
        prepare=_proposal,
        check=lambda w, p, value, v: same(value["task"]["status"], "PUBLIC"),
        watch=_proposals,
        ok_type="TaskApproved",
    ),
    Op(
        "rejectTask",
        "Mutation.rejectTask",
        f"mutation($c: String!, $n: String!) {{ rejectTask(taskCode: $c, note: $n) {{ __typename "
        f"... on TaskRejected {{ task {{ status }} }} {ERR} }} }}",
        "401 403 403 403 ok 403 403 403 ok",
        prepare=_proposal,
        check=lambda w, p, value, v: same(value["task"]["status"], "REJECTED"),
        watch=_proposals,
        ok_type="TaskRejected",
    ),
    Op(
        "setTaskVisibility",
        "Mutation.setTaskVisibility",
        f"mutation($c: String!) {{ setTaskVisibility(taskCode: $c, visibility: PUBLIC) {{ __typename "
        f"... on TaskVisibilityChanged {{ task {{ status }} }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"c": SCRATCH_TASK},
        check=lambda w, p, value, v: same(value["task"]["status"], "PUBLIC"),
        watch=_task,
        ok_type="TaskVisibilityChanged",
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
