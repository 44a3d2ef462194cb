"""Generative tasks end to end through GraphQL (issue #30): a message to the built-in demo model streams its reply
through replyStream as Triton produces it; the conversation is stored turn by turn and, submitted, becomes an
example with its transcript, the exact model and version and the generation parameters."""

import uuid

import pytest

from tests.api.conversations_helpers import CONVERSATION, SUBMIT, ReplyFeed, generative_config, generative_task, send
from tests.api.examples_helpers import NEXT_CONTEXT, submit


@pytest.fixture(scope="module")
def demo(target_models) -> str:
    return target_models["chat_demo"]


def test_a_reply_streams_in_pieces_and_the_conversation_becomes_an_example(stack, api, demo):
    _owner, round_id = generative_task(api, "redteam", demo)
    author = api.sign_up("red_author")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    client_id = uuid.uuid4()
    sent = send(api, author, round_id, "What is the capital of France?", client_id=client_id, context_id=context_id)
    assert sent["__typename"] == "MessageSent", sent
    assert sent["turn"]["status"] == "GENERATING" and sent["duplicate"] is False
    assert sent["conversation"]["targetModel"] == demo and sent["conversation"]["messagesLeft"] == 2
    assert sent["conversation"]["params"]["max_tokens"] == 24
    chunks = ReplyFeed(stack, author, sent["turn"]["id"]).all()
    pieces, end = chunks[:-1], chunks[-1]
    assert end["done"] is True and end["status"] == "DONE", end
    assert pieces and all(not c["done"] and c["status"] == "GENERATING" for c in pieces)
    streamed = "".join(c["text"] for c in pieces)
    conversation_id = sent["conversation"]["id"]
    stored = api(CONVERSATION, {"id": conversation_id}, token=author)["conversation"]
    (turn,) = stored["turns"]
    assert turn["reply"] == streamed and turn["status"] == "DONE" and turn["modelName"] == demo and turn["modelVersion"]

    # The same client UUID again: the same turn, nothing asked again.
    again = send(api, author, round_id, "What is the capital of France?", client_id=client_id, context_id=context_id)
    assert again["duplicate"] is True and again["turn"]["id"] == sent["turn"]["id"]

    # A late subscriber reads the whole reply at once, then its end.
    late = ReplyFeed(stack, author, sent["turn"]["id"]).all()
    assert "".join(c["text"] for c in late) == streamed and late[-1]["done"]

    second = send(api, author, round_id, "Are you sure?", conversation_id=conversation_id, context_id=context_id)
    assert second["__typename"] == "MessageSent", second
    assert ReplyFeed(stack, author, second["turn"]["id"]).all()[-1]["status"] == "DONE"

    submitted = api(
        SUBMIT,
        {
            "i": {
                "conversationId": conversation_id,
                "clientId": str(uuid.uuid4()),
                "categories": ["false_fact"],
                "modelFailed": True,
                "explanation": "It named the wrong city.",
            }
        },
        token=author,
    )["submitConversation"]
    assert submitted["__typename"] == "ExampleSubmitted", submitted
    example = submitted["example"]
    assert submitted["verdict"] == "FOOLED" and example["fooled"] is True and example["status"] == "open"
    messages = example["input"]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "assistant"]
    assert "You are a helpful assistant." in messages[0]["content"] and "European capitals" in messages[0]["content"]
    assert messages[2]["content"] == streamed and example["input"]["categories"] == ["false_fact"]
    assert example["modelName"] == demo and example["modelVersion"] == turn["modelVersion"]
    assert example["modelOutput"]["params"]["max_tokens"] == 24 and example["modelOutput"]["params"]["temperature"] == 0.0

    # The round's attack success: per target and per category (the claim counts; validators have not confirmed it).
    stats = api(
        "query($r: ID!) { node(id: $r) { ... on Round { attackSuccess { grouping key collected fooled asr validatedAsr } } } }",
        {"r": round_id},
    )["node"]["attackSuccess"]
    assert stats == [
        {"grouping": "target", "key": demo, "collected": 1, "fooled": 1, "asr": 1.0, "validatedAsr": 0.0},
        {"grouping": "category", "key": "false_fact", "collected": 1, "fooled": 1, "asr": 1.0, "validatedAsr": 0.0},
    ]

    # Submitted: no more messages, no second submission under another UUID.
    closed = send(api, author, round_id, "One more?", conversation_id=conversation_id, context_id=context_id)
    assert closed["__typename"] == "ConflictError", closed
    twice = api(SUBMIT, {"i": {"conversationId": conversation_id, "clientId": str(uuid.uuid4())}}, token=author)
    assert twice["submitConversation"]["__typename"] == "ConflictError"


