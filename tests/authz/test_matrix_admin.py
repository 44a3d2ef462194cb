"""Authorization matrix, the admin pages (issue #18 point 5): accounts, proposals, submissions and the audit log are
for admins only (a session, or an API token with the 'admin' scope of an admin account). See matrix.py for the
outcomes and world.py for the principals. Allowed cells act on fresh objects, so that no principal of the world is
demoted, disabled or signed out."""

import pytest

from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.authz.world import gid
from tests.conftest import run_sql

ERR = "... on Error { code message }"
ADMINS_ONLY = "401 403 403 403 ok 403 403 403 ok"


def _fresh_user(world, principal):
    name = world.unique("mx-admin-target-")
    user = run_sql("INSERT INTO users (username, password_hash) VALUES ($1, '!') RETURNING id", name)[0]["id"]
    return {"u": gid("User", user), "_user": user, "_name": name}


def _user_row(world, variables):
    return run_sql("SELECT is_admin, disabled_at, session_epoch FROM users WHERE id = $1", variables["_user"])


def _fresh_model(world, principal):
    model = world.new_model("annotator", published=True)
    return {"m": gid("Model", model), "why": "matrix take-down", "_model": model}


def _model_row(world, variables):
    return run_sql("SELECT published, taken_down_at FROM models WHERE id = $1", variables["_model"])


def _connection(value):
    holds(isinstance(value["edges"], list), value)


OPS = [
    Op(
        "adminUsers",
        "Query.adminUsers",
        '{ adminUsers(first: 5, search: "mx-") { edges { node { username role disabled } } } }',
        ADMINS_ONLY,
        check=lambda w, p, v, _: holds(all(e["node"]["username"].startswith("mx-") for e in v["edges"]), v),
    ),
    Op(
        "pendingTasks",
        "Query.pendingTasks",
        "{ pendingTasks { code status owners } }",
        ADMINS_ONLY,
        check=lambda w, p, v, _: holds(all(t["status"] == "PROPOSED" for t in v), v),
    ),
    Op(
        "adminModels",
        "Query.adminModels",
        "{ adminModels(first: 5) { edges { node { name owner takenDown } } } }",
        ADMINS_ONLY,
        check=lambda w, p, v, _: _connection(v),
    ),
    Op(
        "auditLog",
        "Query.auditLog",
        "{ auditLog(first: 5) { edges { node { actor action targetLabel } } } }",
        ADMINS_ONLY,
        check=lambda w, p, v, _: _connection(v),
    ),
    Op(
        "setUserRole",
        "Mutation.setUserRole",
        "mutation($u: ID!) { setUserRole(userId: $u, role: ADMIN) { __typename "
        f"... on UserRoleSet {{ user {{ username role }} }} {ERR} }} }}",
        ADMINS_ONLY,
        ok_type="UserRoleSet",
        prepare=_fresh_user,
        watch=_user_row,
        check=lambda w, p, v, a: same(v["user"], {"username": a["_name"], "role": "ADMIN"}),
        after=lambda w, p, a: run_sql("UPDATE users SET is_admin = false WHERE id = $1", a["_user"]),
    ),
    Op(
        "setUserDisabled",
        "Mutation.setUserDisabled",
        'mutation($u: ID!) { setUserDisabled(userId: $u, disabled: true, reason: "matrix") { __typename '
        f"... on UserDisabledSet {{ user {{ disabled disabledReason }} }} {ERR} }} }}",
        ADMINS_ONLY,
        ok_type="UserDisabledSet",
        prepare=_fresh_user,
        watch=_user_row,
        check=lambda w, p, v, _: same(v["user"], {"disabled": True, "disabledReason": "matrix"}),
    ),
    Op(
        "resetUserSessions",
        "Mutation.resetUserSessions",
        "mutation($u: ID!) { resetUserSessions(userId: $u) { __typename "
        f"... on UserSessionsReset {{ user {{ username }} }} {ERR} }} }}",
        ADMINS_ONLY,
        ok_type="UserSessionsReset",
        prepare=_fresh_user,
        watch=_user_row,
        check=lambda w, p, v, a: holds(v["user"]["username"] == a["_name"] and _user_row(w, a)[0]["session_epoch"] == 1, v),
    ),
    Op(
        "takeDownModel",
        "Mutation.takeDownModel",
        "mutation($m: ID!, $why: String!) { takeDownModel(modelId: $m, reason: $why) { __typename "
        f"... on ModelTakenDown {{ model {{ published takenDownReason }} }} {ERR} }} }}",
        ADMINS_ONLY,
        ok_type="ModelTakenDown",
        prepare=_fresh_model,
        watch=_model_row,
        check=lambda w, p, v, _: same(v["model"], {"published": False, "takenDownReason": "matrix take-down"}),
    ),
    Op(
        "shareTargetModel",
        "Mutation.shareTargetModel",
        'mutation { shareTargetModel(name: "mx-never-shared", shared: false) { __typename '
        f"... on TargetModelShared {{ name shared }} {ERR} }} }}",
        ADMINS_ONLY,
        ok_type="TargetModelShared",
        watch=lambda w, v: run_sql("SELECT name FROM shared_target_models"),
        check=lambda w, p, v, _: same({k: v[k] for k in ("name", "shared")}, {"name": "mx-never-shared", "shared": False}),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
