"""Sign-up, log-in, sessions and API tokens through the public GraphQL API."""

from tests.api.examples_helpers import wait_until
from tests.conftest import run_sql

SIGN_UP = """mutation($i: SignUpInput!) { signUp(input: $i) {
  __typename
  ... on AuthPayload { token user { id username isAdmin } }
  ... on InputError { code message fields { field message } }
  ... on ConflictError { code message }
} }"""
LOG_IN = """mutation($i: LogInInput!) { logIn(input: $i) {
  __typename ... on AuthPayload { token user { username } } ... on Error { code message }
  ... on RateLimitedError { retryAfterSeconds }
} }"""
CREATE_TOKEN = """mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) {
  __typename
  ... on ApiTokenCreated { token apiToken { id name prefix scopes } }
  ... on Error { code message }
} }"""


def test_sign_up_stores_an_argon2_hash_and_returns_a_session(api):
    data = api(SIGN_UP, {"i": {"username": "alice", "password": "a long password", "email": "A@Example.org"}})
    result = data["signUp"]
    assert result["__typename"] == "AuthPayload"
    assert result["user"]["username"] == "alice" and result["user"]["isAdmin"] is False
    stored = run_sql("SELECT password_hash, email FROM users WHERE username = 'alice'")[0]
    assert stored["password_hash"].startswith("$argon2id$") and "a long password" not in stored["password_hash"]
    assert stored["email"] == "a@example.org"
    me = api("{ me { username } }", token=result["token"])
    assert me == {"me": {"username": "alice"}}


def test_sign_up_names_each_bad_field(api):
    result = api(SIGN_UP, {"i": {"username": "a", "password": "short", "email": "nope"}})["signUp"]
    assert result["__typename"] == "InputError"
    assert {f["field"] for f in result["fields"]} == {"username", "password", "email"}


def test_username_taken_is_a_conflict_case_insensitively(api):
    api.sign_up("bob")
    result = api(SIGN_UP, {"i": {"username": "BOB", "password": "another password"}})["signUp"]
    assert result == {"__typename": "ConflictError", "code": "CONFLICT", "message": "That username is taken."}
    assert run_sql("SELECT count(*) AS n FROM users")[0]["n"] == 1


def test_log_in(api):
    api.sign_up("carol", "carol's password")
    ok = api(LOG_IN, {"i": {"username": "carol", "password": "carol's password"}})["logIn"]
    assert ok["__typename"] == "AuthPayload" and ok["user"]["username"] == "carol"
    wrong = api(LOG_IN, {"i": {"username": "carol", "password": "nope nope"}})["logIn"]
    unknown = api(LOG_IN, {"i": {"username": "nobody", "password": "nope nope"}})["logIn"]
    # The same answer for a wrong password and an unknown user: usernames are not disclosed.
    assert (
        wrong
        == unknown
        == {"__typename": "AuthenticationError", "code": "INVALID_CREDENTIALS", "message": "Wrong username or password."}
    )


def test_anonymous_me_is_null_and_bad_tokens_are_refused(api):
    assert api("{ me { username } }") == {"me": None}
    errors = api.errors("{ me { username } }", token="not-a-token")
    assert errors[0]["extensions"]["code"] == "AUTHENTICATION_FAILED"
    errors = api.errors("{ me { username } }", token="dbk_abc_def")
    assert "unknown or revoked" in errors[0]["message"]


def test_api_token_is_shown_once_stored_hashed_and_carries_scopes(api):
    session = api.sign_up("dave")
    created = api(CREATE_TOKEN, {"i": {"name": "dashboard", "scopes": ["READ"]}}, token=session)["createApiToken"]
    assert created["__typename"] == "ApiTokenCreated"
    token = created["token"]
    assert token.startswith(f"dbk_{created['apiToken']['prefix']}_")
    row = run_sql("SELECT token_hash, last_used_at FROM api_tokens")[0]
    assert token not in row["token_hash"] and row["last_used_at"] is None
    assert api("{ me { username } }", token=token) == {"me": {"username": "dave"}}
    assert run_sql("SELECT last_used_at FROM api_tokens")[0]["last_used_at"] is not None
    # A read-only token cannot mint tokens or create tasks.
    denied = api(CREATE_TOKEN, {"i": {"name": "x", "scopes": ["ADMIN"]}}, token=token)["createApiToken"]
    assert denied["__typename"] == "PermissionError"
    # Its own node is visible to its owner only.
    node_query = "query($id: ID!) { node(id: $id) { ... on ApiToken { name scopes } } }"
    assert api(node_query, {"id": created["apiToken"]["id"]}, token=session)["node"] == {"name": "dashboard", "scopes": ["READ"]}
    assert api(node_query, {"id": created["apiToken"]["id"]}, token=api.sign_up("eve"))["node"] is None


