"""Admin pages, accounts (issue #18 point 5): roles (no self-demotion, never the last admin), disabling (log-in,
sessions and API tokens refused at once), ending sessions, proposals to approve, and the audit log of it all."""

from __future__ import annotations

import base64
from concurrent.futures import ThreadPoolExecutor

from tests.conftest import run_sql

ERR = "... on InputError { code message fields { field message } } ... on Error { code message }"
USER = "id username email emailVerified role disabled disabledReason createdAt lastSeenAt"
USERS = f"""query($s: String, $r: UserRole, $d: Boolean, $n: Int! = 20, $a: String) {{
  adminUsers(search: $s, role: $r, disabled: $d, first: $n, after: $a) {{
    edges {{ node {{ {USER} }} }} pageInfo {{ hasNextPage endCursor }} }} }}"""
SET_ROLE = f"""mutation($u: ID!, $r: UserRole!) {{ setUserRole(userId: $u, role: $r) {{ __typename
  ... on UserRoleSet {{ user {{ {USER} }} }} {ERR} }} }}"""
SET_DISABLED = f"""mutation($u: ID!, $d: Boolean!, $why: String! = "") {{
  setUserDisabled(userId: $u, disabled: $d, reason: $why) {{ __typename ... on UserDisabledSet {{ user {{ {USER} }} }} {ERR} }} }}"""
RESET_SESSIONS = f"""mutation($u: ID!) {{ resetUserSessions(userId: $u) {{ __typename
  ... on UserSessionsReset {{ user {{ username }} }} {ERR} }} }}"""
AUDIT = """query($a: AuditAction, $who: String, $n: Int! = 50, $after: String) {
  auditLog(action: $a, actor: $who, first: $n, after: $after) {
    edges { node { actor action targetType targetId targetLabel reason createdAt } } pageInfo { hasNextPage endCursor } } }"""
LOG_IN = f"""mutation($u: String!, $p: String!) {{ logIn(input: {{username: $u, password: $p}}) {{ __typename
  ... on AuthPayload {{ token }} {ERR} }} }}"""
CREATE_TOKEN = """mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) {
  __typename ... on ApiTokenCreated { token } ... on Error { code message } } }"""
ME = "{ me { username } }"
TASKS = "{ tasks(first: 5) { edges { node { code } } } }"
ISSUE = f"""mutation($u: String!) {{ adminIssuePasswordReset(input: {{username: $u}}) {{ __typename
  ... on PasswordResetIssued {{ token }} {ERR} }} }}"""
PENDING = "{ pendingTasks { code status owners createdAt } }"
CREATE_TASK = f"""mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename ... on TaskCreated {{ task {{ status }} }} {ERR} }} }}"""
APPROVE = f"""mutation($c: String!, $n: String!) {{ approveTask(taskCode: $c, note: $n) {{ __typename {ERR} }} }}"""
REJECT = f"""mutation($c: String!, $n: String!) {{ rejectTask(taskCode: $c, note: $n) {{ __typename {ERR} }} }}"""
VISIBILITY = (
    f"""mutation($c: String!, $v: TaskVisibility!) {{ setTaskVisibility(taskCode: $c, visibility: $v) {{ __typename {ERR} }} }}"""
)
PASSWORD = "correct horse battery"
CONFIG = {
    "kind": "classification",
    "context_fields": [{"name": "context", "max_length": 5000}],
    "input_fields": [{"name": "statement", "max_length": 1000}],
    "model_inputs": ["statement"],
    "labels": ["negative", "positive"],
    "output_fields": ["label", "probs"],
    "fooling": {"metric": "exact_match"},
    "performance_metric": "accuracy",
}


def gid(type_name: str, pk: int) -> str:
    return base64.b64encode(f"{type_name}:{pk}".encode()).decode()


def user_gid(username: str) -> str:
    return gid("User", run_sql("SELECT id FROM users WHERE username = $1", username)[0]["id"])


def audit(api, token, **filters) -> list[dict]:
    return [e["node"] for e in api(AUDIT, filters, token=token)["auditLog"]["edges"]]


def refused(api, query: str, token: str) -> str:
    errors = api.errors(query, token=token)
    assert errors, f"{query} was answered"
    return errors[0]["extensions"]["code"] + ": " + errors[0]["message"]


def test_only_admins_reach_the_admin_queries(api, admin_token):
    user = api.sign_up("plain")
    for query in (USERS, AUDIT, PENDING):
        assert refused(api, query, user).startswith("FORBIDDEN"), query
        assert api.errors(query)[0]["extensions"]["code"] == "AUTHENTICATION_REQUIRED"
        api(query, token=admin_token)
    outcome = api(SET_ROLE, {"u": user_gid("root-admin"), "r": "USER"}, token=user)["setUserRole"]
    assert outcome["__typename"] == "PermissionError"


