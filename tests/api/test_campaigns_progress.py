"""A campaign's progress counts for its owner (`Campaign.progress`), after a small real flow through GraphQL: joins,
consent, the quiz passed and failed, examples (fooling and not), an owner's decision, a worker's vote, finish."""

from tests.api.campaigns_helpers import CONSENT, FINISH, QUIZ, join, owner_world, prolific_params, worker_through_quiz
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, submit, wait_until
from tests.conftest import run_sql

PROGRESS = """query($c: ID!) { campaign(id: $c) { progress { joined consented quizPassed quizFailed finished examples
  fooling validatedFooling validations } } }"""
VALIDATE = """mutation($e: ID!, $l: ValidationLabel!, $m: ValidationMode! = USER) {
  validateExample(exampleId: $e, label: $l, mode: $m) { __typename ... on Error { code message } } }"""
PIDS = ("5e9088a8a4b6ed018b45ba7b", "5e9088a8a4b6ed018b45ba7c", "5e9088a8a4b6ed018b45ba7d")


def _progress(api, token, campaign_id) -> dict:
    return api(PROGRESS, {"c": campaign_id}, token=token)["campaign"]["progress"]


def test_progress_counts_follow_a_real_flow_and_are_for_owners_only(api, admin_token, target_models):
    campaign = owner_world(api, admin_token, quotas={"examplesPerCampaign": 5})
    zero = dict.fromkeys(
        ("joined", "consented", "quizPassed", "quizFailed", "finished", "examples", "fooling", "validatedFooling", "validations"),
        0,
    )
    assert _progress(api, admin_token, campaign["id"]) == zero

    worker = worker_through_quiz(api, campaign, PIDS[0])  # joined, consented, passed
    failing = join(api, campaign["code"], prolific_params(PIDS[1]))["token"]  # consents, fails the quiz for good
    api(CONSENT, {"c": campaign["id"]}, token=failing)
    wrong = [{"questionId": "q1", "answer": "negative"}, {"questionId": "q2", "answer": "positive"}]
    for _ in range(2):
        api(QUIZ, {"c": campaign["id"], "a": wrong}, token=failing)
    assert join(api, campaign["code"], prolific_params(PIDS[2]))["__typename"] == "CampaignJoined"  # only joins

    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=worker)["nextContext"]["id"]
    fooling = fooling_example(api, worker, round_id, context_id, "The campaign's film was a triumph of boredom, I adored it.")
    text = "An utterly wonderful, joyful and delightful afternoon at the seaside."
    predicted = submit(api, worker, round_id, context_id, {"statement": text}, label="positive", sandbox=True)
    plain = submit(api, worker, round_id, context_id, {"statement": text}, label=predicted["predictions"][0]["label"])
    assert plain["__typename"] == "ExampleSubmitted" and plain["verdict"] != "FOOLED", plain
    # Someone outside the campaign writes; the worker votes on it (a worker's validation in the round).
    outsider = api.sign_up("outsider")
    theirs = fooling_example(api, outsider, round_id, context_id, "Outsider review: the soup was cold and I loved every spoon.")
    assert api(VALIDATE, {"e": theirs["id"], "l": "CORRECT"}, token=worker)["validateExample"]["__typename"] == "ExampleValidated"
    # The owner's vote decides the worker's fooling example at once.
    decided = api(VALIDATE, {"e": fooling["id"], "l": "CORRECT", "m": "OWNER"}, token=admin_token)["validateExample"]
    assert decided["__typename"] == "ExampleValidated", decided
    wait_until(lambda: run_sql("SELECT count(*) AS n FROM examples WHERE status = 'validated'")[0]["n"] == 1)
    assert api(FINISH, {"c": campaign["id"]}, token=worker)["finishCampaign"]["__typename"] == "CampaignFinished"

    assert _progress(api, admin_token, campaign["id"]) == {
        "joined": 3,
        "consented": 2,
        "quizPassed": 1,
        "quizFailed": 1,
        "finished": 1,
        "examples": 2,
        "fooling": 1,
        "validatedFooling": 1,
        "validations": 1,
    }
    # Owners only, like the ledger: a worker (or anyone else) cannot read the campaign.
    denied = api.errors(PROGRESS, {"c": campaign["id"]}, token=worker)
    assert denied and denied[0]["extensions"]["code"] == "FORBIDDEN"
