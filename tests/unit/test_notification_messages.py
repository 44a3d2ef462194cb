"""What notifications say, from their kind and facts (server/notifications/messages.py, pure)."""

from server.notifications.messages import excerpt, message
from server.notifications.records import NotificationKind as K


def test_model_kinds_name_the_model_and_carry_the_status_message():
    data = {"model_id": 12, "name": "my model", "message": "Smoke test passed on 4 examples."}
    assert message(K.MODEL_DEPLOYED, data) == ("Model “my model” deployed", "Smoke test passed on 4 examples.", "/models/12")
    assert message(K.MODEL_SCORED, {"model_id": 3, "name": "m"}).body == "Its scores are on the leaderboard."
    assert message(K.MODEL_FAILED, {"model_id": 3, "name": "m", "message": "boom"}).title == "Model “m” failed"
    assert message(K.MODEL_TAKEN_DOWN, {"model_id": 3, "name": "m", "message": "licence"}).body == "licence"
    assert message(K.MODEL_FAILED, {}).link == "/models"


def test_examples_badges_and_tasks():
    data = {"task_name": "Sentiment analysis", "excerpt": "It was fine."}
    assert message(K.EXAMPLE_VALIDATED, data) == (
        "Your example for Sentiment analysis was validated",
        "“It was fine.”",
        "/examples",
    )
    assert message(K.EXAMPLE_REJECTED, {"task_code": "nli"}).title == "Your example for nli was rejected"
    badge = message(K.BADGE_EARNED, {"badge": "3-day streak", "description": "Active on X 3 days in a row"})
    assert badge.title == "Badge earned: 3-day streak" and badge.body == "Active on X 3 days in a row"
    task = message(K.TASK_APPROVED, {"task_code": "qa2", "task_name": "QA 2", "note": "Welcome"})
    assert task == ("Your task QA 2 was approved", "Welcome", "/owner/qa2")
    assert message(K.TASK_REJECTED, {"task_code": "qa2"}).title == "Your task qa2 was rejected"


def test_unknown_kinds_still_read_as_something():
    assert message("future_kind", {"message": "hi"}) == ("Future kind", "hi", "/")


def test_excerpt_is_one_short_line():
    assert excerpt("  a\nb\tc  ") == "a b c"
    long = excerpt("word " * 100)
    assert len(long) == 80 and long.endswith("…")
