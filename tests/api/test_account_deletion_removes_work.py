"""Issue #34 point 6: a task may require a deleted person's examples removed. In a task whose config says
`personal_data.on_account_deletion: remove`, deleteMyAccount removes the person's examples (and the votes on them) and
their votes, and recomputes what they touched: the outcome of others' examples (one their vote decided is open again),
the round's counters, the agreement sums, everyone's per-round counters; live views hear of it. A task with the
default keeps the person's work under the pseudonym; a task that chooses `remove` later gets it removed by the sweep."""

from __future__ import annotations

import copy
import json

import httpx
from strawberry.relay import from_base64

from server.annotation.validation.queries import AGREEMENT_FROM_ROWS
from server.tasks.builtin import BUILTIN_TASKS
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, wait_until
from tests.api.test_live_updates import Feed
from tests.conftest import run_sql, seed_builtin_tasks

PASSWORD = "correct horse battery"
DELETE = """mutation { deleteMyAccount(input: {password: "correct horse battery"}) { __typename
  ... on AccountDeleted { pseudonym } ... on Error { code message } } }"""
VALIDATE = """mutation($e: ID!, $l: ValidationLabel!) { validateExample(exampleId: $e, label: $l) { __typename
  ... on Error { code message } } }"""
TOTALS = "query($r: ID!) { node(id: $r) { ... on Round { totalCollected totalFooled totalValidated totalValidatedFooled } } }"
BROWSE = "query($r: ID!) { roundExamples(roundId: $r, first: 50) { edges { node { id } } } }"
EXPORT = "mutation($r: ID!) { exportRound(roundId: $r, format: JSONL) { __typename ... on RoundExport { url } } }"
UPDATE = """mutation($i: UpdateTaskInput!) { updateTask(input: $i) { __typename
  ... on InputError { fields { field message } } ... on Error { message } } }"""
# The definitions of the counters, from rows (round_count_queries.RECOUNT, validation/queries.RECOUNT_USER).
RECOUNT_ROUND = """
SELECT count(*) FILTER (WHERE NOT retracted) AS "totalCollected", count(*) FILTER (WHERE NOT retracted AND fooled) AS "totalFooled",
  count(*) FILTER (WHERE NOT retracted AND status = 'validated') AS "totalValidated",
  count(*) FILTER (WHERE NOT retracted AND fooled AND status = 'validated') AS "totalValidatedFooled"
FROM examples WHERE round = $1"""
USER_COUNTERS = """SELECT u.username, s.submitted, s.fooled, s.fooled_rejected, s.validations_done,
  (SELECT count(*) FROM examples e WHERE e."user" = u.id AND e.round = s.round)::int AS submitted_rows,
  (SELECT count(*) FROM examples e WHERE e."user" = u.id AND e.round = s.round AND e.fooled AND e.status = 'rejected')::int
    AS fooled_rejected_rows,
  (SELECT count(*) FROM validations v JOIN examples e ON e.id = v.example WHERE v."user" = u.id AND e.round = s.round)::int
    AS validations_rows
FROM user_round_stats s JOIN users u ON u.id = s."user" WHERE s.round = $1 ORDER BY u.username"""


def _pk(global_id: str) -> int:
    return int(from_base64(global_id)[1])


def _removing_task(api, target: str) -> tuple[str, str]:
    """An admin's copy of the sentiment task (N = 2 matching votes) that removes a deleted account's work; (owner token,
    round id)."""
    owner = api.sign_up("owner")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'owner'")
    config = copy.deepcopy(next(t for t in BUILTIN_TASKS if t["code"] == "sentiment")["config"])
    config["validation"] = {"num_matching_validations": 2}
    config["personal_data"] = {"on_account_deletion": "remove"}
    created = api(
        "mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename ... on Error { message } } }",
        {"i": {"code": "purge", "name": "Purge", "config": config}},
        token=owner,
    )
    assert created["createTask"]["__typename"] == "TaskCreated", created
    opened = api(
        "mutation($i: CreateRoundInput!) { createRound(input: $i) { __typename ... on RoundCreated { round { id } } } }",
        {"i": {"taskCode": "purge", "targetModels": [{"name": target}]}},
        token=owner,
    )["createRound"]
    round_id = opened["round"]["id"]
    added = api(
        "mutation($i: AddContextsInput!) { addContexts(input: $i) { __typename } }",
        {"i": {"roundId": round_id, "contexts": [{"fields": {"context": "Say something about a restaurant."}}]}},
        token=owner,
    )
    assert added["addContexts"]["__typename"] == "ContextsAdded"
    return owner, round_id


def _vote(api, token: str, example: dict, label: str) -> None:
    assert api(VALIDATE, {"e": example["id"], "l": label}, token=token)["validateExample"]["__typename"] == "ExampleValidated"


def _statuses(examples: dict[str, dict]) -> dict[str, str | None]:
    rows = {r["id"]: r["status"] for r in run_sql("SELECT id, status FROM examples")}
    return {name: rows.get(_pk(example["id"])) for name, example in examples.items()}


