"""A task's whole life through GraphQL: edits and config versions, co-owners, proposals and their review, hidden and
archived tasks, and instructions as safe HTML (issue #18 point 1)."""

import copy
import uuid

from server.tasks.builtin import BUILTIN_TASKS
from tests.conftest import run_sql, seed_builtin_tasks

SENTIMENT = next(t for t in BUILTIN_TASKS if t["code"] == "sentiment")["config"]
ERR = "... on InputError { code message fields { field message } } ... on Error { code message }"
TASK_FIELDS = "code status configVersion instructions instructionsHtml reviewNote owners viewerIsOwner"
CREATE_TASK = f"""mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename
  ... on TaskCreated {{ task {{ id {TASK_FIELDS} }} }} {ERR} }} }}"""
UPDATE_TASK = f"""mutation($i: UpdateTaskInput!) {{ updateTask(input: $i) {{ __typename
  ... on TaskUpdated {{ task {{ name {TASK_FIELDS} config currentRound {{ number configVersion }}
    configVersions {{ version config }} }} }} {ERR} }} }}"""
ADD_OWNER = f"""mutation($c: String!, $u: String!) {{ addTaskOwner(taskCode: $c, username: $u) {{ __typename
  ... on TaskOwnerAdded {{ owners }} {ERR} }} }}"""
REMOVE_OWNER = f"""mutation($c: String!, $u: String!) {{ removeTaskOwner(taskCode: $c, username: $u) {{ __typename
  ... on TaskOwnerRemoved {{ owners }} {ERR} }} }}"""
APPROVE = f"""mutation($c: String!, $n: String!) {{ approveTask(taskCode: $c, note: $n) {{ __typename
  ... on TaskApproved {{ task {{ {TASK_FIELDS} }} }} {ERR} }} }}"""
REJECT = f"""mutation($c: String!, $n: String!) {{ rejectTask(taskCode: $c, note: $n) {{ __typename
  ... on TaskRejected {{ task {{ {TASK_FIELDS} }} }} {ERR} }} }}"""
VISIBILITY = f"""mutation($c: String!, $v: TaskVisibility!) {{ setTaskVisibility(taskCode: $c, visibility: $v) {{ __typename
  ... on TaskVisibilityChanged {{ task {{ status currentRound {{ endAt }} }} }} {ERR} }} }}"""
TASK = f"query($c: String!) {{ task(code: $c) {{ id {TASK_FIELDS} }} }}"
LISTED = "{ tasks(first: 50) { edges { node { code } } } }"
NODE = "query($id: ID!) { node(id: $id) { __typename id } }"
CREATE_EXAMPLE = f"""mutation($i: CreateExampleInput!) {{ createExample(input: $i) {{ __typename {ERR} }} }}"""
VALIDATE = f"""mutation($e: ID!) {{ validateExample(exampleId: $e, label: CORRECT) {{ __typename {ERR} }} }}"""


def _create(api, token, code="movies", **extra):
    variables = {"i": {"code": code, "name": "Movie sentiment", "config": SENTIMENT, **extra}}
    return api(CREATE_TASK, variables, token=token)["createTask"]


def _update(api, token, code="sentiment", **fields):
    return api(UPDATE_TASK, {"i": {"taskCode": code, **fields}}, token=token)["updateTask"]


def _listed(api, token=None) -> list[str]:
    return [e["node"]["code"] for e in api(LISTED, token=token)["tasks"]["edges"]]


def _round_of(code: str) -> dict:
    return run_sql(
        "SELECT r.id, r.number, r.config_version FROM rounds r JOIN tasks t ON t.id = r.task "
        "WHERE t.code = $1 ORDER BY r.number DESC LIMIT 1",
        code,
    )[0]


def _gid(kind: str, pk: int) -> str:
    import base64

    return base64.b64encode(f"{kind}:{pk}".encode()).decode()


