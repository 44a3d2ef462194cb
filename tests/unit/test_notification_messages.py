"""What notifications say, from their kind and facts (server/notifications/messages.py, pure)."""

from server.core.i18n import tr, translate
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


def test_each_reader_gets_the_words_in_their_language():
    data = {"task_name": "Sentiment analysis", "excerpt": "It was fine."}
    validated = message(K.EXAMPLE_VALIDATED, data)
    assert translate(validated.title, "es") == "Tu ejemplo para Sentiment analysis fue validado"
    assert translate(validated.body, "fr") == "« It was fine. »"
    assert translate(message(K.MODEL_DEPLOYED, {}).title, "fr") == "Modèle « votre modèle » déployé"


def test_a_badge_is_worded_again_from_its_rule_and_an_older_entry_as_stored():
    stored = {"task_name": "X", "badge": "14-day streak", "description": "Active on X 14 days in a row"}
    with_rule = message(K.BADGE_EARNED, {**stored, "rule": ["streak", 14]})
    assert (with_rule.title, with_rule.body) == ("Badge earned: 14-day streak", "Active on X 14 days in a row")
    assert translate(with_rule.title, "ar") == translate(tr("Badge earned: {badge}", badge="سلسلة 14 يومًا"), "ar")
    assert translate(with_rule.body, "es") == "Activo en X 14 días seguidos"
    # Without a rule, or with one that does not match the stored name, the stored words (English) are kept.
    for data in (stored, {**stored, "rule": ["streak", 7]}, {**stored, "rule": ["bogus", 14]}, {**stored, "rule": "x"}):
        kept = message(K.BADGE_EARNED, data)
        assert translate(kept.body, "es") == "Active on X 14 days in a row"
