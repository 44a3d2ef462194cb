"""Crowd campaigns through GraphQL: owners' settings, the join flow (Prolific, MTurk, open), quotas at the write."""

import uuid
from concurrent.futures import ThreadPoolExecutor

from tests.api.campaigns_helpers import (
    CONSENT,
    CREATE,
    FINISH,
    PROLIFIC_PID,
    QUIZ,
    UPDATE,
    WORK,
    campaign_input,
    crowd_users,
    join,
    owner_world,
    prolific_params,
    worker_through_quiz,
)
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, submit
from tests.conftest import run_sql, seed_builtin_tasks


def test_create_and_update_report_every_bad_field_and_write_nothing(api, admin_token):
    seed_builtin_tasks()
    bad = campaign_input(
        title="",
        roundNumber=99,
        completionCode="has space",
        failureCode="",
        completionRedirect="http://insecure.example",
        baseCents=-5,
        quotas={"examplesPerDay": -1},
        quiz={"questions": [{"prompt": "Q", "choices": ["a", "b"], "answer": "c"}], "passMark": 3, "attempts": 1},
        currency="pounds",
    )
    result = api(CREATE, {"t": "sentiment", "i": bad}, token=admin_token)["createCampaign"]
    assert result["__typename"] == "InputError", result
    fields = {f["field"] for f in result["fields"]}
    assert {"title", "roundNumber", "completionCode", "failureCode", "completionRedirect", "currency"} <= fields
    assert {"pay.basePay", "quotas.examplesPerDay", "quiz.questions.0.answer", "quiz.passMark"} <= fields
    assert run_sql("SELECT count(*) AS n FROM campaigns")[0]["n"] == 0

    author = api.sign_up("someone")
    refused = api(CREATE, {"t": "sentiment", "i": campaign_input()}, token=author)["createCampaign"]
    assert refused["__typename"] == "PermissionError"

    campaign = owner_world(api, admin_token, status="DRAFT")
    assert "<script>" not in campaign["consentHtml"] and "<strong>examples</strong>" in campaign["consentHtml"]
    assert len(campaign["code"]) >= 16
    changed = api(UPDATE, {"c": campaign["id"], "i": {"title": "Renamed", "status": "OPEN"}}, token=admin_token)
    assert changed["updateCampaign"]["campaign"] == {"id": campaign["id"], "status": "OPEN", "title": "Renamed"}
    invalid = api(UPDATE, {"c": campaign["id"], "i": {"failureCode": "C1ABCDEF"}}, token=admin_token)["updateCampaign"]
    assert invalid["__typename"] == "InputError" and invalid["fields"][0]["field"] == "failureCode"
    other = api(UPDATE, {"c": campaign["id"], "i": {"title": "Mine"}}, token=author)["updateCampaign"]
    assert other["__typename"] == "PermissionError"


def test_prolific_join_consent_quiz_quota_finish(api, admin_token, target_models):
    campaign = owner_world(api, admin_token)
    page = api("query($c: String!) { campaignByCode(code: $c) { title consentHtml quiz { id prompt choices } } }",
               {"c": campaign["code"]})["campaignByCode"]  # fmt: skip
    assert page["title"] == "Fool the sentiment model" and len(page["quiz"]) == 2
    answers_leak = api.errors("query($c: String!) { campaignByCode(code: $c) { quiz { answer } } }", {"c": campaign["code"]})
    assert answers_leak, "the public page must not have the quiz's answers"

    joined = join(api, campaign["code"], prolific_params())
    assert joined["__typename"] == "CampaignJoined", joined
    token, state = joined["token"], joined["state"]
    assert state["stage"] == "CONSENT" and state["examplesLeft"] == 2 and state["quizAttemptsLeft"] == 2
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]["id"]
    early = submit(api, token, round_id, context_id, {"statement": "Too early."}, label="positive")
    assert early["__typename"] == "ConflictError" and "consent" in early["message"]

    assert api(CONSENT, {"c": campaign["id"]}, token=token)["giveConsent"]["state"]["stage"] == "QUIZ"
    wrong = [{"questionId": "q1", "answer": "negative"}, {"questionId": "q2", "answer": "negative"}]
    failed = api(QUIZ, {"c": campaign["id"], "a": wrong}, token=token)["submitQuiz"]
    assert failed["passed"] is False and failed["score"] == 1 and failed["attemptsLeft"] == 1
    assert failed["state"]["stage"] == "QUIZ" and failed["completion"] is None
    right = [{"questionId": "q1", "answer": " Positive "}, {"questionId": "q2", "answer": "negative"}]
    passed = api(QUIZ, {"c": campaign["id"], "a": right}, token=token)["submitQuiz"]
    assert passed["passed"] is True and passed["state"]["stage"] == "WORK"

    for i in range(2):
        written = submit(api, token, round_id, context_id, {"statement": f"Campaign review {i}."}, label="positive")
        assert written["__typename"] == "ExampleSubmitted", written
    refused = submit(api, token, round_id, context_id, {"statement": "One too many."}, label="positive")
    assert refused["__typename"] == "ConflictError" and refused["code"] == "QUOTA_REACHED", refused
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 2
    work = api(WORK, {"c": campaign["id"]}, token=token)["myCampaignWork"]
    assert work["examplesLeft"] == 0 and work["stage"] == "WORK"

    finished = api(FINISH, {"c": campaign["id"]}, token=token)["finishCampaign"]
    assert finished["completion"] == {
        "code": "C1ABCDEF",
        "screenedOut": False,
        "method": "GET",
        "url": "https://app.prolific.com/submissions/complete?cc=C1ABCDEF",
        "fields": [],
    }
    assert finished["state"]["stage"] == "DONE"
    again = join(api, campaign["code"], prolific_params())  # the same worker comes back: the same account
    assert again["state"]["stage"] == "DONE" and crowd_users() == 1
    stored = run_sql("SELECT external_key FROM campaign_workers")[0]["external_key"]
    assert PROLIFIC_PID not in stored and len(stored) == 64


