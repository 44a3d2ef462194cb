"""Authorization matrix, crowd campaigns (see matrix.py and world.py). The campaign is on the main task (owned by
task_owner); the annotator's account is made a worker of it (consented, with a quiz of ten attempts), so worker
operations have an allowed cell; every other signed-in principal is not a worker there and gets NOT_FOUND."""

import uuid

import pytest

from tests.authz.matrix import Op, cells, holds, run_cell
from tests.authz.world import MAIN_TASK
from tests.conftest import run_sql

ERR = "... on Error { code message }"
INPUT = {
    "platform": "PROLIFIC", "title": "Matrix campaign", "status": "OPEN", "consent": "I agree.",
    "quiz": {"questions": [{"prompt": "Pick a", "choices": ["a", "b"], "answer": "a"}], "passMark": 1, "attempts": 10},
    "completionCode": "MXDONE01", "failureCode": "MXFAIL01",
}  # fmt: skip
PID = [{"name": n, "value": v} for n, v in (("PROLIFIC_PID", "5e9088a8a4b6ed018b45ba7b"), ("STUDY_ID", "6" * 24),
                                            ("SESSION_ID", "7" * 24))]  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def campaign(world):
    created = world.api(
        f"mutation($t: String!, $i: CampaignInput!) {{ createCampaign(taskCode: $t, input: $i) {{ __typename "
        f"... on CampaignSaved {{ campaign {{ id code }} }} {ERR} }} }}",
        {"t": MAIN_TASK, "i": INPUT},
        token=world.bearer["admin"],
    )["createCampaign"]["campaign"]
    world.ids["campaign_gid"], world.ids["campaign_code"] = created["id"], created["code"]
    pk = run_sql("SELECT id FROM campaigns WHERE code = $1", created["code"])[0]["id"]
    run_sql(
        'INSERT INTO campaign_workers (campaign, "user", external_key, consented_at) VALUES ($1, $2, $3, now())',
        pk,
        world.user_pk["annotator"],
        "f" * 64,
    )
    return created


def _c(world, principal):
    return {"c": world.ids["campaign_gid"]}


def _campaign_rows(world, variables):
    return run_sql("SELECT title, status FROM campaigns ORDER BY id")


#       anonymous  annotator  another_annotator  task_owner  admin  token_read  token_annotate  token_models  token_admin
OPS = [
    Op(
        "createCampaign",
        "Mutation.createCampaign",
        f"mutation($t: String!, $i: CampaignInput!) {{ createCampaign(taskCode: $t, input: $i) {{ __typename {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"t": MAIN_TASK, "i": {**INPUT, "status": "DRAFT"}},
        ok_type="CampaignSaved",
    ),
    Op(
        "updateCampaign",
        "Mutation.updateCampaign",
        f"mutation($c: ID!, $i: CampaignInput!) {{ updateCampaign(campaignId: $c, input: $i) {{ __typename {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {**_c(w, p), "i": {"title": f"Matrix campaign ({p})"}},
        watch=_campaign_rows,
        ok_type="CampaignSaved",
    ),
    Op(
        "campaign",
        "Query.campaign",
        "query($c: ID!) { campaign(id: $c) { id title ledger { totalCents } } }",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"c": w.ids["campaign_gid"]},
        check=lambda w, p, v, a: holds(v["id"] == a["c"], v),
    ),
    Op(
        "campaigns",
        "Query.campaigns",
        "query($t: String!) { campaigns(taskCode: $t) { id } }",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=lambda w, p: {"t": MAIN_TASK},
        check=lambda w, p, v, _: holds(len(v) >= 1, v),
    ),
    Op(
        "campaignByCode",
        "Query.campaignByCode",
        "query($c: String!) { campaignByCode(code: $c) { title quiz { id } } }",
        "ok ok ok ok ok ok 403 403 ok",
        prepare=lambda w, p: {"c": w.ids["campaign_code"]},
        check=lambda w, p, v, _: holds(len(v["quiz"]) == 1, v),
    ),
    Op(
        "joinCampaign",
        "Mutation.joinCampaign",
        f"mutation($i: JoinCampaignInput!) {{ joinCampaign(input: $i) {{ __typename {ERR} }} }}",
        "ok ok ok ok ok ok ok ok ok",  # the link is the credential: anyone holding it may join
        prepare=lambda w, p: {"i": {"code": w.ids["campaign_code"], "params": PID, "clientId": str(uuid.uuid4())}},
        ok_type="CampaignJoined",
    ),
    Op(
        "myCampaignWork",
        "Query.myCampaignWork",
        "query($c: ID!) { myCampaignWork(campaignId: $c) { stage } }",
        "401 ok hide hide hide 403 hide 403 hide",
        prepare=_c,
        check=lambda w, p, v, _: holds(v["stage"] == "QUIZ", v),
    ),
    Op(
        "giveConsent",
        "Mutation.giveConsent",
        f"mutation($c: ID!) {{ giveConsent(campaignId: $c) {{ __typename {ERR} }} }}",
        "401 ok hide hide hide 403 hide 403 hide",
        prepare=_c,
        ok_type="ConsentGiven",
    ),
    Op(
        "submitQuiz",
        "Mutation.submitQuiz",
        f"mutation($c: ID!, $a: [QuizAnswer!]!) {{ submitQuiz(campaignId: $c, answers: $a) {{ __typename {ERR} }} }}",
        "401 ok hide hide hide 403 hide 403 hide",
        prepare=lambda w, p: {**_c(w, p), "a": [{"questionId": "q1", "answer": "b"}]},
        ok_type="QuizGraded",
    ),
    Op(
        "importApprovedSubmissions",
        "Mutation.importApprovedSubmissions",
        f"mutation($c: ID!, $f: Upload!) {{ importApprovedSubmissions(campaignId: $c, file: $f) {{ __typename {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=_c,
        upload=("f", "export.csv", b"Submission id,Participant id,Status\ns1,5e9088a8a4b6ed018b45ba7b,APPROVED\n"),
        ok_type="ApprovedImported",
    ),
    Op(
        "exportPayouts",
        "Mutation.exportPayouts",
        f"mutation($c: ID!) {{ exportPayouts(campaignId: $c, format: PROLIFIC) {{ __typename {ERR} }} }}",
        "401 403 403 ok ok 403 403 403 ok",
        prepare=_c,
        ok_type="PayoutsExported",
    ),
    Op(
        "finishCampaign",
        "Mutation.finishCampaign",
        f"mutation($c: ID!) {{ finishCampaign(campaignId: $c) {{ __typename {ERR} }} }}",
        # The annotator has not passed the quiz: finishing answers CONFLICT; the others are no workers here.
        "401 ok hide hide hide 403 hide 403 hide",
        prepare=_c,
        ok_type="ConflictError",
    ),
]


@pytest.mark.parametrize("op, principal", cells(OPS))
def test_matrix(world, op, principal):
    run_cell(world, op, principal)