def test_roles_change_but_never_the_admins_own_nor_the_last(api, admin_token):
    api.sign_up("helper")
    promoted = api(SET_ROLE, {"u": user_gid("helper"), "r": "ADMIN"}, token=admin_token)["setUserRole"]
    assert promoted["__typename"] == "UserRoleSet" and promoted["user"]["role"] == "ADMIN"
    helper = api(LOG_IN, {"u": "helper", "p": PASSWORD})["logIn"]["token"]
    assert api(USERS, {"r": "ADMIN"}, token=helper)["adminUsers"]["edges"]  # an admin now

    own = api(SET_ROLE, {"u": user_gid("root-admin"), "r": "USER"}, token=admin_token)["setUserRole"]
    assert own["__typename"] == "ConflictError" and "your own admin role" in own["message"]

    # Two admins demoting each other at once: one wins, the other finds it is the last admin (or no longer one).
    with ThreadPoolExecutor(2) as pool:
        outcomes = list(
            pool.map(
                lambda args: api(SET_ROLE, {"u": user_gid(args[0]), "r": "USER"}, token=args[1])["setUserRole"]["__typename"],
                [("helper", admin_token), ("root-admin", helper)],
            )
        )
    assert sorted(outcomes) in (["PermissionError", "UserRoleSet"], ["ConflictError", "UserRoleSet"]), outcomes
    [survivor] = run_sql("SELECT username FROM users WHERE is_admin")
    rows = audit(api, {"root-admin": admin_token, "helper": helper}[survivor["username"]], a="ROLE_CHANGED")
    demoted = "helper" if survivor["username"] == "root-admin" else "root-admin"
    assert [(r["targetLabel"], r["reason"]) for r in rows] == [(demoted, "USER"), ("helper", "ADMIN")]


def test_a_disabled_account_is_refused_at_once_everywhere_and_can_be_enabled(api, admin_token):
    session = api.sign_up("mallory")
    token = api(CREATE_TOKEN, {"i": {"name": "script", "scopes": ["READ"]}}, token=session)["createApiToken"]["token"]
    assert api(TASKS, token=token) and api(ME, token=session)["me"]["username"] == "mallory"

    no_reason = api(SET_DISABLED, {"u": user_gid("mallory"), "d": True}, token=admin_token)["setUserDisabled"]
    assert no_reason["__typename"] == "InputError" and no_reason["fields"][0]["field"] == "reason"
    done = api(SET_DISABLED, {"u": user_gid("mallory"), "d": True, "why": "Spam."}, token=admin_token)["setUserDisabled"]
    assert done["__typename"] == "UserDisabledSet"
    assert done["user"]["disabled"] is True and done["user"]["disabledReason"] == "Spam."

    # The very next requests: the session (account read and scope-only read alike) and the API token are refused.
    for credential in (session, token):
        for query in (ME, TASKS):
            assert refused(api, query, credential).startswith("AUTHENTICATION_FAILED"), (credential, query)
    assert "disabled" in refused(api, TASKS, token)
    login = api(LOG_IN, {"u": "mallory", "p": PASSWORD})["logIn"]
    assert login["__typename"] == "AuthenticationError" and "disabled by an administrator" in login["message"]
    wrong = api(LOG_IN, {"u": "mallory", "p": "not the password"})["logIn"]
    assert "disabled" not in wrong["message"]  # only whoever knows the password learns it is disabled

    listed = api(USERS, {"d": True}, token=admin_token)["adminUsers"]["edges"]
    assert [e["node"]["username"] for e in listed] == ["mallory"]

    enabled = api(SET_DISABLED, {"u": user_gid("mallory"), "d": False}, token=admin_token)["setUserDisabled"]
    assert enabled["user"]["disabled"] is False and enabled["user"]["disabledReason"] is None
    assert refused(api, ME, session).startswith("AUTHENTICATION_FAILED")  # old sessions stay ended
    assert api(TASKS, token=token)  # the token works again (it was never revoked)
    fresh = api(LOG_IN, {"u": "mallory", "p": PASSWORD})["logIn"]
    assert fresh["__typename"] == "AuthPayload" and api(ME, token=fresh["token"])["me"]["username"] == "mallory"

    own = api(SET_DISABLED, {"u": user_gid("root-admin"), "d": True, "why": "x"}, token=admin_token)["setUserDisabled"]
    assert own["__typename"] == "ConflictError"
    actions = [(r["action"], r["targetLabel"], r["reason"]) for r in audit(api, admin_token)]
    assert actions == [("USER_ENABLED", "mallory", ""), ("USER_DISABLED", "mallory", "Spam.")]