def _settled() -> bool:
    return run_sql("SELECT count(*) AS n FROM validations WHERE NOT aggregated")[0]["n"] == 0


def _agreement_is_a_recount() -> None:
    stored = run_sql("SELECT round, units, coincidences FROM round_agreement_totals WHERE units <> 0 ORDER BY round")
    recount = run_sql(AGREEMENT_FROM_ROWS.sql, [r["id"] for r in run_sql("SELECT id FROM rounds")])
    assert [(r["round"], r["units"]) for r in stored] == [(r["round"], r["units"]) for r in recount]
    for mine, theirs in zip(stored, recount):
        assert [round(x, 9) for x in mine["coincidences"]] == [round(x, 9) for x in theirs["coincidences"]]


def test_a_task_that_removes_work_loses_the_persons_examples_and_votes_and_recounts_the_rest(stack, api, target_models):
    seed_builtin_tasks()
    owner, purge = _removing_task(api, target_models["sentiment"])
    leaver, author, v1, v2 = (api.sign_up(name) for name in ("leaver", "author", "checker1", "checker2"))
    context = api(NEXT_CONTEXT, {"r": purge}, token=leaver)["nextContext"]["id"]
    ex = {f"p{i}": fooling_example(api, leaver, purge, context, f"The leaver's tricky review number {i}.") for i in (1, 2)}
    ex |= {f"a{i}": fooling_example(api, author, purge, context, f"The author's tricky review number {i}.") for i in (1, 2, 3)}
    _vote(api, v1, ex["p1"], "CORRECT")
    _vote(api, v2, ex["p1"], "CORRECT")  # p1 validated by two votes
    _vote(api, v1, ex["p2"], "INCORRECT")  # p2 open
    _vote(api, v1, ex["a1"], "CORRECT")
    _vote(api, leaver, ex["a1"], "CORRECT")  # the leaver's vote decides a1
    _vote(api, leaver, ex["a2"], "INCORRECT")
    _vote(api, v1, ex["a2"], "CORRECT")
    _vote(api, v2, ex["a2"], "CORRECT")  # a2 validated without the leaver's vote
    _vote(api, leaver, ex["a3"], "INCORRECT")
    _vote(api, v2, ex["a3"], "INCORRECT")  # a3 rejected with it
    before = {"p1": "validated", "p2": "open", "a1": "validated", "a2": "validated", "a3": "rejected"}
    wait_until(lambda: _settled() and _statuses(ex) == before)
    # The default task keeps the leaver's work: an example with a vote on it, and a vote on the author's example.
    sentiment = current_round(api, "sentiment")
    kept_context = api(NEXT_CONTEXT, {"r": sentiment}, token=leaver)["nextContext"]["id"]
    kept = fooling_example(api, leaver, sentiment, kept_context, "A kept review that is hard to read.")
    theirs = fooling_example(api, author, sentiment, kept_context, "The author's kept review, hard to read.")
    _vote(api, v1, kept, "CORRECT")
    _vote(api, leaver, theirs, "INCORRECT")
    wait_until(_settled)
    kept_totals = api(TOTALS, {"r": sentiment})["node"]
    # Before deleting, the person can see which tasks would remove their work.
    notice = api("{ exportMyData }", token=leaver)["exportMyData"]["removed_if_deleted"]
    assert notice == [{"code": "purge", "name": "Purge"}]

    stats = Feed(stack, owner, f'subscription {{ roundStats(roundId: "{purge}") {{ totalCollected totalValidated }} }}')
    assert stats.next() == {"totalCollected": 5, "totalValidated": 3}
    deleted = api(DELETE, token=leaver)["deleteMyAccount"]
    assert deleted["__typename"] == "AccountDeleted", deleted
    # Live views hear of it: the round's counters are pushed as they are now.
    while (pushed := stats.next()) != {"totalCollected": 3, "totalValidated": 1}:
        assert pushed["totalCollected"] in (5, 3), pushed
    stats.close()
    [leaver_id] = [r["id"] for r in run_sql("SELECT id FROM users WHERE username = $1", deleted["pseudonym"])]

    # The leaver's examples and votes in the removing task are gone, with the votes on their examples.
    purge_pk = _pk(purge)
    assert run_sql('SELECT count(*) AS n FROM examples WHERE "user" = $1 AND round = $2', leaver_id, purge_pk)[0]["n"] == 0
    gone = [_pk(ex["p1"]["id"]), _pk(ex["p2"]["id"])]
    assert run_sql("SELECT count(*) AS n FROM validations WHERE example = ANY($1)", gone)[0]["n"] == 0
    votes = run_sql(
        'SELECT count(*) AS n FROM validations v JOIN examples e ON e.id = v.example WHERE v."user" = $1 AND e.round = $2',
        leaver_id,
        purge_pk,
    )
    assert votes[0]["n"] == 0
    # Each example the leaver voted on is aggregated again: a1 (their vote decided it) is open again, a3 (rejected with
    # their vote) too; a2 keeps its outcome.
    assert _statuses(ex) == {"p1": None, "p2": None, "a1": "open", "a2": "validated", "a3": "open"}
    # The round's counters equal a recount from rows, and say so.
    totals = api(TOTALS, {"r": purge})["node"]
    assert totals == run_sql(RECOUNT_ROUND, purge_pk)[0]
    assert totals == {"totalCollected": 3, "totalFooled": 3, "totalValidated": 1, "totalValidatedFooled": 1}
    # Per-user counters recounted: the validators lost their votes on the removed examples, the author a rejection.
    counters = {r.pop("username"): r for r in run_sql(USER_COUNTERS, purge_pk)}
    assert set(counters) == {"author", "checker1", "checker2"}  # none left for the leaver
    for name, row in counters.items():
        assert (row["submitted"], row["fooled_rejected"], row["validations_done"]) == (
            row["submitted_rows"],
            row["fooled_rejected_rows"],
            row["validations_rows"],
        ), name
    assert (counters["author"]["submitted"], counters["author"]["fooled"], counters["author"]["fooled_rejected"]) == (3, 3, 0)
    assert (counters["checker1"]["validations_done"], counters["checker2"]["validations_done"]) == (2, 2)
    _agreement_is_a_recount()
    # a1 is back in the validators' queue (v2 has not voted on it).
    queue = api("query($r: ID!) { nextExamplesToValidate(roundId: $r, first: 10) { id } }", {"r": purge}, token=v2)
    assert [e["id"] for e in queue["nextExamplesToValidate"]] == [ex["a1"]["id"]]

    # Nothing of it is served: the owner's browsing, the export, node(id).
    listed = {e["node"]["id"] for e in api(BROWSE, {"r": purge}, token=owner)["roundExamples"]["edges"]}
    assert listed == {ex["a1"]["id"], ex["a2"]["id"], ex["a3"]["id"]}
    link = api(EXPORT, {"r": purge}, token=owner)["exportRound"]
    exported = httpx.get(stack.api_url + link["url"], timeout=60).text
    rows = [json.loads(line) for line in exported.splitlines()]
    assert len(rows) == 3 and "leaver" not in exported and deleted["pseudonym"].removeprefix("deleted-") not in exported
    assert sum(len(row["validations"]) for row in rows) == 4  # a1: v1; a2: v1, v2; a3: v2
    assert api("query($e: ID!) { node(id: $e) { id } }", {"e": ex["p1"]["id"]})["node"] is None

    # The default task kept everything, under the pseudonym.
    assert run_sql('SELECT "user" FROM examples WHERE id = $1', _pk(kept["id"])) == [{"user": leaver_id}]
    assert run_sql('SELECT label FROM validations WHERE example = $1 AND "user" = $2', _pk(theirs["id"]), leaver_id) == [
        {"label": "incorrect"}
    ]
    assert api(TOTALS, {"r": sentiment})["node"] == kept_totals
    # The re-aggregations were announced (their listeners ran).
    wait_until(lambda: run_sql("SELECT count(*) AS n FROM domain_events WHERE delivered_at IS NULL")[0]["n"] == 0)


