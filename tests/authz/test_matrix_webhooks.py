"""Authorization matrix, webhooks (issue #18; see matrix.py and world.py): only the main task's owners and admins (a
token with the admin scope) manage its hooks and read their delivery logs. Hooks point at a closed port on 127.0.0.1
(the session allows private targets) and listen to events the matrix never causes."""

import pytest

from tests.authz.matrix import Op, cells, holds, run_cell
from tests.authz.world import MAIN_TASK, gid
from tests.conftest import run_sql

ERR = "... on Error { code message }"
URL = "http://127.0.0.1:9/matrix"


def _insert_hook(world, description: str = "") -> int:
    return run_sql(
        "INSERT INTO webhooks (task, url, events, description, secret_salt, created_by) "
        "VALUES ($1, $2, ARRAY['model.scored'], $3, $4, $5) RETURNING id",
        world.ids["task"],
        URL,
        description,
        "0" * 64,
        world.user_pk["task_owner"],
    )[0]["id"]


@pytest.fixture(scope="module", autouse=True)
def hook(world):
    pk = _insert_hook(world, "matrix hook")
    run_sql(
        "INSERT INTO webhook_deliveries (webhook, event_id, event_type, payload, status) "
        "VALUES ($1, gen_random_uuid(), 'model.scored', '{}', 'failed')",
        pk,
    )
    world.ids["webhook_gid"] = gid("Webhook", pk)
    return pk


def _hooks(world, variables):
    return run_sql("SELECT id, url, events, description, enabled FROM webhooks ORDER BY id")


def _fresh_hook(world, principal):
    return {"id": gid("Webhook", _insert_hook(world))}


def _clean_up_created(world, principal, variables):
    """Created hooks count towards the task's cap (WEBHOOKS_PER_TASK): the matrix keeps it clear."""
    run_sql("DELETE FROM webhooks WHERE url = $1", variables["u"])


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "createWebhook",
        "Mutation.createWebhook",
        f"mutation($t: String!, $u: String!, $e: [WebhookEventType!]!) {{ createWebhook(taskCode: $t, url: $u, events: $e) "
        f"{{ __typename ... on WebhookCreated {{ secret }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"t": MAIN_TASK, "u": f"{URL}/{w.unique(p)}", "e": ["MODEL_SCORED"]},
        watch=_hooks,
        ok_type="WebhookCreated",
        after=_clean_up_created,
    ),
    Op(
        "updateWebhook",
        "Mutation.updateWebhook",
        f"mutation($id: ID!, $d: String) {{ updateWebhook(webhookId: $id, description: $d) {{ __typename {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"id": w.ids["webhook_gid"], "d": f"changed by {p}"},
        watch=_hooks,
        ok_type="WebhookSaved",
    ),
    Op(
        "deleteWebhook",
        "Mutation.deleteWebhook",
        f"mutation($id: ID!) {{ deleteWebhook(webhookId: $id) {{ __typename {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=_fresh_hook,
        watch=_hooks,
        ok_type="WebhookDeleted",
    ),
    Op(
        "rotateWebhookSecret",
        "Mutation.rotateWebhookSecret",
        f"mutation($id: ID!) {{ rotateWebhookSecret(webhookId: $id, keepPreviousHours: 1) {{ __typename "
        f"... on WebhookSecretRotated {{ secret }} {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"id": w.ids["webhook_gid"]},
        watch=lambda w, v: run_sql("SELECT id, secret_salt, previous_secret_salt FROM webhooks ORDER BY id"),
        ok_type="WebhookSecretRotated",
    ),
    Op(
        "webhooks",
        "Query.webhooks",
        "query($t: String!) { webhooks(taskCode: $t) { id url events } }",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"t": MAIN_TASK},
        check=lambda w, p, v, _: holds(w.ids["webhook_gid"] in [h["id"] for h in v], v),
    ),
    Op(
        "webhookDeliveries",
        "Query.webhookDeliveries",
        "query($id: ID!) { webhookDeliveries(webhookId: $id) { edges { node { event status } } } }",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"id": w.ids["webhook_gid"]},
        check=lambda w, p, v, _: holds([e["node"] for e in v["edges"]] == [{"event": "MODEL_SCORED", "status": "FAILED"}], v),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