def test_an_additive_edit_mid_round_is_a_new_version_and_the_round_keeps_its_own(api, admin_token):
    seed_builtin_tasks()
    owner = api.sign_up("owner")
    config = copy.deepcopy(SENTIMENT)
    config["labels"].append("mixed")
    config["input_fields"].append({"name": "rationale", "display_name": "Why", "max_length": 300})
    # Not an owner yet: refused, and nothing changes.
    assert _update(api, owner, config=config)["__typename"] == "PermissionError"
    assert api(ADD_OWNER, {"c": "sentiment", "u": "owner"}, token=admin_token)["addTaskOwner"]["owners"] == ["owner"]
    updated = _update(api, owner, name="Sentiment, edited", config=config)
    assert updated["__typename"] == "TaskUpdated", updated
    task = updated["task"]
    assert (task["name"], task["configVersion"], task["config"]["labels"][-1]) == ("Sentiment, edited", 2, "mixed")
    assert task["currentRound"] == {"number": 1, "configVersion": 1}  # the open round keeps the config it opened with
    assert [v["version"] for v in task["configVersions"]] == [2, 1]
    assert task["configVersions"][1]["config"]["labels"] == SENTIMENT["labels"]
    # The same config again is no new version; a text-only edit neither.
    assert _update(api, owner, config=config)["task"]["configVersion"] == 2
    assert _update(api, owner, description="About films.")["task"]["configVersion"] == 2

    # Examples of round 1 are checked against round 1's version: the new label does not exist there yet.
    writer = api.sign_up("writer")
    round_row = _round_of("sentiment")
    context = api("query($r: ID!) { nextContext(roundId: $r) { id } }", {"r": _gid("Round", round_row["id"])}, token=writer)
    refused = api(
        CREATE_EXAMPLE,
        {
            "i": {
                "roundId": _gid("Round", round_row["id"]),
                "contextId": context["nextContext"]["id"],
                "fields": {"statement": "Mixed feelings about it."},
                "label": "mixed",
                "clientId": str(uuid.uuid4()),
            }
        },
        token=writer,
    )["createExample"]
    assert refused["__typename"] == "InputError" and "label" in str(refused["fields"]), refused
    assert run_sql("SELECT config_version FROM rounds WHERE id = $1", round_row["id"])[0]["config_version"] == 1


def test_a_breaking_edit_mid_round_is_refused_with_the_field_named(api, admin_token):
    seed_builtin_tasks()
    removed_label = copy.deepcopy(SENTIMENT)
    removed_label["labels"] = ["negative", "positive"]
    refused = _update(api, admin_token, config=removed_label)
    assert refused["__typename"] == "InputError", refused
    assert "'neutral'" in refused["message"] and "open round 1" in refused["message"]
    assert [f["field"] for f in refused["fields"]] == ["config.labels"]

    renamed = copy.deepcopy(SENTIMENT)
    renamed["input_fields"][0]["name"] = "sentence"
    renamed["model_inputs"] = ["sentence"]
    fields = {f["field"]: f["message"] for f in _update(api, admin_token, config=renamed)["fields"]}
    assert set(fields) == {"config.input_fields", "config.model_inputs"} and "'statement'" in fields["config.input_fields"]

    other_kind = copy.deepcopy(next(t for t in BUILTIN_TASKS if t["code"] == "qa")["config"])
    fields = {f["field"]: f["message"] for f in _update(api, admin_token, config=other_kind)["fields"]}
    assert fields == {"config.kind": "cannot change from classification to extractive_qa while a round is open"}
    # An invalid document is refused as at creation; nothing changed.
    invalid = _update(api, admin_token, config={**SENTIMENT, "labels": ["only"]})
    assert invalid["fields"] == [{"field": "config.labels", "message": "a classification task needs at least two labels"}]
    assert run_sql("SELECT config_version FROM tasks WHERE code = 'sentiment'") == [{"config_version": 1}]
    assert (
        run_sql("SELECT count(*) AS n FROM task_config_versions v JOIN tasks t ON t.id = v.task WHERE t.code = 'sentiment'")[0][
            "n"
        ]
        == 1
    )

    # Once the round is closed, the same change is accepted: it applies to the next round.
    round_id = _gid("Round", _round_of("sentiment")["id"])
    closed = api("mutation($r: ID!) { closeRound(roundId: $r) { __typename } }", {"r": round_id}, token=admin_token)
    assert closed["closeRound"]["__typename"] == "RoundClosed"
    accepted = _update(api, admin_token, config=removed_label)
    assert accepted["__typename"] == "TaskUpdated" and accepted["task"]["configVersion"] == 2


