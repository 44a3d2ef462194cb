"""Authorization matrix, annotation and validation: writing examples, changing one's own, the validation queue,
votes, live example updates and the annotators' numbers (see matrix.py and world.py)."""

import uuid

import pytest

from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.authz.world import MAIN_TASK, gid, pk_of
from tests.conftest import run_sql

ERR = "... on Error { code message }"
CHANGED = "__typename ... on ExampleChanged { example { id retracted flagged explanation } } " + ERR


def _example_input(world, principal):
    return {
        "roundId": world.round,
        "contextId": world.context,
        "fields": {"question": f"Where does the river flow, {principal}?"},
        "answer": "Peru",
        "clientId": str(uuid.uuid4()),
    }


def _author_of(client_id):
    return run_sql('SELECT "user" FROM examples WHERE client_id = $1', uuid.UUID(client_id))[0]["user"]


def _own_example(world, principal):
    # The annotator's example for sessions; a token's own (the admin's) example for tokens.
    author = world.self_of(principal) if principal.startswith("token_") else "annotator"
    return {"e": gid("Example", world.new_example(author))}


def _example_state(world, variables):
    return run_sql("SELECT retracted, flagged, explanation, status FROM examples WHERE id = $1", pk_of(variables["e"]))


def _awaiting_claim(world, principal):
    """A fooling ask_user example waiting for its author's claim (the annotator's; a token's own for tokens)."""
    author = world.self_of(principal) if principal.startswith("token_") else "annotator"
    example = world.new_example(author, status="awaiting_claim", fooled=None)
    return {"i": {"exampleId": gid("Example", example), "modelWasWrong": True, "clientId": str(uuid.uuid4())}}


def _claim_state(world, variables):
    return run_sql("SELECT fooled, status, claim_client_id FROM examples WHERE id = $1", pk_of(variables["i"]["exampleId"]))


def _votes_on(world, variables):
    return run_sql('SELECT "user", label, mode FROM validations WHERE example = $1', pk_of(variables["e"]))


def _validatable(world, principal):
    """What examplesToValidate must list for this viewer: open examples of others it has not voted on."""
    rows = run_sql(
        "SELECT e.id FROM examples e WHERE e.round = $1 AND e.status = 'open' AND NOT e.retracted AND e.\"user\" <> $2 "
        'AND NOT EXISTS (SELECT 1 FROM validations v WHERE v.example = e.id AND v."user" = $2) ORDER BY e.id LIMIT 100',
        world.ids["round"],
        world.user_pk[principal],
    )
    return [gid("Example", r["id"]) for r in rows]


def _check_handed_out(world, principal, value, _):
    ids = [pk_of(e["id"]) for e in value]
    rows = run_sql('SELECT status, retracted, "user" FROM examples WHERE id = ANY($1::int[])', ids)
    holds(
        len(rows) == len(ids)
        and all(r["status"] == "open" and not r["retracted"] and r["user"] != world.user_pk[principal] for r in rows),
        rows,
    )
    if principal != "annotator":  # the shared open example is in everyone else's queue, so theirs is never empty
        holds(ids, value)


def _check_queue_snapshot(world, principal, value, _):
    same(value["reset"], True)
    authors = run_sql('SELECT DISTINCT "user" FROM examples WHERE id = ANY($1::int[])', [pk_of(e["id"]) for e in value["added"]])
    holds(world.user_pk[principal] not in [r["user"] for r in authors], value)


def _check_vote(mode):
    def check(world, principal, value, variables):
        same(value["validation"], {"label": "CORRECT", "mode": mode})
        same(_votes_on(world, variables), [{"user": world.user_pk[principal], "label": "correct", "mode": mode.lower()}])

    return check


