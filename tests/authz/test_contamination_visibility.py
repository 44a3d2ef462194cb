"""Contamination reports (docs/design.md §4.9, server/permissions/datasets.py `can_view_overlap_texts`): their counts
are public wherever the dataset or round is, their example pairs (the rows' texts and what they match) reach
only the task's owners and admins (the admin's tokens included)."""

import json

import pytest

from tests.authz.matrix import Op, cells, run_cell, same
from tests.authz.world import gid
from tests.conftest import run_sql

COUNTS = {"compared": 2, "exact": 1, "near_ngram": 0, "near_embedding": 0, "rows": 1, "embeddings": False}
PAIR = {
    "against": "collected",
    "kind": "exact",
    "similarity": 1.0,
    "row": "r1",
    "row_text": "a secret row",
    "match": "example 1",
    "match_text": "a secret example",
}
DATASET_REPORT = {
    "rows": 3,
    "method": "m",
    "encoder": None,
    "notes": [],
    "against": {"collected": COUNTS, "training": COUNTS, "datasets": COUNTS},
    "pairs": [PAIR],
}
ROUND_REPORT = {
    "targets": [{"name": "qa_overlap_baseline", "version": "2"}],
    "training_rows": 5,
    "method": "m",
    "encoder": None,
    "notes": [],
    "datasets": [],
    "pairs": [{**PAIR, "against": "training", "dataset": "scored"}],
}
DATASET = "query($id: ID!) { node(id: $id) { ... on Dataset { contamination { collected { rows } pairs { rowUid rowText } } } } }"
ROUND = "query($id: ID!) { node(id: $id) { ... on Round { contamination { trainingRows pairs { rowUid matchText } } } } }"


def _reported_dataset(world) -> int:
    if "reported_dataset" not in world.ids:
        dataset = run_sql(
            "INSERT INTO datasets (task, name, access, weight, created_at) VALUES ($1, 'reported', 'scoring', 1, now()) "
            "RETURNING id",
            world.ids["task"],
        )[0]["id"]
        run_sql(
            "INSERT INTO contamination_reports (task, dataset, report) VALUES ($1, $2, $3::jsonb)",
            world.ids["task"],
            dataset,
            json.dumps(DATASET_REPORT),
        )
        world.ids["reported_dataset"] = dataset
    return world.ids["reported_dataset"]


def _reported_round(world) -> int:
    if not run_sql("SELECT 1 FROM contamination_reports WHERE round = $1", world.ids["round"]):
        run_sql(
            "INSERT INTO contamination_reports (task, round, report) VALUES ($1, $2, $3::jsonb)",
            world.ids["task"],
            world.ids["round"],
            json.dumps(ROUND_REPORT),
        )
    return world.ids["round"]


def _check_dataset(world, principal, value, _):
    pairs = [{"rowUid": "r1", "rowText": "a secret row"}] if world.owns_tasks(principal) else None
    same(value, {"contamination": {"collected": {"rows": 1}, "pairs": pairs}})


def _check_round(world, principal, value, _):
    pairs = [{"rowUid": "r1", "matchText": "a secret example"}] if world.owns_tasks(principal) else None
    same(value, {"contamination": {"trainingRows": 5, "pairs": pairs}})


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "node:Dataset:contamination",
        "Query.node",
        DATASET,
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"id": gid("Dataset", _reported_dataset(w))},
        check=_check_dataset,
    ),
    Op(
        "node:Round:contamination",
        "Query.node",
        ROUND,
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"id": gid("Round", _reported_round(w))},
        check=_check_round,
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_contamination_report_visibility(world, op, principal):
    run_cell(world, op, principal)
