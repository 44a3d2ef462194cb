"""Fuzzing the crowd campaign mutations (issue #17): the owners' createCampaign, updateCampaign,
importApprovedSubmissions (multipart CSV files, and as JSON), exportPayouts; the public joinCampaign; the workers'
giveConsent, submitQuiz and, last (it ends carol's work), finishCampaign.

The module's world adds three campaigns: alice's open Prolific campaign on alpha (with a quiz and a quota), bob's open
MTurk campaign on beta, and alice's draft. carol is made a worker of alice's campaign by SQL (joinCampaign makes new
pseudonymous accounts, which are no fuzz viewers), so the worker mutations have a viewer they can succeed for."""

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.conftest import clear_rate_limits
from tests.fuzz.conftest import FUZZ
from tests.fuzz.junk import INVALID_UTF8_BYTES, junk_strings, weighted
from tests.fuzz.plausible import Ref
from tests.fuzz.strategies import Case, cases
from tests.fuzz.uploads import MultipartCase, multipart_cases, send_multipart

PID = "5e9088a8a4b6ed018b45ba7b"
CLIENT = "6a0f2b34-57a0-4c3e-9d51-0d1c2f3e4a5b"
QUIZ = {
    "questions": [{"prompt": "Pick a", "choices": ["a", "b"], "answer": "a"}, {"prompt": "Say b", "answer": "b"}],
    "passMark": 2,
    "attempts": 10,
}
CAMPAIGN = {
    "platform": "PROLIFIC",
    "title": "Fuzz campaign",
    "status": "OPEN",
    "consent": "# Consent\n\nI **agree**.",
    "quiz": QUIZ,
    "quotas": {"examplesPerCampaign": 2},
    "currency": "GBP",
    "baseCents": 100,
    "foolingBonusCents": 50,
    "completionCode": "FZDONE01",
    "failureCode": "FZFAIL01",
}
SAVED = "{ __typename ... on CampaignSaved { campaign { id code } } ... on InputError { fields { field message } } }"


def _create(world, owner: str, task: str, name: str, **changes) -> None:
    data = world.gql(
        f"mutation($t: String!, $i: CampaignInput!) {{ createCampaign(taskCode: $t, input: $i) {SAVED} }}",
        {"t": task, "i": {**CAMPAIGN, **changes}},
        owner,
    )
    created = data["createCampaign"]
    assert created["__typename"] == "CampaignSaved", created
    world.refs[f"campaign:{name}"] = created["campaign"]["id"]
    world.refs[f"campaignCode:{name}"] = created["campaign"]["code"]


@pytest.fixture(scope="module", autouse=True)
def campaigns(world):
    _create(world, "alice", "alpha", "alpha")
    _create(world, "bob", "beta", "beta", platform="MTURK", quiz=None)
    _create(world, "alice", "alpha", "draft", status="DRAFT")
    clear_rate_limits()  # the joins of earlier tests in the session from this address
    world.db.fetch(
        'INSERT INTO campaign_workers (campaign, "user", external_key) '
        "SELECT c.id, u.id, $1 FROM campaigns c, users u WHERE c.code = $2 AND u.username = 'carol'",
        "f" * 64,
        world.refs["campaignCode:alpha"],
    )


CSV_HEADERS = (
    "Submission id,Participant id,Status",
    "WorkerId,AssignmentId,AssignmentStatus",
    "participant_id,status",
    "",
    "a,b,c,d",
)
csv_rows = st.builds(
    lambda submission, pid, status: f"{submission},{pid},{status}",
    st.sampled_from(["s1", "s2", "", "=HYPERLINK(1)", "s\x00"]),
    weighted((3, st.sampled_from([PID, "5e9088a8a4b6ed018b45ba7c", "A1B2C3D4E5F6G7"])), (1, junk_strings)),
    st.sampled_from(["APPROVED", "AWAITING REVIEW", "REJECTED", "approved", "Approved", "", '"APPROVED"']),
)
csv_files = weighted(
    (
        4,
        st.builds(
            lambda header, rows, end: "\n".join([header, *rows]).encode("utf-8", "surrogatepass") + end,
            st.sampled_from(CSV_HEADERS),
            st.lists(csv_rows, max_size=5),
            st.sampled_from([b"", b"\n", b"\r\n", b"\x00"]),
        ),
    ),
    (
        1,
        st.sampled_from(
            [
                b"",
                b"\xef\xbb\xbfSubmission id,Participant id,Status\ns1," + PID.encode() + b",APPROVED\n",
                INVALID_UTF8_BYTES * 10,
                b'"unterminated,quote\n',
                b"Submission id,Participant id,Status\n" + b"s,x,APPROVED\n" * 20_000,
                b"\x1f\x8b\x08\x00" + b"\x00" * 20,
            ]
        ),
    ),
    (1, st.binary(max_size=64)),
)


@FUZZ
@example(Case("createCampaign", "alice", {"taskCode": Ref("code:alpha"), "input": {**CAMPAIGN, "title": "a\x00b"}}))
@example(Case("createCampaign", "alice", {"taskCode": Ref("code:alpha"), "input": {**CAMPAIGN, "consent": "\ud800"}}))
@given(case=cases("createCampaign"))
def test_create_campaign(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("updateCampaign", "alice", {"campaignId": Ref("campaign:alpha"), "input": {"quiz": {"questions": []}}}))
@example(Case("updateCampaign", "carol", {"campaignId": Ref("campaign:alpha"), "input": {"title": "mine now"}}))
@given(case=cases("updateCampaign"))
def test_update_campaign(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(MultipartCase("importApprovedSubmissions", "alice", {"campaignId": Ref("campaign:alpha")}, (("0", "x.csv", b"\x00"),)))
@given(case=multipart_cases("importApprovedSubmissions", "file", csv_files))
def test_import_approved_submissions_multipart(fuzzer, case):
    send_multipart(fuzzer, case, "file")


@FUZZ
@given(case=cases("importApprovedSubmissions"))
def test_import_approved_submissions_as_json(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("exportPayouts", "bob", {"campaignId": Ref("campaign:alpha"), "format": "PROLIFIC"}))
@given(case=cases("exportPayouts"))
def test_export_payouts(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(
    Case("joinCampaign", "anonymous", {"input": {"code": Ref("campaignCode:alpha"), "query": "%ZZ%00=%ff", "clientId": CLIENT}})
)
@example(
    Case(
        "joinCampaign",
        "anonymous",
        {
            "input": {
                "code": Ref("campaignCode:alpha"),
                "params": [{"name": "PROLIFIC_PID", "value": "\ud800"}],
                "clientId": CLIENT,
            }
        },
    )
)
@given(case=cases("joinCampaign"))
def test_join_campaign(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@given(case=cases("giveConsent"))
def test_give_consent(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@example(Case("submitQuiz", "carol", {"campaignId": Ref("campaign:alpha"), "answers": [{"questionId": "q1", "answer": "\x00"}]}))
@given(case=cases("submitQuiz"))
def test_submit_quiz(fuzzer, case):
    fuzzer.send(case)


@FUZZ
@given(case=cases("finishCampaign"))
def test_finish_campaign(fuzzer, case):
    fuzzer.send(case)
