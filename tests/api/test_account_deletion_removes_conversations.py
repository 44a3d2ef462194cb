"""Issue #34 point 6 on a generative task that removes a deleted account's work: the person's conversations (and
their turns), the example one became, their battles (sides, vote) go; the battle leaderboard no longer counts their
vote; another person's conversation on the same round stays."""

from __future__ import annotations

import uuid

from tests.api.conversations_helpers import SUBMIT, ReplyFeed, generative_config, generative_task, send
from tests.api.examples_helpers import NEXT_CONTEXT, wait_until
from tests.api.test_account_deletion_removes_work import DELETE, TOTALS
from tests.api.test_battles import _start, _vote, demos  # noqa: F401 (demos: a fixture)
from tests.conftest import run_sql


def _chat(stack, api, token, round_id) -> str:
    """A conversation of one exchange, submitted as an example (the author says the model failed); its example id."""
    sent = send(api, token, round_id, "Which city is the capital of Australia?")
    assert sent["__typename"] == "MessageSent", sent
    assert ReplyFeed(stack, token, sent["turn"]["id"]).all()[-1]["status"] == "DONE"
    variables = {"i": {"conversationId": sent["conversation"]["id"], "clientId": str(uuid.uuid4()), "modelFailed": True}}
    submitted = api(SUBMIT, variables, token=token)["submitConversation"]
    assert submitted["__typename"] == "ExampleSubmitted", submitted
    return submitted["example"]["id"]


def test_a_generative_task_that_removes_work_loses_the_persons_conversations_and_battles(stack, api, demos):  # noqa: F811
    demo, second = demos
    config = generative_config(battle={"votes_per_user_per_day": 5})
    config["personal_data"] = {"on_account_deletion": "remove"}
    _owner, round_id = generative_task(api, "purgechat", demo, config, also=(second,))
    leaver, stayer = api.sign_up("leaver"), api.sign_up("stayer")
    _chat(stack, api, leaver, round_id)
    _chat(stack, api, stayer, round_id)
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=leaver)["nextContext"]["id"]
    started = _start(api, leaver, round_id, context_id, "Tell me a fact about Mars.")
    assert started["__typename"] == "BattleStarted", started
    for side in started["battle"]["sides"]:  # the vote waits for every reply to end
        assert ReplyFeed(stack, leaver, side["turnId"]).all()[-1]["done"]
    assert _vote(api, leaver, started["battle"]["id"], "A")["__typename"] == "BattleVoted"
    board = 'query { battleLeaderboard(taskCode: "purgechat") { votes } }'
    assert api(board)["battleLeaderboard"]["votes"] == 1
    assert api(TOTALS, {"r": round_id})["node"]["totalCollected"] == 2

    deleted = api(DELETE, token=leaver)["deleteMyAccount"]
    assert deleted["__typename"] == "AccountDeleted", deleted
    [leaver_id] = [r["id"] for r in run_sql("SELECT id FROM users WHERE username = $1", deleted["pseudonym"])]
    for table in ("conversations", "battles", "battle_votes", "examples", "user_round_stats"):
        assert run_sql(f'SELECT count(*) AS n FROM {table} WHERE "user" = $1', leaver_id)[0]["n"] == 0, table
    assert run_sql("SELECT count(*) AS n FROM battle_sides")[0]["n"] == 0
    # Only the other person's conversation and its turn remain; the counters and the leaderboard say so.
    assert run_sql("SELECT count(*) AS n FROM conversation_turns")[0]["n"] == 1
    assert api(TOTALS, {"r": round_id})["node"]["totalCollected"] == 1
    assert api(board)["battleLeaderboard"]["votes"] == 0
    wait_until(lambda: run_sql("SELECT count(*) AS n FROM domain_events WHERE delivered_at IS NULL")[0]["n"] == 0)
