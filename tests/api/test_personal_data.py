"""Issue #34 point 6: a person's data. exportMyData gives everything the platform holds about the account as JSON;
deleteMyAccount forgets the person (username → keyed pseudonym, email, tokens, inbox and crowd ids gone) and keeps
their examples and votes as the tasks' data under the pseudonym."""

from __future__ import annotations

import json
import time

from strawberry.relay import from_base64

from server.accounts import credentials
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, submit
from tests.conftest import run_sql, seed_builtin_tasks

PASSWORD = "correct horse battery"
EXPORT = "{ exportMyData }"
DELETE = """mutation($p: String) { deleteMyAccount(input: {password: $p}) { __typename
  ... on AccountDeleted { pseudonym } ... on Error { code message } ... on InputError { fields { field message } } } }"""
TOKEN = """mutation { createApiToken(input: {name: "notebook", scopes: [READ, ADMIN]}) {
  ... on ApiTokenCreated { token } } }"""
SET_EMAIL = 'mutation { setEmail(input: {email: "ada@example.org"}) { __typename } }'
VOTE = "mutation($e: ID!) { validateExample(exampleId: $e, label: INCORRECT) { __typename } }"


def _writer(api, name: str) -> tuple[str, str, list[str]]:
    """An account with an email, an API token, two examples and a vote on someone else's example."""
    seed_builtin_tasks()
    session = api.sign_up(name)
    api(SET_EMAIL, token=session)
    token = api(TOKEN, token=session)["createApiToken"]["token"]
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=session)["nextContext"]["id"]
    examples = [
        submit(api, session, round_id, context_id, {"statement": f"{name} wrote this {i}."}, "positive")["example"]["id"]
        for i in range(2)
    ]
    other = api.sign_up(f"{name}-friend")
    theirs = submit(api, other, round_id, context_id, {"statement": "A friend's sentence."}, "negative")["example"]["id"]
    assert api(VOTE, {"e": theirs}, token=session)["validateExample"]["__typename"] == "ExampleValidated"
    return session, token, [*examples, theirs]


def test_export_my_data_holds_everything_about_me_and_no_secret(api, target_models):
    session, token, _ = _writer(api, "ada")
    data = api(EXPORT, token=session)["exportMyData"]
    assert data["account"]["username"] == "ada" and data["account"]["email"] == "ada@example.org"
    tables = data["tables"]
    assert sorted(json.loads(json.dumps(row["input"]))["statement"] for row in tables["examples"]) == [
        "ada wrote this 0.",
        "ada wrote this 1.",
    ]
    assert [v["label"] for v in tables["validations"]] == ["incorrect"]
    assert [t["name"] for t in tables["api_tokens"]] == ["notebook"]
    assert tables["user_round_stats"] and tables["notifications"] == []
    text = json.dumps(data)
    assert "password_hash" not in text and "token_hash" not in text and token.split(".")[-1] not in text
    # Only the account's own rows: the friend's example is not in it.
    assert all("friend" not in row["input"].get("statement", "") for row in tables["examples"])
    # An API token needs the admin scope to read it, as for minting tokens; a read-only token is refused.
    assert api(EXPORT, token=token)["exportMyData"]["account"]["username"] == "ada"
    read_only = api.errors(EXPORT, token=_read_token(api, session))
    assert read_only[0]["extensions"]["code"] == "FORBIDDEN"


def _read_token(api, session: str) -> str:
    created = api(
        'mutation { createApiToken(input: {name: "ro", scopes: [READ]}) { ... on ApiTokenCreated { token } } }', token=session
    )
    return created["createApiToken"]["token"]


def test_deleting_my_account_forgets_me_and_keeps_my_work_under_a_pseudonym(api, target_models):
    session, token, (*mine, theirs) = _writer(api, "grace")
    [user] = run_sql("SELECT id FROM users WHERE username = 'grace'")
    # Confirmation: a wrong password is refused and changes nothing; an API token cannot delete its own account.
    wrong = api(DELETE, {"p": "not my password"}, token=session)["deleteMyAccount"]
    assert wrong["__typename"] == "InputError" and wrong["fields"] == [{"field": "password", "message": "is not right"}]
    assert api(DELETE, {"p": PASSWORD}, token=token)["deleteMyAccount"]["code"] == "FORBIDDEN"
    assert run_sql("SELECT username FROM users WHERE id = $1", user["id"])[0]["username"] == "grace"
    deleted = api(DELETE, {"p": PASSWORD}, token=session)["deleteMyAccount"]
    assert deleted["__typename"] == "AccountDeleted" and deleted["pseudonym"].startswith("deleted-w")
    [row] = run_sql("SELECT username, email, password_hash, disabled_at FROM users WHERE id = $1", user["id"])
    assert row["username"] == deleted["pseudonym"] and row["email"] is None and row["password_hash"] == "!"
    assert row["disabled_at"] is not None
    for table, column in (("api_tokens", "user"), ("account_tokens", "user"), ("notifications", "recipient")):
        assert run_sql(f'SELECT count(*) AS n FROM {table} WHERE "{column}" = $1', user["id"])[0]["n"] == 0, table
    # The session and the token stop at once; the password no longer logs in; the name is free again.
    assert api.errors("{ me { username } }", token=session)[0]["extensions"]["code"] == "AUTHENTICATION_FAILED"
    assert api.errors("{ me { username } }", token=token)[0]["extensions"]["code"] == "AUTHENTICATION_FAILED"
    log_in = 'mutation { logIn(input: {username: "grace", password: "correct horse battery"}) { __typename } }'
    assert api(log_in)["logIn"]["__typename"] == "AuthenticationError"
    assert api.sign_up("grace")  # a new person may take the name
    # The work stays: the examples under the pseudonym, the vote on the friend's example.
    ids = [int(from_base64(example)[1]) for example in mine]
    authors = run_sql('SELECT DISTINCT u.username FROM examples e JOIN users u ON u.id = e."user" WHERE e.id = ANY($1)', ids)
    assert [a["username"] for a in authors] == [deleted["pseudonym"]]
    votes = run_sql('SELECT label, "user" FROM validations WHERE example = $1', int(from_base64(theirs)[1]))
    assert votes == [{"label": "incorrect", "user": user["id"]}]
    # The audit log says the account was deleted by its owner, under the pseudonym.
    audit = run_sql("SELECT action, target_label FROM admin_audit WHERE actor = $1", user["id"])
    assert audit == [{"action": "account_deleted", "target_label": deleted["pseudonym"]}]


def test_without_a_password_only_a_fresh_session_deletes_and_the_last_admin_cannot(api, stack, target_models):
    fresh = api.sign_up("fresh-login")
    [user] = run_sql("SELECT id FROM users WHERE username = 'fresh-login'")
    secret = stack.env["JWT_SECRET"]
    stale = credentials.issue_session_token(user["id"], secret, 7 * 24 * 3600, now=time.time() - 3600)
    refused = api(DELETE, {"p": None}, token=stale)["deleteMyAccount"]
    assert refused["__typename"] == "InputError" and "less than 10 minutes old" in refused["message"]
    assert api(DELETE, {"p": None}, token=fresh)["deleteMyAccount"]["__typename"] == "AccountDeleted"
    # The only admin keeps the platform administrable.
    admin = api.sign_up("only-admin")
    run_sql("UPDATE users SET is_admin = false WHERE is_admin")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'only-admin'")
    last = api(DELETE, {"p": PASSWORD}, token=admin)["deleteMyAccount"]
    assert last["__typename"] == "ConflictError" and "last admin" in last["message"]
    assert run_sql("SELECT username FROM users WHERE username = 'only-admin'")