def test_owners_add_and_remove_each_other_but_a_task_keeps_one(api, admin_token):
    alice, bob = api.sign_up("alice"), api.sign_up("bob")
    carol = api.sign_up("carol")
    assert _create(api, alice)["__typename"] == "TaskCreated"
    # A proposal is alice's to see: to carol it answers as a missing task (it was PermissionError: a leak, issue #28).
    assert api(ADD_OWNER, {"c": "movies", "u": "bob"}, token=carol)["addTaskOwner"]["__typename"] == "NotFoundError"
    assert api(ADD_OWNER, {"c": "movies", "u": "bob"}, token=alice)["addTaskOwner"]["owners"] == ["alice", "bob"]
    assert api(ADD_OWNER, {"c": "movies", "u": "bob"}, token=alice)["addTaskOwner"]["owners"] == ["alice", "bob"]
    unknown = api(ADD_OWNER, {"c": "movies", "u": "nobody"}, token=alice)["addTaskOwner"]
    assert unknown == {"__typename": "NotFoundError", "code": "NOT_FOUND", "message": "User 'nobody' does not exist."}
    # Bob owns it now: he sees the proposal and may edit it.
    assert api(TASK, {"c": "movies"}, token=bob)["task"]["viewerIsOwner"] is True
    assert _update(api, bob, code="movies", instructions="Be *kind*.")["__typename"] == "TaskUpdated"
    # Bob removes Alice; the last owner (Bob) cannot be removed, not even by an admin.
    assert api(REMOVE_OWNER, {"c": "movies", "u": "alice"}, token=bob)["removeTaskOwner"]["owners"] == ["bob"]
    assert api(TASK, {"c": "movies"}, token=alice)["task"] is None  # a proposal: no longer hers to see
    last = api(REMOVE_OWNER, {"c": "movies", "u": "bob"}, token=admin_token)["removeTaskOwner"]
    assert last["__typename"] == "ConflictError" and "keeps one owner" in last["message"], last
    not_owner = api(REMOVE_OWNER, {"c": "movies", "u": "carol"}, token=bob)["removeTaskOwner"]
    assert not_owner["__typename"] == "NotFoundError"
    assert api(TASK, {"c": "movies"}, token=admin_token)["task"]["owners"] == ["bob"]


