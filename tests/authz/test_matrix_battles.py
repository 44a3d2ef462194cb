"""Authorization matrix, side-by-side battles (issue #31): starting one, reading it, voting on it, going on with its
preferred side, and the battle leaderboard (see matrix.py and world.py).

Starting needs the annotate scope and a round of a task the caller may see (a public one here). A battle, its sides
and its vote are their author's alone, as a conversation: anyone else is told it does not exist (hide); so the read
and vote cells act on a battle of the annotator, except the annotator's own cells and the cells of the tokens with the
annotate scope, which act on their own (the admin's). The leaderboard is for anyone who may see the task (tokens need
the read scope), like the task's other leaderboards.

The module's world adds a battle task (created by the admin, owned by task_owner too) with one round whose targets are
the built-in demo model and a copy of it, inserted by SQL (no Triton check: neither may be loaded; a reply started by
an allowed startBattle ends done or failed in the background, and the matrix only checks the mutation's answer), and
one context. The battles the cells read and vote on are inserted by SQL, as startBattle and the replies leave them."""

import json
import uuid

import pytest

from tests.api.conversations_helpers import generative_config, wait_for_replies_to_end
from tests.authz.matrix import Op, cells, holds, run_cell, same
from tests.authz.world import gid, pk_of
from tests.conftest import run_sql

ERR = "... on Error { code message }"
ARENA = "mx_arena"
TARGETS = [{"name": "generative_demo", "version": "1"}, {"name": "generative_demo_b", "version": "1"}]
PROMPT = "Which city is the capital of France?"
BATTLE = "id prompt vote { choice } sides { label reply status modelName }"
CHECKS = {"rate": 0.01, "replies": ["Bananas are rich in potassium."], "min_answers": 3, "threshold": 0.8}


@pytest.fixture(scope="module", autouse=True)
def arena(world):
    created = world.api(
        f"mutation($i: CreateTaskInput!) {{ createTask(input: $i) {{ __typename {ERR} }} }}",
        # Check battles on (reinstateBattleVoter has a paused voter to act on), rarely enough for startBattle's cells.
        {"i": {"code": ARENA, "name": "Matrix arena", "config": generative_config(battle={"checks": CHECKS})}},
        token=world.bearer["admin"],
    )
    assert created["createTask"]["__typename"] == "TaskCreated", created
    task = run_sql("SELECT id FROM tasks WHERE code = $1", ARENA)[0]["id"]
    run_sql('INSERT INTO task_owners (task, "user") VALUES ($1, $2)', task, world.user_pk["task_owner"])
    world.ids["arena_round"] = run_sql(
        "INSERT INTO rounds (task, number, target_models, start_at) VALUES ($1, 1, $2, now()) RETURNING id",
        task,
        json.dumps(TARGETS),
    )[0]["id"]
    run_sql("UPDATE tasks SET current_round = 1 WHERE id = $1", task)
    world.ids["arena_context"] = run_sql(
        "INSERT INTO contexts (round, fields, total_used, total_fooled, created_at) VALUES ($1, $2, 0, 0, now()) RETURNING id",
        world.ids["arena_round"],
        json.dumps({"scenario": "A quiz about European capitals."}),
    )[0]["id"]
    yield
    # The replies the allowed startBattle cells started end before the next module empties the tables (ids start
    # again there: a late reply must not finish another module's turn).
    wait_for_replies_to_end()


def _owner_of(world, principal: str) -> str:
    """Whose battle a cell acts on: the principal's own for the annotator and the tokens that may annotate (the
    admin's), the annotator's for everyone else (hidden from them, or refused before it is read)."""
    if principal == "annotator" or principal in ("token_annotate", "token_admin"):
        return world.self_of(principal)
    return "annotator"


