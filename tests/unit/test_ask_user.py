"""fooling `ask_user` (docs/design.md §4.1): the config rule, the verdict left to the annotator, and when a claim
may be stored. Pure code."""

import copy
import uuid

import pytest

from server.annotation.examples.judging import status_after_verdict, verdict_of
from server.annotation.fooling import annotator_decides, fooled, model_is_wrong
from server.annotation.fooling_claims import ACCEPT, REFUSED, REPEAT, check_claim, claim_message
from server.annotation.records import ExampleStatus, Verdict
from server.tasks.builtin import BUILTIN_TASKS
from server.tasks.config import TaskConfig, parse_task_config

SENTIMENT = BUILTIN_TASKS[0]["config"]
QA = next(t for t in BUILTIN_TASKS if t["code"] == "qa")["config"]


def _with_fooling(document, **fooling):
    document = copy.deepcopy(document)
    document["fooling"] = fooling
    return document


def _config(document, **validation):
    config, errors = parse_task_config({**document, "validation": validation} if validation else document)
    assert errors == []
    return config


@pytest.mark.parametrize("document", [SENTIMENT, QA], ids=["classification", "extractive_qa"])
def test_ask_user_is_allowed_for_every_task_kind(document):
    config = _config(_with_fooling(document, metric="ask_user"))
    assert annotator_decides(config)
    assert not annotator_decides(_config(document))


def test_each_kind_names_the_metrics_it_allows():
    _, errors = parse_task_config(_with_fooling(SENTIMENT, metric="string_f1"))
    assert [(e.field, e.message) for e in errors] == [("fooling.metric", "classification tasks use exact_match or ask_user")]
    _, errors = parse_task_config(_with_fooling(QA, metric="exact_match"))
    assert [(e.field, e.message) for e in errors] == [("fooling.metric", "extractive_qa tasks use string_f1 or ask_user")]
    _, errors = parse_task_config(_with_fooling(QA, metric="ask_users"))
    assert [e.field for e in errors] == ["fooling.metric"]


def test_the_annotator_decides_not_the_metric():
    config = _config(_with_fooling(SENTIMENT, metric="ask_user"))
    assert fooled(config, "positive", [{"label": "negative"}]) is None
    assert fooled(config, "positive", [{"label": "positive"}, {"label": "negative"}]) is None
    with pytest.raises(ValueError):
        model_is_wrong(config, "positive", {"label": "negative"})
    with pytest.raises(ValueError):
        fooled(config, "positive", [])  # still: no answer, nothing to show the annotator
    metric = TaskConfig.model_validate(SENTIMENT)
    assert fooled(metric, "positive", [{"label": "negative"}]) is True


def test_status_and_verdict_after_the_model_answered():
    ask = _config(_with_fooling(SENTIMENT, metric="ask_user"))
    metric = _config(SENTIMENT)
    # ask_user: the model answered → the author's claim is awaited; not answered → pending, like any task.
    assert status_after_verdict(ask, None, answered=True) == ExampleStatus.AWAITING_CLAIM
    assert status_after_verdict(ask, None, answered=False) == ExampleStatus.PENDING
    assert status_after_verdict(metric, None, answered=True) == ExampleStatus.PENDING
    # The claim then decides like a metric's verdict.
    assert status_after_verdict(ask, True) == ExampleStatus.OPEN
    assert status_after_verdict(ask, False) == ExampleStatus.CLOSED
    validating = _config(_with_fooling(SENTIMENT, metric="ask_user"), validate_non_fooling=True)
    assert status_after_verdict(validating, False) == ExampleStatus.OPEN
    assert verdict_of(None, ExampleStatus.AWAITING_CLAIM) == Verdict.AWAITING_CLAIM
    assert verdict_of(None, ExampleStatus.PENDING) == Verdict.PENDING
    assert verdict_of(True, ExampleStatus.OPEN) == Verdict.FOOLED
    assert verdict_of(False, ExampleStatus.CLOSED) == Verdict.NOT_FOOLED


CLIENT = uuid.UUID("6a0f2b34-57a0-4c3e-9d51-0d1c2f3e4a5b")
OTHER = uuid.UUID("0b8e4f7a-3c0e-4a3a-9a57-2b1f3e4d5c6a")


def _example(status=ExampleStatus.AWAITING_CLAIM, retracted=False, claim=None):
    return {"status": status, "retracted": retracted, "claim_client_id": claim}


@pytest.mark.parametrize(
    "example, outcome, message",
    [
        (_example(), ACCEPT, ""),
        # A retried claim (a lost reply) answers from the stored one, whatever happened since.
        (_example(ExampleStatus.OPEN, claim=CLIENT), REPEAT, ""),
        (_example(ExampleStatus.VALIDATED, retracted=True, claim=CLIENT), REPEAT, ""),
        (_example(ExampleStatus.OPEN, claim=OTHER), REFUSED, "You have already said whether the model got this example wrong."),
        (_example(retracted=True), REFUSED, "This example was retracted."),
        (
            _example(ExampleStatus.PENDING),
            REFUSED,
            "The model has not answered yet: say whether it got it wrong once its answer is shown.",
        ),
        (_example(ExampleStatus.OPEN), REFUSED, "The task's metric judged this example: there is nothing to claim."),
        (_example(ExampleStatus.CLOSED), REFUSED, "The task's metric judged this example: there is nothing to claim."),
    ],
)
def test_when_a_claim_may_be_stored(example, outcome, message):
    check = check_claim(example, CLIENT)
    assert (check.outcome, check.message) == (outcome, message)


def test_what_the_author_reads_about_a_claim():
    assert claim_message(False, ExampleStatus.CLOSED) == "Noted: the model got it right. Try again?"
    assert "once validators confirm" in claim_message(True, ExampleStatus.OPEN)
    assert claim_message(True, ExampleStatus.VALIDATED) == "Validators confirmed it: you fooled the model!"
    assert claim_message(True, ExampleStatus.REJECTED) == "Validators did not confirm that the model got it wrong."
