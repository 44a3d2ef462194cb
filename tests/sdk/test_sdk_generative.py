"""The SDK on generative tasks against the real demo model: a chat whose replies stream piece by piece, and a battle's
ratings with their intervals."""

from __future__ import annotations

import uuid

import pytest

from dynabench_client import BattleRatings, Client
from tests.api.conversations_helpers import CONVERSATION, demo_copy, generative_config, generative_task, wait_for_replies_to_end
from tests.api.examples_helpers import NEXT_CONTEXT, wait_until

START = """mutation($i: StartBattleInput!) { startBattle(input: $i) { __typename
  ... on BattleStarted { battle { id } } ... on Error { code message } } }"""
VOTE = "mutation($i: VoteBattleInput!) { voteBattle(input: $i) { __typename ... on Error { code message } } }"


@pytest.fixture(scope="module")
def demos(stack, target_models):
    demo = target_models["chat_demo"]
    with demo_copy(stack, demo, "generative_demo_sdk") as second:
        yield demo, second
    wait_for_replies_to_end()


def test_a_chat_streams_each_reply_in_pieces(stack, api, demos):
    _owner, round_id = generative_task(api, "sdk_chat", demos[0])
    author = api.sign_up("sdk-chatter")
    with Client(stack.api_url, author, progress=False) as client:
        pieces = list(client.chat(round_id, ["What is the capital of France?", "And of Spain?"]))
    assert {p.message for p in pieces} == {0, 1} and len(pieces) > 2  # streamed, not one answer per reply
    for message in (0, 1):
        mine = [p for p in pieces if p.message == message]
        assert mine[-1].done and mine[-1].status == "DONE" and not any(p.done for p in mine[:-1])
    conversation = api(CONVERSATION, {"id": pieces[0].conversation_id}, token=author)["conversation"]
    replies = [turn["reply"] for turn in conversation["turns"]]
    assert replies == ["".join(p.text for p in pieces if p.message == m) for m in (0, 1)] and all(replies)


def test_battle_ratings_come_with_their_intervals(stack, api, demos):
    demo, second = demos
    config = generative_config(battle={"votes_per_user_per_day": 10})
    _owner, round_id = generative_task(api, "sdk_arena", demo, config, also=(second,))
    voter = api.sign_up("sdk-voter")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=voter)["nextContext"]["id"]
    variables = {"i": {"roundId": round_id, "contextId": context_id, "clientId": str(uuid.uuid4()), "message": "Say hi."}}
    started = api(START, variables, token=voter)["startBattle"]
    assert started["__typename"] == "BattleStarted", started
    battle_id = started["battle"]["id"]
    with Client(stack.api_url, voter, progress=False) as client:
        wait_until(lambda: client.battle(battle_id).votable, timeout=120)
        voted = api(VOTE, {"i": {"battleId": battle_id, "clientId": str(uuid.uuid4()), "choice": "A"}}, token=voter)
        assert voted["voteBattle"]["__typename"] == "BattleVoted", voted
        battle = client.battle(battle_id)
        assert battle.vote.choice.value == "A" and {s.model_name for s in battle.sides} == {demo, second}
        ratings = client.battle_leaderboard("sdk_arena")
    assert isinstance(ratings, BattleRatings) and ratings.votes == 1
    assert {m["name"] for m in ratings.models} == {demo, second}
    assert all(m["lower"] <= m["rating"] <= m["upper"] for m in ratings.models)
    winner = next(m for m in ratings.models if m["name"] == battle.sides[0].model_name)
    assert winner["wins"] == 1 and winner["rank"] == 1
    table = ratings.to_dataframe()
    assert list(table["name"]) == [m["name"] for m in ratings.models] and {"lower", "upper"} <= set(table.columns)
