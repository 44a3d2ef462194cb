"""Authorization matrix, browsing what was collected (issue #18): owners' filters, the flag queue, one example's
review and bulk actions (see matrix.py)."""

import pytest

from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.authz.world import MAIN_TASK, gid, pk_of
from tests.conftest import run_sql

ERR = "... on Error { code message }"
OWNERS = ("task_owner", "admin", "token_admin")


def _flagged_example(world, principal):
    example = world.new_example("annotator")
    run_sql("UPDATE examples SET flagged = true, flag_reason = 'wrong label' WHERE id = $1", example)
    return {"ids": [gid("Example", example)]}


def _flag_of(world, variables):
    return run_sql("SELECT flagged FROM examples WHERE id = $1", pk_of(variables["ids"][0]))


def _acted(world, principal, value, variables):
    [outcome] = value["outcomes"]
    if principal in OWNERS:
        holds(outcome["done"] and _flag_of(world, variables) == [{"flagged": False}], value)
    else:  # another's example is as good as missing, and stays as it was
        holds(not outcome["done"] and outcome["code"] == "NOT_FOUND" and outcome["example"] is None, value)
        same(_flag_of(world, variables), [{"flagged": True}])


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "roundExamples",
        "Query.roundExamples",
        'query($r: ID!) { roundExamples(roundId: $r, filter: {text: "river"}) { edges { node { id } } } }',
        # The task's owners (and admins); tokens need the admin scope.
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"r": w.round},
        check=lambda w, p, v, a: holds(gid("Example", w.ids["example"]) in [e["node"]["id"] for e in v["edges"]], v),
    ),
    Op(
        "flaggedExamples",
        "Query.flaggedExamples",
        "query($c: String!) { flaggedExamples(taskCode: $c) { edges { node { id flagReason } } } }",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"c": MAIN_TASK, **_flagged_example(w, p)},
        check=lambda w, p, v, a: holds(a["ids"][0] in [e["node"]["id"] for e in v["edges"]], v),
    ),
    Op(
        "exampleReview",
        "Query.exampleReview",
        "query($e: ID!) { exampleReview(exampleId: $e) { example { id } votes { username } history { action } } }",
        # The task's owners (and admins); to anyone else the example does not exist.
        "401 hide hide ok ok 403 403 403 ok",
        prepare=lambda w, p: {"e": gid("Example", w.ids["example"])},
        check=lambda w, p, v, a: same(v["example"]["id"], a["e"]),
    ),
    Op(
        "actOnExamples",
        "Mutation.actOnExamples",
        f"mutation($ids: [ID!]!) {{ actOnExamples(exampleIds: $ids, action: RESOLVE_FLAG) {{ __typename "
        f"... on ExamplesActedOn {{ outcomes {{ done code example {{ id }} }} }} {ERR} }} }}",
        # Signed in with the annotate and admin scopes: each example is acted on only by its task's owners; for
        # anyone else it does not exist (an item NOT_FOUND, nothing changes).
        "401 ok ok ok ok 403 403 403 ok",
        ok_type="ExamplesActedOn",
        prepare=_flagged_example,
        watch=_flag_of,
        check=_acted,
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
