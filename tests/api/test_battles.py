"""Side-by-side battles of generative targets through GraphQL (issue #31): one prompt answered by two anonymous copies
of the built-in demo model, each side streamed through replyStream; no answer names a model before the vote (the
battle, its turns, its streams, its conversations), the vote reveals them, once; the daily cap; the leaderboard equals
server.battles.ratings.bootstrap on the same votes."""

import json
import uuid

import pytest
from strawberry.relay import GlobalID

from server.battles.ratings import Battle, bootstrap
from tests.api.conversations_helpers import (
    CONVERSATION,
    SUBMIT,
    ReplyFeed,
    demo_copy,
    generative_config,
    generative_task,
    send,
)
from tests.api.examples_helpers import NEXT_CONTEXT
from tests.conftest import run_sql

SECOND = "generative_demo_b"
ERR = "... on Error { code message } ... on RateLimitedError { retryAfterSeconds } ... on InputError { fields { field message } }"
BATTLE = "id prompt votable choices vote { choice } sides { label turnId reply status error modelName modelVersion }"
START = f"""mutation($i: StartBattleInput!) {{ startBattle(input: $i) {{ __typename
  ... on BattleStarted {{ duplicate battle {{ {BATTLE} }} }} {ERR} }} }}"""
VOTE = f"""mutation($i: VoteBattleInput!) {{ voteBattle(input: $i) {{ __typename
  ... on BattleVoted {{ duplicate battle {{ {BATTLE} }} }} {ERR} }} }}"""
READ = f"query($id: ID!) {{ battle(id: $id) {{ {BATTLE} }} }}"
RATED = "id ratingField vote { choice } sides { label rating continuable conversationId modelName }"
CONTINUE = f"""mutation($i: ContinueBattleInput!) {{ continueBattle(input: $i) {{ __typename
  ... on BattleContinued {{ duplicate battle {{ {RATED} }} conversation {{ id messagesLeft turns {{ position modelName }} }} }}
  ... on Error {{ code message }} ... on InputError {{ fields {{ field message }} }} }} }}"""
RETRY = "mutation($t: ID!) { retryReply(turnId: $t) { __typename ... on Error { code message } } }"
STOP = "mutation($t: ID!) { stopReply(turnId: $t) { __typename ... on ReplyChanged { turn { status modelName modelVersion } } } }"
BOARD = """query($c: String!, $r: ID) { battleLeaderboard(taskCode: $c, roundId: $r) {
  votes rounds seed ballots countedBallots flaggedVoters repeats positionBias { sides label picked decisive share lower upper chance }
  winRate models { name rating lower upper rank stability topShare battles wins losses ties bothBad } } }"""


@pytest.fixture(scope="module")
def demos(stack, target_models):
    """The demo model and a copy of it under another name: two targets for a battle, nothing trained."""
    demo = target_models["chat_demo"]
    with demo_copy(stack, demo, SECOND) as second:
        yield demo, second


def _start(api, token, round_id, context_id, text, client_id=None):
    variables = {"i": {"roundId": round_id, "contextId": context_id, "clientId": str(client_id or uuid.uuid4()), "message": text}}
    return api(START, variables, token=token)["startBattle"]


def _vote(api, token, battle_id, choice, client_id=None):
    variables = {"i": {"battleId": battle_id, "clientId": str(client_id or uuid.uuid4()), "choice": choice}}
    return api(VOTE, variables, token=token)["voteBattle"]


def _stop_every_reply(stack, api, token, battle) -> list[dict]:
    """Each side's first piece, then stopReply (a blind turn: no model named), then the stream to its end."""
    feeds = [ReplyFeed(stack, token, side["turnId"]) for side in battle["sides"]]
    firsts = [feed.next() for feed in feeds]
    assert all(first is not None and not first["done"] for first in firsts), firsts
    for side in battle["sides"]:
        stopped = api(STOP, {"t": side["turnId"]}, token=token)["stopReply"]
        assert stopped["turn"]["modelName"] == "" and stopped["turn"]["modelVersion"] == "", stopped
    return [[first, *feed.all()] for first, feed in zip(firsts, feeds)]


