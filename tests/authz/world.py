"""The shared world of the authorization matrix: the principals, the objects they act on, and fresh objects
for cells that change state. Built once per test module (the `api` fixture's per-test TRUNCATE is not used).

Principals (the matrix columns):

- anonymous: no credentials;
- annotator: the author of the example, the model and the API token the operations involve;
- another_annotator: a signed-in user who owns nothing involved;
- task_owner: an owner of the tasks involved (`qa`, where examples are written, and `hate_speech`, where
  rounds are opened and models retrained);
- admin: a site admin (session);
- token_<scope>: an API token of the admin with only that scope. With a session the admin may do everything,
  so these columns isolate the scope check; where only an object's author may act (retract, flag, explain,
  revoke a token), token cells act on the admin's own object.
"""

from __future__ import annotations

import itertools
import json
import secrets
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from strawberry.relay import to_base64

from tests.conftest import TABLES, GraphQLClient, run_sql, seed_builtin_tasks, target_triton

PRINCIPALS = (
    "anonymous",
    "annotator",
    "another_annotator",
    "task_owner",
    "admin",
    "token_read",
    "token_annotate",
    "token_models",
    "token_admin",
)
SESSIONS = {"annotator": "mx-annotator", "another_annotator": "mx-another", "task_owner": "mx-owner", "admin": "mx-admin"}
TOKEN_SCOPES = {"token_read": "READ", "token_annotate": "ANNOTATE", "token_models": "MODELS", "token_admin": "ADMIN"}
PASSWORD = "matrix password 1"
MAIN_TASK, SCRATCH_TASK = "qa", "hate_speech"
SCRATCH_TARGET = "hate_speech_minilm"
CREATE_TOKEN = """mutation($i: CreateApiTokenInput!) { createApiToken(input: $i) {
  __typename ... on ApiTokenCreated { token apiToken { id } } ... on Error { code message } } }"""


def gid(type_name: str, pk: int) -> str:
    return to_base64(type_name, pk)


def pk_of(global_id: str) -> int:
    from strawberry.relay import from_base64

    return int(from_base64(global_id)[1])


@dataclass
class World:
    api: GraphQLClient
    ws_url: str
    bearer: dict[str, str | None] = field(default_factory=dict)
    user_pk: dict[str, int | None] = field(default_factory=dict)
    username: dict[str, str | None] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)  # primary keys of the shared objects
    serial: itertools.count = field(default_factory=lambda: itertools.count(1))

    # Who is who -----------------------------------------------------------------------------------------
    def owns_tasks(self, principal: str) -> bool:
        """Task owner, or admin (a token of the admin counts as the admin for ownership)."""
        return principal == "task_owner" or principal == "admin" or principal.startswith("token_")

    def self_of(self, principal: str) -> str:
        """The session principal whose account a principal acts as (tokens act as the admin)."""
        return "admin" if principal.startswith("token_") else principal

    def unique(self, prefix: str) -> str:
        return f"{prefix}{next(self.serial)}"

    # Shared objects as global ids ------------------------------------------------------------------------
    @property
    def round(self) -> str:
        return gid("Round", self.ids["round"])

    @property
    def context(self) -> str:
        return gid("Context", self.ids["context"])

    @property
    def context_text(self) -> str:
        return run_sql("SELECT fields->>'context' AS c FROM contexts WHERE id = $1", self.ids["context"])[0]["c"]

    # Fresh objects (SQL: cheap, and independent of the operations under test) ---------------------------
    def new_example(self, author: str, status: str = "open", fooled: bool = True) -> int:
        return run_sql(
            'INSERT INTO examples (client_id, round, context, "user", input, model_output, fooled, status, retracted, '
            "flagged, flag_reason, explanation, pending_reason, model_name, model_version, created_at) "
            "VALUES ($1, $2, $3, $4, $5, '{}', $6, $7, false, false, '', '', '', 'qa_overlap_baseline', '1', now()) "
            "RETURNING id",
            uuid.uuid4(),
            self.ids["round"],
            self.ids["context"],
            self.user_pk[author],
            json.dumps({"question": "Where does the river flow?", "answer": "Peru", "answer_start": 35}),
            fooled,
            status,
        )[0]["id"]

    def new_model(self, owner: str, status: str = "evaluated", published: bool = False) -> int:
        return run_sql(
            "INSERT INTO models (task, owner, name, card, status, status_log, triton_name, triton_version, published, "
            "anonymous, created_at) VALUES ($1, $2, $3, '{}', $4, '[]', '', '', $5, false, now()) RETURNING id",
            self.ids["task"],
            self.user_pk[owner],
            self.unique("model "),
            status,
            published,
        )[0]["id"]

    def new_api_token(self, owner: str) -> int:
        return run_sql(
            'INSERT INTO api_tokens ("user", name, prefix, token_hash, scopes, created_at) '
            "VALUES ($1, $2, $3, $4, ARRAY['read'], now()) RETURNING id",
            self.user_pk[owner],
            self.unique("victim "),
            secrets.token_hex(6),
            secrets.token_hex(32),
        )[0]["id"]

    def new_scratch_round(self) -> int:
        return run_sql(
            "INSERT INTO rounds (task, number, target_models, start_at) VALUES ($1, $2, $3, now()) RETURNING id",
            self.ids["scratch"],
            1000 + next(self.serial),
            json.dumps([{"name": SCRATCH_TARGET, "version": ""}]),
        )[0]["id"]


