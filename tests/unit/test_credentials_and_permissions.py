import jwt
import pytest

from server import permissions
from server.accounts import credentials
from server.accounts.viewer import Viewer


def test_password_hash_is_argon2_and_verifies():
    hashed = credentials.hash_password("s3cret-password")
    assert hashed.startswith("$argon2id$")
    assert credentials.verify_password(hashed, "s3cret-password")
    assert not credentials.verify_password(hashed, "wrong")
    assert not credentials.verify_password("not a hash", "s3cret-password")


K = "a-test-secret-long-enough-for-hs256-000"


def test_session_tokens_expire_and_need_the_secret():
    token = credentials.issue_session_token(7, K, ttl_seconds=60, now=1_000)
    assert credentials.read_session_token(token, K) is None  # issued long ago: expired
    fresh = credentials.issue_session_token(7, K, ttl_seconds=60)
    assert credentials.read_session_token(fresh, K) == 7
    assert credentials.read_session_token(fresh, "another-secret-that-is-long-enough-0123") is None
    assert credentials.read_session_token("garbage", K) is None


def test_a_session_token_verified_once_still_expires_and_a_tampered_copy_fails():
    token = credentials.issue_session_token(8, K, ttl_seconds=3600)
    assert credentials.read_session_token(token, K) == 8
    assert credentials.read_session_token(token, K) == 8  # the remembered verification
    header, payload, signature = token.split(".")
    assert credentials.read_session_token(f"{header}.{payload}.{signature[:-2]}AA", K) is None
    assert credentials.read_session_token(token, "another-secret-that-is-long-enough-0123") is None
    later = jwt.decode(token, K, algorithms=["HS256"])["exp"] + 1
    assert credentials.read_session_token(token, K, now=later) is None  # expired, though verified before


def test_api_tokens_are_stored_as_hashes():
    new = credentials.new_api_token()
    assert new.token not in new.token_hash
    assert credentials.api_token_prefix(new.token) == new.prefix
    assert credentials.api_token_matches(new.token, new.token_hash)
    assert not credentials.api_token_matches(new.token + "x", new.token_hash)
    assert credentials.api_token_prefix("Bearer-ish") is None


TASK = 10
ANONYMOUS = None
ANNOTATOR = Viewer(user_id=1, username="ann", is_admin=False)
OWNER = Viewer(user_id=2, username="own", is_admin=False, owned_task_ids=frozenset({TASK}))
ADMIN = Viewer(user_id=3, username="adm", is_admin=True)
READ_TOKEN = Viewer(
    user_id=2, username="own", is_admin=False, scopes=frozenset({"read"}), via_token=True, owned_task_ids=frozenset({TASK})
)
ADMIN_TOKEN = Viewer(
    user_id=2, username="own", is_admin=False, scopes=frozenset({"admin"}), via_token=True, owned_task_ids=frozenset({TASK})
)
ANNOTATE_TOKEN = Viewer(user_id=1, username="ann", is_admin=False, scopes=frozenset({"annotate"}), via_token=True)

ROLES = {
    "anonymous": ANONYMOUS,
    "annotator": ANNOTATOR,
    "owner": OWNER,
    "admin": ADMIN,
    "read_token": READ_TOKEN,
    "admin_token": ADMIN_TOKEN,
    "annotate_token": ANNOTATE_TOKEN,
}
OPERATIONS = {
    "read_public": lambda v: permissions.read_public(v),
    "read_own_account": lambda v: permissions.read_own_account(v),
    "create_task": lambda v: permissions.create_task(v),
    "manage_task": lambda v: permissions.manage_task(v, TASK),
    "create_api_token": lambda v: permissions.create_api_token(v),
    "annotate": lambda v: permissions.annotate(v),
    "list_llm_endpoint_choices": lambda v: permissions.list_llm_endpoint_choices(v, TASK),
}
# role -> operations allowed; everything else must be denied.
ALLOWED = {
    "anonymous": {"read_public"},
    "annotator": {"read_public", "read_own_account", "create_task", "create_api_token", "annotate"},
    "owner": set(OPERATIONS),
    "admin": set(OPERATIONS),
    "read_token": {"read_public", "read_own_account"},
    "admin_token": set(OPERATIONS),
    "annotate_token": {"annotate"},
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("operation", OPERATIONS)
def test_role_operation_matrix(role, operation):
    denied = OPERATIONS[operation](ROLES[role])
    if operation in ALLOWED[role]:
        assert denied is None
    else:
        assert denied is not None
        expected = "AUTHENTICATION_REQUIRED" if role == "anonymous" else "FORBIDDEN"
        assert denied.code == expected