def test_a_blind_battle_is_voted_once_then_revealed_and_rated(stack, api, demos):
    demo, second = demos
    config = generative_config(max_tokens=1024, min_tokens=1000, temperature=1.0, battle={"votes_per_user_per_day": 2})
    owner, round_id = generative_task(api, "arena", demo, config, also=(second,))
    # A battle task's round needs as many different targets as a battle has sides.
    one = api(
        "mutation($i: CreateRoundInput!) { createRound(input: $i) { __typename ... on InputError { fields { field message } } } }",
        {"i": {"taskCode": "arena", "targetModels": [{"name": demo}, {"name": demo}]}},
        token=owner,
    )["createRound"]
    assert one["__typename"] == "InputError" and one["fields"][0]["field"] == "targetModels", one
    assert "at least 2 different targets" in one["fields"][0]["message"]

    author, other = api.sign_up("arena_author"), api.sign_up("arena_other")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    client_id = uuid.uuid4()
    started = _start(api, author, round_id, context_id, "Tell me a very long story about the sea.", client_id)
    assert started["__typename"] == "BattleStarted" and started["duplicate"] is False, started
    battle = started["battle"]
    assert [s["label"] for s in battle["sides"]] == ["A", "B"] and battle["choices"] == ["A", "B", "TIE", "BOTH_BAD"]
    assert all(s["status"] == "GENERATING" and s["modelName"] is None for s in battle["sides"]) and not battle["votable"]
    again = _start(api, author, round_id, context_id, "Tell me a very long story about the sea.", client_id)
    assert again["duplicate"] is True and again["battle"]["id"] == battle["id"]

    # Before the vote: no answer names a model, the sides' conversations are not readable, and nobody else sees it.
    feeds = [ReplyFeed(stack, author, side["turnId"]) for side in battle["sides"]]
    firsts = [feed.next() for feed in feeds]
    assert all(first is not None and not first["done"] for first in firsts), firsts
    for side in battle["sides"]:
        stopped = api(STOP, {"t": side["turnId"]}, token=author)["stopReply"]
        assert stopped["turn"]["modelName"] == "" and stopped["turn"]["modelVersion"] == "", stopped
    streams = [[first, *feed.all()] for first, feed in zip(firsts, feeds)]
    # Each stream ends without naming the model's version (stopped, as a rule: the replies are long).
    ends = [chunks[-1] for chunks in streams]
    assert all(end["done"] and end["modelVersion"] == "" for end in ends), ends
    read = api(READ, {"id": battle["id"]}, token=author)["battle"]
    assert read["votable"] and [s["reply"] for s in read["sides"]] == ["".join(c["text"] for c in chunks) for chunks in streams]
    assert "generative_demo" not in json.dumps([started, again, read, streams])
    # A side still generating holds the vote back (its state set here: a live reply of this tiny model may end first).
    first_turn = int(GlobalID.from_id(battle["sides"][0]["turnId"]).node_id)
    ended_status = run_sql("SELECT status FROM conversation_turns WHERE id = $1", first_turn)[0]["status"]
    run_sql("UPDATE conversation_turns SET status = 'generating' WHERE id = $1", first_turn)
    early = _vote(api, author, battle["id"], "A")
    assert early["__typename"] == "ConflictError" and "every reply" in early["message"], early
    run_sql("UPDATE conversation_turns SET status = $2 WHERE id = $1", first_turn, ended_status)
    side_conversations = run_sql(
        "SELECT s.conversation FROM battle_sides s JOIN battles b ON b.id = s.battle WHERE b.client_id = $1", client_id
    )
    for row in side_conversations:
        hidden = api.errors(CONVERSATION, {"id": _gid("Conversation", row["conversation"])}, token=author)
        assert hidden[0]["extensions"]["code"] == "NOT_FOUND", hidden
    assert api.errors(READ, {"id": battle["id"]}, token=other)[0]["extensions"]["code"] == "NOT_FOUND"
    assert _vote(api, other, battle["id"], "A")["__typename"] == "NotFoundError"

    # The vote reveals the models; the same UUID again is the same answer; another vote is refused.
    vote_id = uuid.uuid4()
    voted = _vote(api, author, battle["id"], "A", vote_id)
    assert voted["__typename"] == "BattleVoted" and voted["duplicate"] is False, voted
    revealed = voted["battle"]
    assert revealed["vote"] == {"choice": "A"} and not revealed["votable"]
    first_model = revealed["sides"][0]["modelName"]
    assert {s["modelName"] for s in revealed["sides"]} == {demo, second} and all(s["modelVersion"] for s in revealed["sides"])
    assert _vote(api, author, battle["id"], "A", vote_id)["duplicate"] is True
    twice = _vote(api, author, battle["id"], "B")
    assert twice["__typename"] == "ConflictError", twice
    assert api(READ, {"id": battle["id"]}, token=author)["battle"]["sides"] == revealed["sides"]

    # A second battle of the same prompt (the only pair again), voted a tie; a third is over the daily cap of 2.
    second_battle = _start(api, author, round_id, context_id, "Tell me a very long story about the sea.")["battle"]
    _stop_every_reply(stack, api, author, second_battle)
    tied = _vote(api, author, second_battle["id"], "TIE")["battle"]
    capped = _start(api, author, round_id, context_id, "And another one?")
    assert capped["__typename"] == "RateLimitedError" and capped["retryAfterSeconds"] > 0, capped
    assert "limit of 2 battles" in capped["message"]

    # The leaderboard (anyone who sees the task) is bootstrap() of the same votes with the fixed seed; the author's
    # second vote on the same pair and prompt (the tie) is not counted again.
    assert {s["modelName"] for s in tied["sides"]} == {demo, second}
    expected = bootstrap([Battle(*[s["modelName"] for s in revealed["sides"]], "a")], rounds=1000, seed=0)
    for round_filter in (None, round_id):
        board = api(BOARD, {"c": "arena", "r": round_filter})["battleLeaderboard"]
        assert (board["votes"], board["rounds"], board["seed"]) == (1, 1000, 0)
        assert (board["ballots"], board["countedBallots"], board["flaggedVoters"], board["repeats"]) == (2, 2, 0, 1)
        assert [(p["sides"], p["label"], p["picked"], p["decisive"]) for p in board["positionBias"]] == [
            (2, "A", 1, 1),
            (2, "B", 0, 1),
        ]
        assert board["winRate"] == [list(row) for row in expected.win_rate]
        assert [m["name"] for m in board["models"]] == [m.name for m in expected.models]
        assert board["models"][0]["name"] == first_model
        for got, want in zip(board["models"], expected.models):
            assert (got["rank"], got["battles"], got["wins"], got["losses"], got["ties"], got["bothBad"]) == (
                want.rank,
                want.battles,
                want.wins,
                want.losses,
                want.ties,
                want.both_bad,
            )
            for key, value in (("rating", want.rating), ("lower", want.lower), ("upper", want.upper)):
                assert got[key] == pytest.approx(value, rel=1e-12)
            assert (got["stability"], got["topShare"]) == pytest.approx((want.stability, want.top_share), rel=1e-12)


