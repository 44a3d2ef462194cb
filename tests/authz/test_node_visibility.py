"""`node(id:)` applies the same visibility rules as the lists (server/permissions/datasets.py, models.py): a hidden
dataset is null to everyone but the task's owners and admins, as in `datasets`; an unpublished model is null to
everyone but its owner and admins, as on the leaderboard. Regression: a hidden dataset's metadata was readable
anonymously through `node`."""

import pytest

from tests.authz.matrix import Op, cells, run_cell, same
from tests.authz.world import gid
from tests.conftest import run_sql

DATASET = "query($id: ID!) { node(id: $id) { ... on Dataset { id name access exampleCount } } }"
MODEL = "query($id: ID!) { node(id: $id) { ... on Model { id published } } }"


def _scoring_dataset(world) -> int:
    if "scoring_dataset" not in world.ids:
        world.ids["scoring_dataset"] = run_sql(
            "INSERT INTO datasets (task, name, access, weight, created_at) VALUES ($1, 'for everyone', 'scoring', 1, now()) "
            "RETURNING id",
            world.ids["task"],
        )[0]["id"]
    return world.ids["scoring_dataset"]


def _published_model(world) -> int:
    if "published_model" not in world.ids:
        world.ids["published_model"] = world.new_model("annotator", published=True)
    return world.ids["published_model"]


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "node:Dataset:hidden",
        "Query.node",
        DATASET,
        # As the `datasets` list: hidden datasets reach only the task's owners and admins (the admin's tokens included).
        "hide hide hide ok ok ok 403 403 ok",
        prepare=lambda w, p: {"id": gid("Dataset", w.ids["hidden_dataset"])},
        check=lambda w, p, v, a: same(v, {"id": a["id"], "name": "owners only", "access": "HIDDEN", "exampleCount": 0}),
    ),
    Op(
        "node:Dataset:scoring",
        "Query.node",
        DATASET,
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"id": gid("Dataset", _scoring_dataset(w))},
        check=lambda w, p, v, a: same(v, {"id": a["id"], "name": "for everyone", "access": "SCORING", "exampleCount": 0}),
    ),
    Op(
        "node:Model:unpublished",
        "Query.node",
        MODEL,
        # An unpublished model: its owner (the annotator) and admins only.
        "hide ok hide hide ok ok 403 403 ok",
        prepare=lambda w, p: {"id": gid("Model", w.ids["model"])},
        check=lambda w, p, v, a: same(v, {"id": a["id"], "published": False}),
    ),
    Op(
        "node:Model:published",
        "Query.node",
        MODEL,
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"id": gid("Model", _published_model(w))},
        check=lambda w, p, v, a: same(v, {"id": a["id"], "published": True}),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_node_visibility(world, op, principal):
    run_cell(world, op, principal)


@pytest.mark.parametrize("principal, hidden_visible", [("anonymous", False), ("another_annotator", False), ("task_owner", True)])
def test_several_nodes_in_one_request_each_follow_the_rule(world, principal, hidden_visible):
    """Nodes fetched together (batched into one load per type) are each checked on their own."""
    query = """query($hidden: ID!, $open: ID!, $model: ID!) {
      hidden: node(id: $hidden) { ... on Dataset { name } }
      open: node(id: $open) { ... on Dataset { name } }
      model: node(id: $model) { ... on Model { published } }
    }"""
    variables = {
        "hidden": gid("Dataset", world.ids["hidden_dataset"]),
        "open": gid("Dataset", _scoring_dataset(world)),
        "model": gid("Model", world.ids["model"]),
    }
    data = world.api(query, variables, token=world.bearer[principal])
    same(data, {"hidden": {"name": "owners only"} if hidden_visible else None, "open": {"name": "for everyone"}, "model": None})
