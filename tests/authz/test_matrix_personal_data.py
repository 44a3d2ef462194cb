"""Authorization matrix, a person's data (issue #34 point 6): exportMyData and deleteMyAccount (see matrix.py for the
outcomes and world.py for the principals). An allowed deleteMyAccount cell deletes an account made for it, of the
principal's kind (an admin's when the principal is the admin), never the world's."""

import pytest

from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.authz.world import PASSWORD, SESSIONS
from tests.conftest import run_sql

ERR = "... on Error { code message }"


def _look_alike(world, principal):
    """A new account for the session principals (the world's own for tokens and the anonymous, who are refused)."""
    if principal not in SESSIONS:
        return {"p": PASSWORD}
    name = world.unique("mx-leaving-")
    token = world.api.sign_up(name, PASSWORD)
    if principal == "admin":
        run_sql("UPDATE users SET is_admin = true WHERE username = $1", name)
    return {"p": PASSWORD, "_bearer": token, "_name": name}


def _usernames(world, variables):
    return run_sql("SELECT username FROM users ORDER BY id")


OPS = [
    Op(
        "exportMyData",
        "Query.exportMyData",
        "{ exportMyData }",
        "401 ok ok ok ok 403 403 403 ok",
        check=lambda w, p, v, _: same(v["account"]["id"], w.user_pk[w.self_of(p)]),
    ),
    Op(
        "deleteMyAccount",
        "Mutation.deleteMyAccount",
        f"mutation($p: String) {{ deleteMyAccount(input: {{password: $p}}) {{ __typename "
        f"... on AccountDeleted {{ pseudonym }} {ERR} }} }}",
        "401 ok ok ok ok 403 403 403 403",
        ok_type="AccountDeleted",
        prepare=_look_alike,
        watch=_usernames,
        check=lambda w, p, v, a: holds(
            not run_sql("SELECT 1 FROM users WHERE username = $1", a["_name"])
            and run_sql("SELECT 1 FROM users WHERE username = $1", v["pseudonym"]),
            v,
        ),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