def _rated_vote(api, token, battle_id, ratings, choice=None, client_id=None):
    variables = {"i": {"battleId": battle_id, "clientId": str(client_id or uuid.uuid4()), "choice": choice, "ratings": ratings}}
    return api(VOTE.replace("battle { ", f"battle {{ {RATED} "), variables, token=token)["voteBattle"]


def _continue(api, token, battle_id, side, client_id=None):
    variables = {"i": {"battleId": battle_id, "clientId": str(client_id or uuid.uuid4()), "side": side}}
    return api(CONTINUE, variables, token=token)["continueBattle"]


def _ended_battle(stack, api, token, round_id, context_id, text) -> dict:
    started = _start(api, token, round_id, context_id, text)
    assert started["__typename"] == "BattleStarted", started
    for side in started["battle"]["sides"]:
        assert ReplyFeed(stack, token, side["turnId"]).all()[-1]["done"]
    return started["battle"]


def test_sides_are_rated_on_the_form_and_the_preferred_one_goes_on_as_a_chat(stack, api, demos):
    demo, second = demos
    config = generative_config(max_turns=2, max_tokens=6, battle={"rating_field": "quality", "votes_per_user_per_day": 9})
    config["validator_fields"] = [{"name": "quality", "display_name": "How good is it?", "type": "rating", "scale": 5}]
    _, round_id = generative_task(api, "arena_rated", demo, config, also=(second,))
    author, other = api.sign_up("rated_author"), api.sign_up("rated_other")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    battle = _ended_battle(stack, api, author, round_id, context_id, "Name a colour.")

    # Before the vote nothing is continuable; bad ratings are InputError fields; a side rated below another is refused.
    early = _continue(api, author, battle["id"], "A")
    assert early["__typename"] == "ConflictError" and "Vote first" in early["message"], early
    for ratings, choice, field in (
        ([4], None, "ratings"),
        ([0, 6.5], None, "ratings.0"),
        (None, "A", "ratings"),
        ([2, 5], "A", "choice"),
    ):
        refused = _rated_vote(api, author, battle["id"], ratings, choice)
        assert refused["__typename"] == "InputError" and refused["fields"][0]["field"] == field, (ratings, refused)
    assert [f["field"] for f in _rated_vote(api, author, battle["id"], [0, 6.5])["fields"]] == ["ratings.0", "ratings.1"]
    # Ratings only: the side rated higher is the choice, and the only side to go on with.
    voted = _rated_vote(api, author, battle["id"], [2, 5])
    assert voted["__typename"] == "BattleVoted", voted
    assert voted["battle"]["ratingField"] == "quality" and voted["battle"]["vote"] == {"choice": "B"}
    assert [(s["rating"], s["continuable"], s["conversationId"]) for s in voted["battle"]["sides"]] == [
        (2.0, False, None),
        (5.0, True, None),
    ]

    # Only the author, only a preferred side; the same UUID (or the same side) again is the same conversation.
    assert _continue(api, other, battle["id"], "B")["__typename"] == "NotFoundError"
    for side, kind in (("A", "InputError"), ("E", "InputError")):
        refused = _continue(api, author, battle["id"], side)
        assert refused["__typename"] == kind and refused["fields"][0]["field"] == "side", refused
    client_id = uuid.uuid4()
    continued = _continue(api, author, battle["id"], "B", client_id)
    assert continued["__typename"] == "BattleContinued" and continued["duplicate"] is False, continued
    conversation = continued["conversation"]
    b_side = continued["battle"]["sides"][1]
    assert b_side["conversationId"] == conversation["id"] and continued["battle"]["sides"][0]["conversationId"] is None
    assert conversation["messagesLeft"] == 1 and [t["modelName"] for t in conversation["turns"]] == [b_side["modelName"]]
    assert _continue(api, author, battle["id"], "B", client_id)["duplicate"] is True
    assert _continue(api, author, battle["id"], "B")["duplicate"] is True
    assert _continue(api, author, battle["id"], "A", client_id)["__typename"] == "ConflictError"

    # The continued side is an ordinary conversation: readable, its next message streams and counts against the limit;
    # the battle's reply is not asked again; the other side stays sealed.
    assert api(CONVERSATION, {"id": conversation["id"]}, token=author)["conversation"]["messagesLeft"] == 1
    assert api.errors(CONVERSATION, {"id": conversation["id"]}, token=other)[0]["extensions"]["code"] == "NOT_FOUND"
    sent = send(api, author, round_id, "And another?", conversation_id=conversation["id"], context_id=context_id)
    assert sent["__typename"] == "MessageSent" and sent["turn"]["position"] == 1, sent
    end = ReplyFeed(stack, author, sent["turn"]["id"]).all()[-1]
    assert end["done"] and end["modelVersion"], end
    after = api(CONVERSATION, {"id": conversation["id"]}, token=author)["conversation"]
    assert after["messagesLeft"] == 0 and len(after["turns"]) == 2
    over = send(api, author, round_id, "One more?", conversation_id=conversation["id"], context_id=context_id)
    assert over["__typename"] == "ConflictError" and "limit of 2 messages" in over["message"], over
    sealed = run_sql(
        "SELECT s.conversation, t.id AS turn FROM battle_sides s JOIN battles b ON b.id = s.battle "
        "JOIN conversation_turns t ON t.conversation = s.conversation AND t.position = 0 WHERE b.prompt = 'Name a colour.' "
        "ORDER BY s.position"
    )
    assert api.errors(CONVERSATION, {"id": _gid("Conversation", sealed[0]["conversation"])}, token=author)
    hidden = send(api, author, round_id, "Hi A", conversation_id=_gid("Conversation", sealed[0]["conversation"]))
    assert hidden["__typename"] == "NotFoundError", hidden
    refused = api(RETRY, {"t": _gid("ConversationTurn", sealed[1]["turn"])}, token=author)["retryReply"]
    assert refused["__typename"] == "ConflictError" and "not asked again" in refused["message"], refused
    submitted = api(
        SUBMIT, {"i": {"conversationId": conversation["id"], "clientId": str(uuid.uuid4()), "modelFailed": False}}, token=author
    )
    assert submitted["submitConversation"]["__typename"] == "ExampleSubmitted", submitted

    # Equal ratings imply a tie (any tied side may go on); every side at the lowest value, both bad (none may).
    tied = _ended_battle(stack, api, author, round_id, context_id, "Name a fruit.")
    voted = _rated_vote(api, author, tied["id"], [3, 3])["battle"]
    assert voted["vote"] == {"choice": "TIE"} and [s["continuable"] for s in voted["sides"]] == [True, True]
    bad = _ended_battle(stack, api, author, round_id, context_id, "Name a tree.")
    voted = _rated_vote(api, author, bad["id"], [1, 1])["battle"]
    assert voted["vote"] == {"choice": "BOTH_BAD"} and not any(s["continuable"] for s in voted["sides"])
    after_bad = _continue(api, author, bad["id"], "A")
    assert after_bad["__typename"] == "ConflictError" and "every reply bad" in after_bad["message"], after_bad
    ratings = run_sql(
        "SELECT b.prompt, array_agg(s.rating ORDER BY s.position) AS ratings FROM battles b "
        "JOIN battle_sides s ON s.battle = b.id WHERE b.prompt LIKE 'Name a %' GROUP BY b.prompt ORDER BY b.prompt"
    )
    assert [(r["prompt"], r["ratings"]) for r in ratings] == [
        ("Name a colour.", [2.0, 5.0]),
        ("Name a fruit.", [3.0, 3.0]),
        ("Name a tree.", [1.0, 1.0]),
    ]


def _gid(type_name: str, pk: int) -> str:
    from strawberry.relay import to_base64

    return to_base64(type_name, pk)
