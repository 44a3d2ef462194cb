"""Shared GraphQL snippets and helpers for the crowd campaign tests."""

import uuid

from tests.conftest import run_sql, seed_builtin_tasks

ERR = "... on InputError { message fields { field message } } ... on Error { code message }"
STATE = """stage quizAttemptsLeft examplesLeft validationsLeft quotaDone earnedCents pendingCents currency
           campaign { id title quiz { id prompt choices } }"""
CREATE = f"""mutation($t: String!, $i: CampaignInput!) {{ createCampaign(taskCode: $t, input: $i) {{ __typename
  ... on CampaignSaved {{ campaign {{ id code status platform consentHtml quiz {{ id answer }} }} }} {ERR} }} }}"""
UPDATE = f"""mutation($c: ID!, $i: CampaignInput!) {{ updateCampaign(campaignId: $c, input: $i) {{ __typename
  ... on CampaignSaved {{ campaign {{ id status title }} }} {ERR} }} }}"""
JOIN = f"""mutation($i: JoinCampaignInput!) {{ joinCampaign(input: $i) {{ __typename
  ... on CampaignJoined {{ token state {{ {STATE} }} }}
  ... on CampaignPreview {{ campaign {{ title platform consentHtml }} }} {ERR} }} }}"""
CONSENT = f"""mutation($c: ID!) {{ giveConsent(campaignId: $c) {{ __typename ... on ConsentGiven {{ state {{ {STATE} }} }}
  {ERR} }} }}"""
QUIZ = f"""mutation($c: ID!, $a: [QuizAnswer!]!) {{ submitQuiz(campaignId: $c, answers: $a) {{ __typename
  ... on QuizGraded {{ passed score total attemptsLeft state {{ {STATE} }} completion {{ code url method }} }} {ERR} }} }}"""
FINISH = f"""mutation($c: ID!) {{ finishCampaign(campaignId: $c) {{ __typename
  ... on CampaignFinished {{ completion {{ code screenedOut method url fields {{ name value }} }} state {{ {STATE} }} }}
  {ERR} }} }}"""
WORK = f"query($c: ID!) {{ myCampaignWork(campaignId: $c) {{ {STATE} }} }}"

PROLIFIC_PID = "5e9088a8a4b6ed018b45ba7b"
STUDY = "60aaaaaaaaaaaaaaaaaaaaaa"
SESSION = "61bbbbbbbbbbbbbbbbbbbbbb"


def campaign_input(**overrides) -> dict:
    values = {
        "platform": "PROLIFIC",
        "title": "Fool the sentiment model",
        "status": "OPEN",
        "consent": "# Consent\n\nYou agree that your **examples** are published. <script>alert(1)</script>",
        "instructions": "Write reviews the model gets wrong.",
        "quiz": {
            "questions": [
                {"prompt": "'A delight from start to finish.' is…", "choices": ["positive", "negative"], "answer": "positive"},
                {"prompt": "'A dreary, joyless slog.' is…", "choices": ["positive", "negative"], "answer": "negative"},
            ],
            "passMark": 2,
            "attempts": 2,
        },
        "quotas": {"examplesPerCampaign": 2},
        "currency": "GBP",
        "baseCents": 100,
        "foolingBonusCents": 50,
        "agreementBonusCents": 10,
        "completionCode": "C1ABCDEF",
        "failureCode": "SCREENED1",
    }
    values.update(overrides)
    return values


def owner_world(api, admin_token, **overrides) -> dict:
    seed_builtin_tasks()
    result = api(CREATE, {"t": "sentiment", "i": campaign_input(**overrides)}, token=admin_token)["createCampaign"]
    assert result["__typename"] == "CampaignSaved", result
    return result["campaign"]


def prolific_params(pid: str = PROLIFIC_PID) -> list[dict]:
    return [
        {"name": "PROLIFIC_PID", "value": pid},
        {"name": "STUDY_ID", "value": STUDY},
        {"name": "SESSION_ID", "value": SESSION},
    ]


def join(api, code: str, params=None, query=None, client_id=None) -> dict:
    variables = {"i": {"code": code, "params": params, "query": query, "clientId": str(client_id or uuid.uuid4())}}
    return api(JOIN, variables)["joinCampaign"]


def worker_through_quiz(api, campaign: dict, pid: str = PROLIFIC_PID) -> str:
    joined = join(api, campaign["code"], prolific_params(pid))
    assert joined["__typename"] == "CampaignJoined", joined
    token = joined["token"]
    assert api(CONSENT, {"c": campaign["id"]}, token=token)["giveConsent"]["__typename"] == "ConsentGiven"
    right = [{"questionId": "q1", "answer": "positive"}, {"questionId": "q2", "answer": "negative"}]
    assert api(QUIZ, {"c": campaign["id"], "a": right}, token=token)["submitQuiz"]["passed"] is True
    return token


def crowd_users() -> int:
    return run_sql("SELECT count(*) AS n FROM users WHERE username LIKE 'crowd-%'")[0]["n"]
