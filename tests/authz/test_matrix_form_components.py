"""Authorization matrix, annotation form components (issue #18): answerFollowUp, the author's answers to the fields a
task asks after the model's verdict (see matrix.py and world.py). The world's `qa` task is given such a field here."""

import json
import uuid

import pytest

from tests.authz.matrix import Op, cells, run_cell, same
from tests.authz.world import gid, pk_of
from tests.conftest import run_sql

ERR = "... on Error { code message }"
WHY = {"name": "why", "type": "multiline_text", "show_when": "fooled"}


def _ask_why(world) -> None:
    """The `qa` task's config (and the version its round runs with) asks "why" once the model was fooled."""
    rows = run_sql(
        "SELECT v.task, v.version, v.config::text AS config FROM task_config_versions v JOIN rounds r "
        "ON r.task = v.task AND r.config_version = v.version WHERE r.id = $1",
        world.ids["round"],
    )
    config = json.loads(rows[0]["config"])
    if any(f["name"] == "why" for f in config["input_fields"]):
        return
    config["input_fields"].append(WHY)
    run_sql(
        "UPDATE task_config_versions SET config = $1::jsonb WHERE task = $2 AND version = $3",
        json.dumps(config),
        rows[0]["task"],
        rows[0]["version"],
    )
    run_sql("UPDATE tasks SET config = $1::jsonb WHERE id = $2", json.dumps(config), rows[0]["task"])


def _fooled_example(world, principal):
    """A fooled example (the annotator's; a token's own for tokens) on a task that asks why."""
    _ask_why(world)
    author = world.self_of(principal) if principal.startswith("token_") else "annotator"
    example = world.new_example(author)
    return {
        "i": {"exampleId": gid("Example", example), "fields": {"why": f"Asked by {principal}."}, "clientId": str(uuid.uuid4())}
    }


def _follow_up_state(world, variables):
    return run_sql("SELECT input, follow_up_client_id FROM examples WHERE id = $1", pk_of(variables["i"]["exampleId"]))


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "answerFollowUp",
        "Mutation.answerFollowUp",
        f"mutation($i: AnswerFollowUpInput!) {{ answerFollowUp(input: $i) {{ __typename "
        f"... on FollowUpAnswered {{ duplicate example {{ id followUpAnswered }} }} {ERR} }} }}",
        # Only the author; with a token, on the token's own example with the annotate scope.
        "401 ok 403 403 403 403 ok 403 ok",
        ok_type="FollowUpAnswered",
        prepare=_fooled_example,
        watch=_follow_up_state,
        check=lambda w, p, v, a: same(
            (v["duplicate"], v["example"]), (False, {"id": a["i"]["exampleId"], "followUpAnswered": True})
        ),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