def _battle(world, author: str) -> int:
    """A battle of `author` in the arena round whose two replies ended."""
    battle = run_sql(
        'INSERT INTO battles (client_id, round, context, "user", prompt, created_at) VALUES ($1, $2, $3, $4, $5, now()) '
        "RETURNING id",
        uuid.uuid4(),
        world.ids["arena_round"],
        world.ids["arena_context"],
        world.user_pk[author],
        PROMPT,
    )[0]["id"]
    for position, target in enumerate(TARGETS):
        conversation = run_sql(
            'INSERT INTO conversations (client_id, round, context, "user", target, params, created_at) '
            "VALUES ($1, $2, $3, $4, $5, $6, now()) RETURNING id",
            uuid.uuid4(),
            world.ids["arena_round"],
            world.ids["arena_context"],
            world.user_pk[author],
            json.dumps(target),
            json.dumps({"max_tokens": 24, "temperature": 0.0, "seed": 0, "stop": []}),
        )[0]["id"]
        run_sql(
            "INSERT INTO conversation_turns (conversation, position, client_id, message, reply, status, model_name, "
            "model_version, started_at, finished_at) VALUES ($1, 0, $2, $3, $4, 'done', $5, '1', now(), now())",
            conversation,
            uuid.uuid4(),
            PROMPT,
            f"Paris, says side {position}.",
            target["name"],
        )
        run_sql("INSERT INTO battle_sides (battle, position, conversation) VALUES ($1, $2, $3)", battle, position, conversation)
    return battle


def _continue(world, principal):
    """A battle of the cell's author voted A (its author's vote, inserted by SQL), continued with side A."""
    author = _owner_of(world, principal)
    battle = _battle(world, author)
    run_sql(
        'INSERT INTO battle_votes (battle, "user", choice, client_id, created_at) VALUES ($1, $2, $3, $4, now())',
        battle,
        world.user_pk[author],
        "a",
        uuid.uuid4(),
    )
    return {"i": {"battleId": gid("Battle", battle), "clientId": str(uuid.uuid4()), "side": "A"}}


def _continued(world, variables):
    battle = pk_of(variables["i"]["battleId"])
    return run_sql('SELECT battle, position, "user" FROM battle_continuations WHERE battle = $1', battle)


def _check_continued(world, principal, value, variables):
    (row,) = _continued(world, variables)
    same((row["position"], row["user"]), (0, world.user_pk[world.self_of(principal)]))
    sides = value["battle"]["sides"]
    same((value["duplicate"], value["conversation"]["id"]), (False, sides[0]["conversationId"]))
    same([(s["modelName"], s["continuable"]) for s in sides], [(t["name"], i == 0) for i, t in enumerate(TARGETS)])


def _with_battle(world, principal):
    return {"b": gid("Battle", _battle(world, _owner_of(world, principal)))}


def _battle_state(world, variables):
    battle = pk_of(variables.get("b") or variables["i"]["battleId"])
    return (
        run_sql('SELECT battle, "user", choice FROM battle_votes WHERE battle = $1', battle),
        run_sql("SELECT count(*) AS sides FROM battle_sides WHERE battle = $1", battle),
    )


def _message(world, principal):
    return {
        "i": {
            "roundId": gid("Round", world.ids["arena_round"]),
            "contextId": gid("Context", world.ids["arena_context"]),
            "clientId": str(uuid.uuid4()),
            "message": f"Which city is the capital of France, {principal}?",
        }
    }


def _started(world, variables):
    return run_sql(
        'SELECT b.id, b."user", b.prompt, count(s.id) AS sides FROM battles b LEFT JOIN battle_sides s ON s.battle = b.id '
        "WHERE b.client_id = $1 GROUP BY b.id",
        uuid.UUID(variables["i"]["clientId"]),
    )


def _check_started(world, principal, value, variables):
    (row,) = _started(world, variables)
    same((row["user"], row["prompt"], row["sides"]), (world.user_pk[principal], variables["i"]["message"], 2))
    same((value["battle"]["id"], value["duplicate"]), (gid("Battle", row["id"]), False))
    same([s["modelName"] for s in value["battle"]["sides"]], [None, None])


def _vote(world, principal):
    return {"i": {"battleId": _with_battle(world, principal)["b"], "clientId": str(uuid.uuid4()), "choice": "A"}}


def _check_voted(world, principal, value, variables):
    battle = value["battle"]
    same((battle["id"], battle["vote"]), (variables["i"]["battleId"], {"choice": "A"}))
    same([s["modelName"] for s in battle["sides"]], [t["name"] for t in TARGETS])
    same(_battle_state(world, variables)[0][0]["user"], world.user_pk[world.self_of(principal)])