def test_failing_the_quiz_for_good_ends_politely_with_the_screened_out_code(api, admin_token):
    campaign = owner_world(api, admin_token, quiz={
        "questions": [{"prompt": "Pick a", "choices": ["a", "b"], "answer": "a"}], "passMark": 1, "attempts": 1})  # fmt: skip
    token = join(api, campaign["code"], prolific_params())["token"]
    api(CONSENT, {"c": campaign["id"]}, token=token)
    failed = api(QUIZ, {"c": campaign["id"], "a": [{"questionId": "q1", "answer": "b"}]}, token=token)["submitQuiz"]
    assert failed["state"]["stage"] == "SCREENED_OUT"
    assert failed["completion"]["code"] == "SCREENED1" and failed["completion"]["url"].endswith("cc=SCREENED1")
    again = api(QUIZ, {"c": campaign["id"], "a": [{"questionId": "q1", "answer": "a"}]}, token=token)["submitQuiz"]
    assert again["__typename"] == "ConflictError"


def test_mturk_preview_creates_nothing_and_a_real_join_gets_the_submit_form(api, admin_token):
    campaign = owner_world(api, admin_token, platform="MTURK", quiz=None)
    preview = join(api, campaign["code"], query="assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=3HIT")
    assert preview["__typename"] == "CampaignPreview" and preview["campaign"]["platform"] == "MTURK"
    assert crowd_users() == 0
    query = "workerId=A1WORKER&assignmentId=3ASSIGN&hitId=3HIT&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com"
    joined = join(api, campaign["code"], query=query)
    assert joined["__typename"] == "CampaignJoined" and joined["state"]["stage"] == "CONSENT"
    token = joined["token"]
    api(CONSENT, {"c": campaign["id"]}, token=token)
    finished = api(FINISH, {"c": campaign["id"]}, token=token)["finishCampaign"]["completion"]
    assert finished["method"] == "POST" and finished["url"] == "https://workersandbox.mturk.com/mturk/externalSubmit"
    assert finished["fields"] == [{"name": "assignmentId", "value": "3ASSIGN"}, {"name": "completionCode", "value": "C1ABCDEF"}]
    evil = join(api, campaign["code"], query=query.replace("workersandbox.mturk.com", "evil.example"))
    assert evil["__typename"] == "InputError" and crowd_users() == 1


def test_hostile_joins_are_refused_and_write_nothing(api, admin_token):
    campaign = owner_world(api, admin_token)
    # A code one character off the real one (its last character changed: a code that ends in "Z" gets "Y").
    near = campaign["code"][:-1] + ("Y" if campaign["code"].endswith("Z") else "Z")
    for code in ("nope", "x" * 5000, near, "'; DROP TABLE users; --"):
        assert join(api, code, prolific_params())["__typename"] == "NotFoundError"
    for params in (
        prolific_params("not-hex"),
        prolific_params("a" * 500),
        prolific_params()[:2],
        [*prolific_params(), {"name": "PROLIFIC_PID", "value": "5e9088a8a4b6ed018b45ba7c"}],
        [{"name": "p", "value": "v"}] * 60,
    ):
        refused = join(api, campaign["code"], params)
        assert refused["__typename"] == "InputError", refused
    assert join(api, campaign["code"], query="PROLIFIC_PID=" + "a" * 5000)["__typename"] == "InputError"
    assert crowd_users() == 0
    outsider = api.sign_up("outsider")
    assert api(CONSENT, {"c": campaign["id"]}, token=outsider)["giveConsent"]["__typename"] == "NotFoundError"
    closed = owner_world(api, admin_token, status="CLOSED")
    assert join(api, closed["code"], prolific_params())["__typename"] == "ConflictError"


def test_ten_concurrent_joins_of_one_worker_make_one_account(api, admin_token):
    campaign = owner_world(api, admin_token)
    with ThreadPoolExecutor(10) as pool:
        results = list(pool.map(lambda _: join(api, campaign["code"], prolific_params(), client_id=uuid.uuid4()), range(10)))
    assert {r["__typename"] for r in results} == {"CampaignJoined"}
    assert crowd_users() == 1 and run_sql("SELECT count(*) AS n FROM campaign_workers")[0]["n"] == 1
    users = {api("{ me { username } }", token=r["token"])["me"]["username"] for r in results}
    assert len(users) == 1


def test_concurrent_examples_at_quota_minus_one_accept_exactly_one(api, admin_token, target_models):
    campaign = owner_world(api, admin_token, quotas={"examplesPerCampaign": 2})
    token = worker_through_quiz(api, campaign)
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=token)["nextContext"]["id"]
    assert submit(api, token, round_id, context_id, {"statement": "First."}, label="positive")["__typename"] == "ExampleSubmitted"
    with ThreadPoolExecutor(6) as pool:
        results = list(
            pool.map(
                lambda i: submit(api, token, round_id, context_id, {"statement": f"Racing {i}."}, label="positive"), range(6)
            )
        )
    kinds = sorted(r["__typename"] for r in results)
    assert kinds.count("ExampleSubmitted") == 1, results
    assert all(r.get("code") == "QUOTA_REACHED" for r in results if r["__typename"] != "ExampleSubmitted")
    assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 2