def _vote(mode):
    return Op(
        f"validateExample{'' if mode == 'USER' else ':' + mode}",
        "Mutation.validateExample",
        f"mutation($e: ID!) {{ validateExample(exampleId: $e, label: CORRECT, mode: {mode}) {{ __typename "
        f"... on ExampleValidated {{ validation {{ label mode }} }} {ERR} }} }}",
        # The annotator may not vote on their own example; owner mode is the task owners' (and admin's).
        "401 403 ok ok ok 403 ok 403 ok" if mode == "USER" else "401 403 403 ok ok 403 403 403 ok",
        ok_type="ExampleValidated",
        prepare=lambda w, p: {"e": gid("Example", w.new_example("annotator", fooled=False))},
        watch=_votes_on,
        check=_check_vote(mode),
    )


def _change(name, arguments, check):
    return Op(
        name,
        f"Mutation.{name}",
        f"mutation($e: ID!) {{ {name}(exampleId: $e{arguments}) {{ {CHANGED} }} }}",
        # Only the author; with a token, on the token's own example with the annotate scope.
        "401 ok 403 403 403 403 ok 403 ok",
        ok_type="ExampleChanged",
        prepare=_own_example,
        watch=_example_state,
        check=lambda w, p, v, a: (same(v["example"]["id"], a["e"]), check(_example_state(w, a)[0])),
    )


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "nextContext",
        "Query.nextContext",
        "query($r: ID!) { nextContext(roundId: $r) { id round { id } } }",
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"r": w.round},
        check=lambda w, p, v, _: same(v["round"], {"id": w.round}),
    ),
    Op(
        "myExamples",
        "Query.myExamples",
        "{ myExamples(first: 100) { edges { node { id } } } }",
        "401 ok ok ok ok ok 403 403 ok",
        check=lambda w, p, v, _: same(
            [e["node"]["id"] for e in v["edges"]],
            [
                gid("Example", r["id"])
                for r in run_sql('SELECT id FROM examples WHERE "user" = $1 ORDER BY id DESC LIMIT 100', w.user_pk[p])
            ],
        ),
    ),
    Op(
        "nextExamplesToValidate",
        "Query.nextExamplesToValidate",
        "query($r: ID!) { nextExamplesToValidate(roundId: $r, first: 50) { id } }",
        "401 ok ok ok ok 403 ok 403 ok",
        prepare=lambda w, p: {"r": w.round},
        check=_check_handed_out,
    ),
    Op(
        "examplesToValidate",
        "Query.examplesToValidate",
        "query($r: ID!) { examplesToValidate(roundId: $r, first: 100) { edges { node { id } } } }",
        "401 ok ok ok ok 403 ok 403 ok",
        prepare=lambda w, p: {"r": w.round},
        check=lambda w, p, v, _: same([e["node"]["id"] for e in v["edges"]], _validatable(w, p)),
    ),
    Op(
        "validationWaiting",
        "Query.validationWaiting",
        "query($r: ID!) { validationWaiting(roundId: $r) { count capped } }",
        "401 ok ok ok ok 403 ok 403 ok",
        prepare=lambda w, p: {"r": w.round},
        check=lambda w, p, v, _: holds(v == {"count": len(_validatable(w, p)), "capped": False}, v),
    ),
    Op(
        "userLeaderboard",
        "Query.userLeaderboard",
        "query($t: String!) { userLeaderboard(taskCode: $t) { rank user { username } } }",
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"t": MAIN_TASK},
        check=lambda w, p, v, _: same([r["rank"] for r in v], list(range(1, len(v) + 1))),
    ),
    Op(
        "myStats",
        "Query.myStats",
        "query($t: String!) { myStats(taskCode: $t) { user { username } } }",
        "401 ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"t": MAIN_TASK},
        check=lambda w, p, v, _: same(v["user"], {"username": w.username[p]}),
    ),
    Op(
        "myBadges",
        "Query.myBadges",
        "query($t: String!) { myBadges(taskCode: $t) { name description } }",
        "401 ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"t": MAIN_TASK},
        check=lambda w, p, v, _: holds(isinstance(v, list), v),
    ),
    Op(
        "node:Example",
        "Query.node",
        "query($id: ID!) { node(id: $id) { ... on Example { id status } } }",
        # Its author, and the task's owners and admins; hidden from everyone else.
        "hide ok hide ok ok ok 403 403 ok",
        prepare=lambda w, p: {"id": gid("Example", w.ids["example"])},
        check=lambda w, p, v, _: same(v, {"id": gid("Example", w.ids["example"]), "status": "open"}),
    ),
    Op(
        "createExample",
        "Mutation.createExample",
        f"mutation($i: CreateExampleInput!) {{ createExample(input: $i) {{ __typename ... on ExampleSubmitted {{ example {{ id }} }} {ERR} }} }}",
        "401 ok ok ok ok 403 ok 403 ok",
        ok_type="ExampleSubmitted",
        prepare=lambda w, p: {"i": _example_input(w, p)},
        check=lambda w, p, v, a: same(_author_of(a["i"]["clientId"]), w.user_pk[p]),
    ),
    Op(
        "explainPrediction",
        "Query.explainPrediction",
        "query($r: ID!, $c: ID!) { explainPrediction(roundId: $r, contextId: $c, "
        'fields: {question: "Where does the river flow?"}) { tokens { text } } }',
        "401 ok ok ok ok 403 ok 403 ok",
        prepare=lambda w, p: {"r": w.round, "c": w.context},
        check=lambda w, p, v, _: same([t["text"] for t in v["tokens"]], ["Where", "does", "the", "river", "flow", "?"]),
    ),
    Op(
        "submitExamples",
        "Mutation.submitExamples",
        f"mutation($i: [CreateExampleInput!]!) {{ submitExamples(inputs: $i) {{ __typename ... on ExampleSubmitted {{ example {{ id }} }} {ERR} }} }}",
        "401 ok ok ok ok 403 ok 403 ok",
        ok_type="ExampleSubmitted",
        prepare=lambda w, p: {"i": [_example_input(w, p)]},
        check=lambda w, p, v, a: same((len(v), _author_of(a["i"][0]["clientId"])), (1, w.user_pk[p])),
    ),
    _change("retractExample", "", lambda row: same(row["retracted"], True)),
    _change("flagExample", ', reason: "spam"', lambda row: same(row["flagged"], True)),
    _change("explainExample", ', explanation: "Because."', lambda row: same(row["explanation"], "Because.")),
    Op(
        "claimFooled",
        "Mutation.claimFooled",
        f"mutation($i: ClaimFooledInput!) {{ claimFooled(input: $i) {{ __typename "
        f"... on FoolingClaimed {{ example {{ id status fooled }} }} {ERR} }} }}",
        # Only the author (ask_user tasks); with a token, on the token's own example with the annotate scope.
        "401 ok 403 403 403 403 ok 403 ok",
        ok_type="FoolingClaimed",
        prepare=_awaiting_claim,
        watch=_claim_state,
        check=lambda w, p, v, a: same(v["example"], {"id": a["i"]["exampleId"], "status": "open", "fooled": True}),
    ),
    _vote("USER"),
    _vote("OWNER"),
    Op(
        "exampleUpdated",
        "Subscription.exampleUpdated",
        "subscription($e: ID!) { exampleUpdated(exampleId: $e) { id status } }",
        "401 ok 403 ok ok ok 403 403 ok",
        prepare=lambda w, p: {"e": gid("Example", w.ids["example"])},
        check=lambda w, p, v, a: same(v, {"id": a["e"], "status": "open"}),
    ),
    Op(
        "examplesToValidate:live",
        "Subscription.examplesToValidate",
        "subscription($r: ID!) { examplesToValidate(roundId: $r) { added { id } removedIds reset } }",
        "401 ok ok ok ok 403 ok 403 ok",
        prepare=lambda w, p: {"r": w.round},
        check=_check_queue_snapshot,
    ),
    Op(
        "myExampleUpdates",
        "Subscription.myExampleUpdates",
        "subscription { myExampleUpdates { change example { id } } }",
        "401 ok ok ok ok ok 403 403 ok",
        check=lambda w, p, v, _: same(v, {"change": "LISTENING", "example": None}),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