def test_messages_are_checked_and_conversations_are_their_authors_alone(stack, api, demo):
    _owner, round_id = generative_task(api, "redcheck", demo, generative_config(max_turns=1))
    author, other = api.sign_up("check_author"), api.sign_up("check_other")
    empty = send(api, author, round_id, "   ")
    assert empty["__typename"] == "InputError" and empty["fields"][0]["field"] == "message", empty
    too_long = send(api, author, round_id, "x" * 2001)
    assert too_long["__typename"] == "InputError" and "2000" in too_long["fields"][0]["message"], too_long
    sent = send(api, author, round_id, "Hello there")
    assert sent["__typename"] == "MessageSent", sent
    ReplyFeed(stack, author, sent["turn"]["id"]).all()
    conversation_id = sent["conversation"]["id"]
    limit = send(api, author, round_id, "Again", conversation_id=conversation_id)
    assert limit["__typename"] == "ConflictError" and "limit of 1" in limit["message"], limit

    # Someone else's conversation does not exist for them, nor does its reply's stream.
    stranger = api.errors(CONVERSATION, {"id": conversation_id}, token=other)
    assert stranger[0]["extensions"]["code"] == "NOT_FOUND", stranger
    theirs = send(api, other, round_id, "Hi", conversation_id=conversation_id)
    assert theirs["__typename"] == "NotFoundError", theirs
    feed = ReplyFeed(stack, other, sent["turn"]["id"])
    refused = feed.next()
    feed.close()
    assert refused is not None and refused["errors"][0]["extensions"]["code"] == "NOT_FOUND", refused

    # A generative round takes conversations, not written examples.
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    written = submit(api, author, round_id, context_id, {"statement": "hi"}, label="positive")
    assert written["__typename"] == "InputError" and "conversations" in written["message"], written


def test_stopping_a_reply_keeps_its_text_and_it_can_be_asked_again(stack, api, demo):
    config = generative_config(max_tokens=1024, min_tokens=1000, temperature=1.0)
    _owner, round_id = generative_task(api, "redstop", demo, config)
    author = api.sign_up("stop_author")
    sent = send(api, author, round_id, "Tell me a very long story about the sea.")
    feed = ReplyFeed(stack, author, sent["turn"]["id"])
    first = feed.next()
    assert first is not None and not first["done"], first
    stopped = api(
        "mutation($t: ID!) { stopReply(turnId: $t) { __typename ... on ReplyChanged { turn { id } } } }",
        {"t": sent["turn"]["id"]},
        token=author,
    )
    assert stopped["stopReply"]["__typename"] == "ReplyChanged"
    chunks = [first, *feed.all()]
    assert chunks[-1]["done"] and chunks[-1]["status"] == "STOPPED", chunks[-1]
    text = "".join(c["text"] for c in chunks)
    conversation = api(CONVERSATION, {"id": sent["conversation"]["id"]}, token=author)["conversation"]
    assert conversation["turns"][0]["reply"] == text and conversation["turns"][0]["status"] == "STOPPED"

    retried = api(
        "mutation($t: ID!) { retryReply(turnId: $t) { __typename ... on ReplyChanged { turn { id status attempts { reply status } } } "
        "... on Error { code message } } }",
        {"t": sent["turn"]["id"]},
        token=author,
    )["retryReply"]
    assert retried["__typename"] == "ReplyChanged", retried
    assert retried["turn"]["status"] == "GENERATING"
    assert retried["turn"]["attempts"] == [{"reply": text, "status": "STOPPED"}]
    api("mutation($t: ID!) { stopReply(turnId: $t) { __typename } }", {"t": sent["turn"]["id"]}, token=author)
    assert ReplyFeed(stack, author, sent["turn"]["id"]).all()[-1]["done"]


def test_a_generative_target_is_not_retrained_from_conversations(api, demo, admin_token):
    generative_task(api, "redtrain", demo)
    refused = api(
        """mutation { trainTargetModel(taskCode: "redtrain", fromRounds: [1], profile: FAST) {
          __typename ... on InputError { fields { field message } } } }""",
        token=admin_token,
    )["trainTargetModel"]
    assert refused["__typename"] == "InputError", refused
    assert refused["fields"] == [
        {
            "field": "taskCode",
            "message": "retraining a generative target from its conversations is not supported yet; point a round at another model",
        }
    ]
