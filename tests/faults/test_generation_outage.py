"""A stream cut mid-answer (issue #30 point 6): the target Triton is killed while a reply is streaming. The reply ends
FAILED with the text streamed so far kept (in the stream and in the row), nothing else is lost, and once Triton is
back the reply is asked again; the cut attempt stays with the turn."""

import os
import signal

from tests.api.conversations_helpers import CONVERSATION, ReplyFeed, generative_config, generative_task, send
from tests.conftest import target_triton_stopped

RETRY = """mutation($t: ID!) { retryReply(turnId: $t) { __typename
  ... on ReplyChanged { turn { status attempts { reply status error } } } ... on Error { code message } } }"""


def test_a_reply_cut_by_a_triton_outage_keeps_its_text_and_can_be_asked_again(stack, api, target_models):
    demo = target_models["chat_demo"]
    # A long reply: sampled, no stop string it would write, the contract's most tokens.
    _owner, round_id = generative_task(api, "redcut", demo, generative_config(max_tokens=1024, min_tokens=1000, temperature=1.0))
    author = api.sign_up("cut_author")
    sent = send(api, author, round_id, "Tell me a very long story about a lighthouse keeper.")
    assert sent["__typename"] == "MessageSent", sent
    turn_id = sent["turn"]["id"]
    feed = ReplyFeed(stack, author, turn_id)
    first = feed.next()
    assert first is not None and first["text"] and not first["done"], first
    with target_triton_stopped(stack, kill=lambda: os.kill(stack.triton.pid, signal.SIGKILL)):  # a crash: no draining
        chunks = [first, *feed.all()]
        end = chunks[-1]
        assert end["done"] and end["status"] == "FAILED" and end["error"], end
        streamed = "".join(c["text"] for c in chunks)
        assert streamed.strip()
        conversation = api(CONVERSATION, {"id": sent["conversation"]["id"]}, token=author)["conversation"]
        (turn,) = conversation["turns"]
        assert turn["status"] == "FAILED" and turn["reply"] == streamed and turn["error"] == end["error"]
    retried = api(RETRY, {"t": turn_id}, token=author)["retryReply"]
    assert retried["__typename"] == "ReplyChanged", retried
    assert retried["turn"]["attempts"] == [{"reply": streamed, "status": "FAILED", "error": end["error"]}]
    again = ReplyFeed(stack, author, turn_id).all()
    assert again[-1]["done"] and again[-1]["status"] == "DONE" and "".join(c["text"] for c in again).strip(), again[-1]