def test_a_task_that_chooses_remove_later_has_deleted_accounts_work_removed_by_the_sweep(stack, api, target_models):
    seed_builtin_tasks()
    owner, purge = _removing_task(api, target_models["sentiment"])
    keep = {"on_account_deletion": "keep"}
    config = json.loads(run_sql("SELECT config::text AS c FROM tasks WHERE code = 'purge'")[0]["c"])
    changed = api(UPDATE, {"i": {"taskCode": "purge", "config": {**config, "personal_data": keep}}}, token=owner)
    assert changed["updateTask"]["__typename"] == "TaskUpdated", changed
    leaver, validator = api.sign_up("leaver"), api.sign_up("validator")
    context = api(NEXT_CONTEXT, {"r": purge}, token=leaver)["nextContext"]["id"]
    written = fooling_example(api, leaver, purge, context, "A review the leaver wrote, hard to judge.")
    _vote(api, validator, written, "CORRECT")
    wait_until(_settled)
    assert api("{ exportMyData }", token=leaver)["exportMyData"]["removed_if_deleted"] == []
    assert api(DELETE, token=leaver)["deleteMyAccount"]["__typename"] == "AccountDeleted"
    assert api(TOTALS, {"r": purge})["node"]["totalCollected"] == 1  # kept, as the task said then

    # A bad value is refused with the field named; then the owners choose `remove`.
    bad = api(
        UPDATE, {"i": {"taskCode": "purge", "config": {**config, "personal_data": {"on_account_deletion": "x"}}}}, token=owner
    )
    assert bad["updateTask"]["fields"][0]["field"] == "config.personal_data.on_account_deletion"
    changed = api(UPDATE, {"i": {"taskCode": "purge", "config": config}}, token=owner)
    assert changed["updateTask"]["__typename"] == "TaskUpdated", changed
    wait_until(lambda: api(TOTALS, {"r": purge})["node"]["totalCollected"] == 0, timeout=90)
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 0
    assert run_sql("SELECT validations_done FROM user_round_stats WHERE round = $1", _pk(purge)) == [{"validations_done": 0}]