def test_reset_sessions_ends_sessions_but_not_tokens(api, admin_token):
    session = api.sign_up("walker")
    token = api(CREATE_TOKEN, {"i": {"name": "script", "scopes": ["READ"]}}, token=session)["createApiToken"]["token"]
    done = api(RESET_SESSIONS, {"u": user_gid("walker")}, token=admin_token)["resetUserSessions"]
    assert done == {"__typename": "UserSessionsReset", "user": {"username": "walker"}}
    assert refused(api, TASKS, session).startswith("AUTHENTICATION_FAILED")
    assert api(TASKS, token=token)
    assert api(LOG_IN, {"u": "walker", "p": PASSWORD})["logIn"]["__typename"] == "AuthPayload"
    missing = api(RESET_SESSIONS, {"u": gid("User", 999999)}, token=admin_token)["resetUserSessions"]
    assert missing["__typename"] == "NotFoundError"
    wrong_type = api(RESET_SESSIONS, {"u": gid("Model", 1)}, token=admin_token)["resetUserSessions"]
    assert wrong_type["__typename"] == "InputError"
    assert [r["action"] for r in audit(api, admin_token)] == ["SESSIONS_RESET"]


def test_users_search_and_pages(api, admin_token):
    for name in ("ann_1", "ann_2", "bob"):
        api.sign_up(name)
    names = lambda **f: [e["node"]["username"] for e in api(USERS, f, token=admin_token)["adminUsers"]["edges"]]  # noqa: E731
    assert names(s="ANN_") == ["ann_2", "ann_1"]
    assert names(s="%") == []  # wildcards are literal
    assert names(r="ADMIN") == ["root-admin"]
    page = api(USERS, {"n": 2}, token=admin_token)["adminUsers"]
    rest = api(USERS, {"n": 10, "a": page["pageInfo"]["endCursor"]}, token=admin_token)["adminUsers"]
    assert len(page["edges"]) == 2 and page["pageInfo"]["hasNextPage"]
    everyone = [e["node"]["username"] for e in page["edges"] + rest["edges"]]
    assert sorted(everyone) == ["ann_1", "ann_2", "bob", "root-admin"]
    node = page["edges"][0]["node"]
    assert node["role"] == "USER" and node["emailVerified"] is False and node["lastSeenAt"] is None


def test_proposals_reviews_visibility_and_reset_links_are_audited(api, admin_token):
    owner = api.sign_up("proposer")
    for code in ("prop_a", "prop_b"):
        created = api(CREATE_TASK, {"i": {"code": code, "name": code, "config": CONFIG}}, token=owner)["createTask"]
        assert created["task"]["status"] == "PROPOSED"
    pending = api(PENDING, token=admin_token)["pendingTasks"]
    assert [(t["code"], t["owners"]) for t in pending] == [("prop_a", ["proposer"]), ("prop_b", ["proposer"])]

    assert api(APPROVE, {"c": "prop_a", "n": "Looks good."}, token=admin_token)["approveTask"]["__typename"] == "TaskApproved"
    assert api(REJECT, {"c": "prop_b", "n": "Add labels."}, token=admin_token)["rejectTask"]["__typename"] == "TaskRejected"
    assert api(PENDING, token=admin_token)["pendingTasks"] == []
    # The owner's visibility change is theirs to make (not an admin action); an admin's is recorded.
    assert (
        api(VISIBILITY, {"c": "prop_a", "v": "HIDDEN"}, token=owner)["setTaskVisibility"]["__typename"] == "TaskVisibilityChanged"
    )
    assert (
        api(VISIBILITY, {"c": "prop_a", "v": "ARCHIVED"}, token=admin_token)["setTaskVisibility"]["__typename"]
        == "TaskVisibilityChanged"
    )
    assert api(ISSUE, {"u": "proposer"}, token=admin_token)["adminIssuePasswordReset"]["__typename"] == "PasswordResetIssued"

    rows = audit(api, admin_token)
    assert [(r["action"], r["targetType"], r["targetLabel"], r["reason"], r["actor"]) for r in rows] == [
        ("PASSWORD_RESET_ISSUED", "user", "proposer", "", "root-admin"),
        ("TASK_VISIBILITY", "task", "prop_a", "ARCHIVED", "root-admin"),
        ("TASK_REJECTED", "task", "prop_b", "Add labels.", "root-admin"),
        ("TASK_APPROVED", "task", "prop_a", "Looks good.", "root-admin"),
    ]
    task_id = run_sql("SELECT id FROM tasks WHERE code = 'prop_a'")[0]["id"]
    assert rows[1]["targetId"] == gid("Task", task_id)
    assert [r["action"] for r in audit(api, admin_token, a="TASK_APPROVED")] == ["TASK_APPROVED"]
    assert audit(api, admin_token, who="ROOT-ADMIN") == rows and audit(api, admin_token, who="proposer") == []
    first = api(AUDIT, {"n": 3}, token=admin_token)["auditLog"]
    rest = api(AUDIT, {"n": 3, "after": first["pageInfo"]["endCursor"]}, token=admin_token)["auditLog"]
    assert [e["node"] for e in first["edges"] + rest["edges"]] == rows and not rest["pageInfo"]["hasNextPage"]
    # A refused review writes no audit row.
    again = api(APPROVE, {"c": "prop_a", "n": ""}, token=admin_token)["approveTask"]
    assert again["__typename"] == "ConflictError" and len(audit(api, admin_token)) == 4