def _paused_voter(world, principal):
    """A fresh voter with three votes for the check side of check battles in the arena: paused by its rule (3, 0.8)."""
    name = world.unique("paused-voter-")
    user = run_sql(
        "INSERT INTO users (username, email, password_hash, is_admin) VALUES ($1, NULL, '!', false) RETURNING id", name
    )[0]["id"]
    for _ in range(3):
        battle = run_sql(
            'INSERT INTO battles (client_id, round, context, "user", prompt, check_position, created_at) '
            "VALUES ($1, $2, $3, $4, $5, 0, now()) RETURNING id",
            uuid.uuid4(),
            world.ids["arena_round"],
            world.ids["arena_context"],
            user,
            PROMPT,
        )[0]["id"]
        run_sql(
            "INSERT INTO battle_votes (battle, \"user\", choice, client_id, created_at) VALUES ($1, $2, 'a', $3, now())",
            battle,
            user,
            uuid.uuid4(),
        )
    return {"c": ARENA, "u": name, "_user": user}


def _voter_reinstatements_of(world, variables):
    return run_sql('SELECT count(*) AS n FROM battle_voter_reinstatements WHERE "user" = $1', variables["_user"])


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OWN = "401 ok hide hide hide 403 ok 403 ok"
OPS = [
    Op(
        "startBattle",
        "Mutation.startBattle",
        f"mutation($i: StartBattleInput!) {{ startBattle(input: $i) {{ __typename "
        f"... on BattleStarted {{ duplicate battle {{ {BATTLE} }} }} {ERR} }} }}",
        # As sendMessage: anyone who may annotate, in a round of a task they may see: a new battle of theirs.
        "401 ok ok ok ok 403 ok 403 ok",
        ok_type="BattleStarted",
        prepare=_message,
        watch=_started,
        check=_check_started,
    ),
    Op(
        "battle",
        "Query.battle",
        f"query($b: ID!) {{ battle(id: $b) {{ {BATTLE} }} }}",
        OWN,
        prepare=_with_battle,
        watch=_battle_state,
        # Not voted: the replies, and no model's name.
        check=lambda w, p, v, a: same(
            (v["id"], v["vote"], [(s["label"], s["status"], s["modelName"]) for s in v["sides"]]),
            (a["b"], None, [("A", "DONE", None), ("B", "DONE", None)]),
        ),
    ),
    Op(
        "voteBattle",
        "Mutation.voteBattle",
        f"mutation($i: VoteBattleInput!) {{ voteBattle(input: $i) {{ __typename "
        f"... on BattleVoted {{ duplicate battle {{ {BATTLE} }} }} {ERR} }} }}",
        OWN,
        ok_type="BattleVoted",
        prepare=_vote,
        watch=_battle_state,
        check=_check_voted,
    ),
    Op(
        "continueBattle",
        "Mutation.continueBattle",
        "mutation($i: ContinueBattleInput!) { continueBattle(input: $i) { __typename ... on BattleContinued { duplicate "
        f"conversation {{ id }} battle {{ sides {{ modelName continuable conversationId }} }} }} {ERR} }} }}",
        # As voteBattle: the battle's author only (its side becomes a conversation of theirs).
        OWN,
        ok_type="BattleContinued",
        prepare=_continue,
        watch=_continued,
        check=_check_continued,
    ),
    Op(
        "reinstateBattleVoter",
        "Mutation.reinstateBattleVoter",
        f"mutation($c: String!, $u: String!) {{ reinstateBattleVoter(taskCode: $c, username: $u) {{ __typename "
        f"... on BattleVoterReinstated {{ voter {{ username paused checksAnswered }} }} {ERR} }} }}",
        # The task's owners (and admins), as reinstateValidator; tokens need the admin scope.
        "401 403 403 ok ok 403 403 403 ok",
        ok_type="BattleVoterReinstated",
        prepare=_paused_voter,
        watch=_voter_reinstatements_of,
        check=lambda w, p, v, a: holds(v["voter"] == {"username": a["u"], "paused": False, "checksAnswered": 3}, v),
    ),
    Op(
        "battleLeaderboard",
        "Query.battleLeaderboard",
        "query($t: String!) { battleLeaderboard(taskCode: $t) { rounds seed models { name rank } } }",
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"t": ARENA},
        check=lambda w, p, v, _: holds(
            (v["rounds"], v["seed"]) == (1000, 0) and {m["name"] for m in v["models"]} <= {t["name"] for t in TARGETS}, v
        ),
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