def build_world(stack) -> World:
    run_sql(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")
    seed_builtin_tasks()
    api = GraphQLClient(stack.api_url)
    world = World(api=api, ws_url=stack.api_url.replace("http://", "ws://") + "/graphql")
    world.bearer["anonymous"], world.user_pk["anonymous"], world.username["anonymous"] = None, None, None
    for principal, name in SESSIONS.items():
        world.bearer[principal] = api.sign_up(name, PASSWORD)
        world.username[principal] = name
        world.user_pk[principal] = run_sql("SELECT id FROM users WHERE username = $1", name)[0]["id"]
    api.sign_up("mx-login", PASSWORD)
    run_sql("UPDATE users SET is_admin = true WHERE username = $1", SESSIONS["admin"])
    tasks = {r["code"]: r["id"] for r in run_sql("SELECT id, code FROM tasks")}
    world.ids["task"], world.ids["scratch"] = tasks[MAIN_TASK], tasks[SCRATCH_TASK]
    for task in (MAIN_TASK, SCRATCH_TASK):
        run_sql('INSERT INTO task_owners (task, "user") VALUES ($1, $2)', tasks[task], world.user_pk["task_owner"])
    for principal, scope in TOKEN_SCOPES.items():
        created = api(CREATE_TOKEN, {"i": {"name": principal, "scopes": [scope]}}, token=world.bearer["admin"])
        world.bearer[principal] = created["createApiToken"]["token"]
        world.user_pk[principal], world.username[principal] = world.user_pk["admin"], SESSIONS["admin"]
    created = api(CREATE_TOKEN, {"i": {"name": "annotator's token", "scopes": ["READ"]}}, token=world.bearer["annotator"])
    world.ids["annotator_token"] = pk_of(created["createApiToken"]["apiToken"]["id"])

    round_row = run_sql("SELECT id FROM rounds WHERE task = $1 AND number = 1", world.ids["task"])[0]
    world.ids["round"] = round_row["id"]
    world.ids["context"] = run_sql("SELECT id FROM contexts WHERE round = $1 ORDER BY id LIMIT 1", round_row["id"])[0]["id"]
    world.ids["example"] = world.new_example("annotator")  # open and fooling: in everyone else's queue
    world.ids["model"] = world.new_model("annotator")  # evaluated, not published
    world.ids["run"] = run_sql(
        "INSERT INTO training_runs (task, requested_by, from_rounds, base_model, profile, status, progress, status_log, "
        "model_name, model_version, n_validated, metrics, created_at) "
        "VALUES ($1, $2, '[1]', '', 'fast', 'published', 1.0, '[]', $3, '1', 0, '{}', now()) RETURNING id",
        world.ids["scratch"],
        world.user_pk["task_owner"],
        SCRATCH_TARGET,
    )[0]["id"]
    world.ids["hidden_dataset"] = run_sql(
        "INSERT INTO datasets (task, name, access, weight, created_at) VALUES ($1, 'owners only', 'hidden', 1, now()) RETURNING id",
        world.ids["task"],
    )[0]["id"]
    return world


def load_qa_target(stack, request) -> None:
    """The `qa` round's target model in the stack's target Triton: the cached build of the word-overlap baseline
    (a python model without torch, quick to load), else every target model through the suite's fixture."""
    import shutil

    from tests.conftest import MODEL_CACHE

    cached: Path = MODEL_CACHE / "qa_overlap_baseline"
    if not (cached / "config.pbtxt").is_file():
        request.getfixturevalue("target_models")
        return
    destination = stack.model_repository / "qa_overlap_baseline"
    if not destination.exists():
        shutil.copytree(cached, destination, ignore=shutil.ignore_patterns("__pycache__"))
    client = target_triton(stack)
    try:
        client.load_model("qa_overlap_baseline")
    finally:
        client.close()