def test_a_proposal_is_seen_only_by_its_owners_and_admins_until_approved(api, admin_token):
    seed_builtin_tasks()
    owner, stranger = api.sign_up("owner"), api.sign_up("stranger")
    created = _create(api, owner)
    assert created["task"]["status"] == "PROPOSED" and created["task"]["reviewNote"] == ""
    task_id = created["task"]["id"]
    # A round with contexts (opened directly: a proposal's owner tries it out).
    run_sql(
        "INSERT INTO rounds (task, number, target_models, start_at, config_version) "
        "SELECT id, 1, '[]', now(), 1 FROM tasks WHERE code = 'movies'"
    )
    run_sql("UPDATE tasks SET current_round = 1 WHERE code = 'movies'")
    round_id = _gid("Round", _round_of("movies")["id"])
    added = api(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"context": "A film you liked."}}]}},
        token=owner,
    )
    assert added["addContexts"]["__typename"] == "ContextsAdded"
    context_id = api("query($r: ID!) { nextContext(roundId: $r) { id } }", {"r": round_id}, token=owner)["nextContext"]["id"]

    def seen_by(token) -> dict:
        errors = api.errors("query($r: ID!) { nextContext(roundId: $r) { id } }", {"r": round_id}, token=token)
        board = api.errors('{ leaderboard(taskCode: "movies") { totalCount } }', token=token)
        return {
            "task": api(TASK, {"c": "movies"}, token=token)["task"] is not None,
            "listed": "movies" in _listed(api, token),
            "nodes": [api(NODE, {"id": i}, token=token)["node"] is not None for i in (task_id, round_id, context_id)],
            "nextContext": not errors,
            "leaderboard": not board,
        }

    hidden = {"task": False, "listed": False, "nodes": [False] * 3, "nextContext": False, "leaderboard": False}
    shown = {"task": True, "listed": True, "nodes": [True] * 3, "nextContext": True, "leaderboard": True}
    assert seen_by(stranger) == hidden and seen_by(None) == hidden
    assert seen_by(owner) == shown and seen_by(admin_token) == shown
    assert (
        api.errors("query($r: ID!) { nextContext(roundId: $r) { id } }", {"r": round_id}, token=stranger)[0]["message"]
        == "That round does not exist."
    )

    # Only admins review; a rejection's note reaches the owners only, and an edit proposes the task again.
    assert api(APPROVE, {"c": "movies", "n": ""}, token=owner)["approveTask"]["__typename"] == "PermissionError"
    rejected = api(REJECT, {"c": "movies", "n": "Add instructions, please."}, token=admin_token)["rejectTask"]
    assert rejected["task"]["status"] == "REJECTED" and rejected["task"]["reviewNote"] == "Add instructions, please."
    assert api(TASK, {"c": "movies"}, token=owner)["task"]["reviewNote"] == "Add instructions, please."
    assert seen_by(stranger) == hidden
    assert _update(api, owner, code="movies", instructions="Write a review.")["task"]["status"] == "PROPOSED"
    approved = api(APPROVE, {"c": "movies", "n": "Thanks!"}, token=admin_token)["approveTask"]
    assert approved["task"]["status"] == "PUBLIC", approved
    assert seen_by(stranger) == shown and seen_by(None) == shown
    assert api(TASK, {"c": "movies"}, token=stranger)["task"]["reviewNote"] is None  # the note is the owners'
    again = api(APPROVE, {"c": "movies", "n": ""}, token=admin_token)["approveTask"]
    assert again["__typename"] == "ConflictError" and "not a proposal" in again["message"]
    # An admin's own task is public at once.
    assert _create(api, admin_token, code="admins_task")["task"]["status"] == "PUBLIC"


