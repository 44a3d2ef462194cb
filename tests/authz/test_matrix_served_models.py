"""Authorization matrix, the target models a new task can choose (issue #18): `servedTargetModels` is for whoever may
create a task (signed in; tokens need the admin scope), and a task's submissions follow the task's visibility (see
matrix.py)."""

import pytest

from tests.authz.matrix import Op, cells, holds, run_cell
from tests.authz.world import MAIN_TASK

SERVED = """query($task: String) { servedTargetModels(taskCode: $task) { targets { name ready usable }
  submissions { modelId } } }"""

#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "servedTargetModels",
        "Query.servedTargetModels",
        SERVED,
        "401 ok ok ok ok 403 403 403 ok",
        prepare=lambda w, p: {"task": None},
        check=lambda w, p, v, a: holds(isinstance(v["targets"], list) and v["submissions"] == [], v),
    ),
    Op(
        "servedTargetModels:task",
        "Query.servedTargetModels",
        SERVED,
        # A public task: its published submissions are listed to whoever may create tasks.
        "401 ok ok ok ok 403 403 403 ok",
        prepare=lambda w, p: {"task": MAIN_TASK},
        check=lambda w, p, v, a: holds(isinstance(v["submissions"], list), v),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