def test_api_token_input_errors(api):
    session = api.sign_up("frank")
    result = api(CREATE_TOKEN, {"i": {"name": "", "scopes": []}}, token=session)["createApiToken"]
    assert result["__typename"] == "InputError"
    anonymous = api(CREATE_TOKEN, {"i": {"name": "x", "scopes": ["READ"]}})["createApiToken"]
    assert anonymous["__typename"] == "AuthenticationError"


def test_wrong_types_are_rejected_without_a_write(api):
    errors = api.errors(SIGN_UP, {"i": {"username": 12, "password": None}})
    messages = " ".join(error["message"] for error in errors)
    assert ".username" in messages and ".password" in messages
    assert run_sql("SELECT count(*) AS n FROM users")[0]["n"] == 0


def test_api_tokens_are_listed_without_secrets_and_can_be_revoked(api):
    session = api.sign_up("dashboard-dev")
    created = api(CREATE_TOKEN, {"i": {"name": "grafana", "scopes": ["READ"]}}, token=session)["createApiToken"]
    secret, token_id = created["token"], created["apiToken"]["id"]
    assert api("{ me { username } }", token=secret)["me"]["username"] == "dashboard-dev"
    listed = api("{ myApiTokens { id name prefix scopes lastUsedAt } }", token=session)["myApiTokens"]
    assert len(listed) == 1 and listed[0]["id"] == token_id and listed[0]["name"] == "grafana"
    assert listed[0]["lastUsedAt"] is not None and listed[0]["prefix"] in secret and secret != listed[0]["prefix"]

    revoke = "mutation($t: ID!) { revokeApiToken(tokenId: $t) { __typename ... on Error { code message } } }"
    other = api.sign_up("someone-else")
    assert api(revoke, {"t": token_id}, token=other)["revokeApiToken"]["__typename"] == "NotFoundError"
    assert api(revoke, {"t": token_id}, token=secret)["revokeApiToken"]["code"] == "FORBIDDEN"  # a READ token cannot
    assert api(revoke, {"t": token_id})["revokeApiToken"]["__typename"] == "AuthenticationError"
    assert api(revoke, {"t": token_id}, token=session)["revokeApiToken"]["__typename"] == "ApiTokenRevoked"
    errors = api.errors("{ me { username } }", token=secret)
    assert errors and "unknown or revoked" in errors[0]["message"]
    assert api("{ myApiTokens { id } }", token=session)["myApiTokens"] == []
    assert api(revoke, {"t": token_id}, token=session)["revokeApiToken"]["__typename"] == "NotFoundError"
    assert run_sql("SELECT count(*) AS n FROM api_tokens WHERE revoked_at IS NOT NULL")[0]["n"] == 1


def test_failed_log_ins_back_off_per_account_and_address(stack, api):
    """Five failures are free, then the account waits 2, 4, 8, ... s from this address (the default rules;
    tests/security/test_holes_login.py covers other addresses, password spraying and proxies)."""
    api.sign_up("target-user")
    api.sign_up("bystander")

    def attempt(name: str, password: str) -> dict:
        return api(LOG_IN, {"i": {"username": name, "password": password}})["logIn"]

    for _ in range(6):
        assert attempt("Target-User", "wrong password!")["code"] == "INVALID_CREDENTIALS"
    limited = attempt("target-user", "correct horse battery")  # even the right password waits now
    assert limited["__typename"] == "RateLimitedError", limited
    assert limited["message"].startswith("Too many failed log-ins to this account from your address; try again in")
    assert 1 <= limited["retryAfterSeconds"] <= 2
    assert attempt("bystander", "correct horse battery")["__typename"] == "AuthPayload"  # other accounts unaffected
    # The wait ends by itself, and the right password then clears the failures.
    wait_until(lambda: attempt("target-user", "correct horse battery")["__typename"] == "AuthPayload", timeout=30, interval=0.5)
    assert attempt("target-user", "wrong password!")["code"] == "INVALID_CREDENTIALS"