def test_hidden_tasks_are_unlisted_and_archived_ones_are_read_only(api, admin_token):
    seed_builtin_tasks()
    stranger = api.sign_up("stranger")
    proposal = api(VISIBILITY, {"c": "movies", "v": "HIDDEN"}, token=admin_token)["setTaskVisibility"]
    assert proposal["__typename"] == "NotFoundError"
    _create(api, api.sign_up("owner"))
    refused = api(VISIBILITY, {"c": "movies", "v": "PUBLIC"}, token=admin_token)["setTaskVisibility"]
    assert refused["__typename"] == "ConflictError" and "approveTask" in refused["message"]
    assert api(VISIBILITY, {"c": "sentiment", "v": "HIDDEN"}, token=stranger)["setTaskVisibility"]["__typename"] == (
        "PermissionError"
    )

    hidden = api(VISIBILITY, {"c": "sentiment", "v": "HIDDEN"}, token=admin_token)["setTaskVisibility"]
    assert hidden["task"]["status"] == "HIDDEN"
    assert "sentiment" not in _listed(api, stranger) and api(TASK, {"c": "sentiment"}, token=stranger)["task"] is None
    assert "sentiment" in _listed(api, admin_token)

    # Archived: listed and readable, its open round closed; no new round, example, vote or edit.
    example_round = _round_of("nli")
    author, voter = api.sign_up("author"), api.sign_up("voter")
    example_id = _write_stored_example(example_round["id"], "author")
    archived = api(VISIBILITY, {"c": "nli", "v": "ARCHIVED"}, token=admin_token)["setTaskVisibility"]
    assert archived["task"]["status"] == "ARCHIVED" and archived["task"]["currentRound"]["endAt"] is not None
    assert "nli" in _listed(api, stranger) and api(TASK, {"c": "nli"}, token=stranger)["task"]["status"] == "ARCHIVED"
    context = run_sql("SELECT id FROM contexts WHERE round = $1 LIMIT 1", example_round["id"])[0]["id"]
    written = api(
        CREATE_EXAMPLE,
        {
            "i": {
                "roundId": _gid("Round", example_round["id"]),
                "contextId": _gid("Context", context),
                "fields": {"hypothesis": "Something."},
                "label": "neutral",
                "clientId": str(uuid.uuid4()),
            }
        },
        token=author,
    )["createExample"]
    assert written["__typename"] == "RoundClosedError", written
    vote = api(VALIDATE, {"e": _gid("Example", example_id)}, token=voter)["validateExample"]
    assert vote["__typename"] == "ConflictError" and "archived" in vote["message"], vote
    opened = api(
        "mutation($i: CreateRoundInput!) { createRound(input: $i) { __typename ... on Error { message } } }",
        {"i": {"taskCode": "nli", "targetModels": [{"name": "nli_minilm"}]}},
        token=admin_token,
    )["createRound"]
    assert opened["__typename"] == "ConflictError" and "archived" in opened["message"]
    assert _update(api, admin_token, code="nli", name="New name")["__typename"] == "ConflictError"
    # Its data stays and exports still work.
    exported = api(
        "mutation($r: ID!) { exportRound(roundId: $r) { __typename ... on RoundExport { url } } }",
        {"r": _gid("Round", example_round["id"])},
        token=admin_token,
    )["exportRound"]
    assert exported["__typename"] == "RoundExport"
    lines = api.http.get(exported["url"]).text.strip().splitlines()
    assert len(lines) == 1 and "A stored example." in lines[0]
    # Public again: votes are taken again.
    assert api(VISIBILITY, {"c": "nli", "v": "PUBLIC"}, token=admin_token)["setTaskVisibility"]["task"]["status"] == "PUBLIC"
    assert api(VALIDATE, {"e": _gid("Example", example_id)}, token=voter)["validateExample"]["__typename"] != "ConflictError"


def _write_stored_example(round_id: int, username: str) -> int:
    """An open, fooling example already judged (written directly: these tests need no model)."""
    rows = run_sql(
        """INSERT INTO examples (client_id, round, context, "user", input, model_output, model_name, model_version,
             fooled, status, retracted, flagged, flag_reason, explanation, pending_reason, check_attempts, created_at)
           SELECT gen_random_uuid(), $1, (SELECT id FROM contexts WHERE round = $1 ORDER BY id LIMIT 1), u.id,
             '{"hypothesis": "A stored example.", "label": "neutral"}', '{"label": "entailment"}', 'nli_minilm', '1',
             true, 'open', false, false, '', '', '', 0, now()
           FROM users u WHERE u.username = $2 RETURNING id""",
        round_id,
        username,
    )
    return rows[0]["id"]


def test_instructions_are_markdown_rendered_safely(api, admin_token):
    owner = api.sign_up("owner")
    markdown = (
        "## Write a review\n\nBe **specific**. [Guide](https://example.org/guide)\n\n"
        '<script>alert("x")</script> <img src=x onerror=alert(1)> [bad](javascript:alert(2))'
    )
    created = _create(api, owner, instructions=markdown)["task"]
    assert created["instructions"] == markdown
    html = created["instructionsHtml"]
    assert "<h2>Write a review</h2>" in html and "<strong>specific</strong>" in html
    assert 'href="https://example.org/guide"' in html
    for bad in ("<script", "<img", '<a href="javascript'):
        assert bad not in html, html
    updated = _update(api, owner, code="movies", instructions="<iframe src='https://evil'></iframe> *ok*")["task"]
    assert "<iframe" not in updated["instructionsHtml"] and "<em>ok</em>" in updated["instructionsHtml"]
    too_long = _update(api, owner, code="movies", instructions="x" * 50_001)
    assert too_long["__typename"] == "InputError" and too_long["fields"][0]["field"] == "instructions"


def test_instructions_come_in_the_readers_locale_when_the_config_translates_them(api, admin_token):
    owner = api.sign_up("owner")
    config = copy.deepcopy(SENTIMENT)
    config["translations"] = {
        "es": {"instructions": "Escribe una frase **difícil**. <script>alert(1)</script>"},
        "pt-BR": {"instructions": "Escreva uma frase."},
        "fr": {"name": "Sentiment des films"},
    }
    assert _create(api, owner, instructions="Write a *hard* sentence.", config=config)["__typename"] == "TaskCreated"
    query = """query($c: String!, $l: String) { task(code: $c) {
      own: instructionsHtml  localized: instructionsHtml(locale: $l) } }"""

    def read(locale):
        return api(query, {"c": "movies", "l": locale}, token=owner)["task"]

    spanish = read("es")
    assert "<em>hard</em>" in spanish["own"]
    assert "<strong>difícil</strong>" in spanish["localized"] and "<script" not in spanish["localized"]
    assert "Escreva uma frase." in read("pt")["localized"], "a language's regional translation serves the language"
    for untranslated in ("fr", "de", None, "not a locale!", "x" * 1000):  # no instructions there: the task's own
        assert read(untranslated)["localized"] == spanish["own"]


def test_only_owners_write_to_a_hidden_tasks_round_even_knowing_its_ids(api, admin_token, target_models):
    seed_builtin_tasks()
    assert api(VISIBILITY, {"c": "sentiment", "v": "HIDDEN"}, token=admin_token)["setTaskVisibility"]["task"]
    round_row = _round_of("sentiment")
    context = run_sql("SELECT id FROM contexts WHERE round = $1 ORDER BY id LIMIT 1", round_row["id"])[0]["id"]

    def write(token, sandbox=False):
        submission = {
            "roundId": _gid("Round", round_row["id"]),
            "contextId": _gid("Context", context),
            "fields": {"statement": "Guessed ids."},
            "label": "positive",
            "clientId": None if sandbox else str(uuid.uuid4()),
            "sandbox": sandbox,
        }
        return api(CREATE_EXAMPLE, {"i": submission}, token=token)["createExample"]

    stranger = api.sign_up("guesser")
    for sandbox in (False, True):  # not even a trial against its model
        refused = write(stranger, sandbox)
        assert refused["__typename"] == "NotFoundError" and refused["message"] == "That round does not exist.", refused
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 0
    owner = api.sign_up("co-owner")
    run_sql(
        'INSERT INTO task_owners (task, "user") SELECT t.id, u.id FROM tasks t, users u '
        "WHERE t.code = 'sentiment' AND u.username = 'co-owner'"
    )
    assert write(owner)["__typename"] == "ExampleSubmitted"
    assert write(admin_token)["__typename"] == "ExampleSubmitted"
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 2
    # Nor are its examples handed out to validate, listed, or taken votes on by a stranger who knows their ids.
    round_gid = _gid("Round", round_row["id"])
    for query in (
        "query($r: ID!) { nextExamplesToValidate(roundId: $r) { id } }",
        "query($r: ID!) { examplesToValidate(roundId: $r) { edges { node { id } } } }",
    ):
        errors = api.errors(query, {"r": round_gid}, token=stranger)
        assert errors and errors[0]["message"] == "That round does not exist.", errors
        assert "errors" not in api.raw(query, {"r": round_gid}, token=owner).json()
    example_id = run_sql("SELECT id FROM examples ORDER BY id LIMIT 1")[0]["id"]
    vote = api(VALIDATE, {"e": _gid("Example", example_id)}, token=stranger)["validateExample"]
    assert vote["__typename"] == "NotFoundError", vote
    assert run_sql("SELECT count(*) AS n FROM validations")[0]["n"] == 0
