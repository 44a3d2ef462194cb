"""The payments ledger of a campaign through GraphQL and its real job: lines only from verified outcomes, equal to a
recomputation by hand from the stored rows; re-runs change nothing; an outcome change before export updates or
voids; after export nothing moves; the payout CSV lists matched workers only."""

import asyncio
import os

from tests.api.campaigns_helpers import CONSENT, FINISH, WORK, join, prolific_params
from tests.api.campaigns_helpers import owner_world as _owner_world
from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, wait_until
from tests.conftest import run_sql

VALIDATE = """mutation($e: ID!, $l: ValidationLabel!, $m: ValidationMode! = USER) {
  validateExample(exampleId: $e, label: $l, mode: $m) { __typename ... on Error { code message } } }"""
LEDGER = "query($c: ID!) { campaign(id: $c) { ledger { totalCents pendingCents exportedCents workers unmatched } } }"
IMPORT = """mutation($c: ID!, $f: Upload!) { importApprovedSubmissions(campaignId: $c, file: $f) { __typename
  ... on ApprovedImported { matched unmatchedWorkers unknown notApproved problems } ... on Error { code message } } }"""
EXPORT = """mutation($c: ID!, $f: PayoutFormat!) { exportPayouts(campaignId: $c, format: $f) { __typename
  ... on PayoutsExported { csv totalCents workers unpaidWorkers } ... on Error { code message } } }"""
PIDS = ("5e9088a8a4b6ed018b45ba7b", "5e9088a8a4b6ed018b45ba7c", "5e9088a8a4b6ed018b45ba7d")


def _pk(global_id: str) -> int:
    from strawberry.relay import GlobalID

    return int(GlobalID.from_id(global_id).node_id)


def _rerun(campaign_pk: int) -> int:
    """Run the real job once more through the worker; its answer is how many lines it changed."""
    from arq import create_pool
    from arq.connections import RedisSettings

    from server.campaigns import jobs as campaign_jobs
    from server.core.jobs import job_name

    async def go():
        pool = await create_pool(RedisSettings.from_dsn(os.environ["REDIS_URL"]))
        job = await pool.enqueue_job(job_name(campaign_jobs.recompute_campaign_ledger), campaign_pk)
        result = await job.result(timeout=120)
        await pool.aclose()
        return result

    return asyncio.run(go())


def _by_hand(campaign_pk: int) -> dict[str, tuple[int, int]]:
    """key → (worker, cents), recomputed from the stored outcomes with the campaign's rates (no cap here)."""
    c = run_sql("SELECT * FROM campaigns WHERE id = $1", campaign_pk)[0]
    workers = run_sql('SELECT "user", finished_at FROM campaign_workers WHERE campaign = $1', campaign_pk)
    ids = [w["user"] for w in workers]
    lines = {f"base:{w['user']}": (w["user"], c["base_cents"]) for w in workers if w["finished_at"]}
    for e in run_sql('SELECT id, "user" FROM examples WHERE "user" = ANY($1) AND fooled AND status = \'validated\' '
                     "AND NOT retracted", ids):  # fmt: skip
        lines[f"bonus:fooling:{e['id']}"] = (e["user"], c["fooling_bonus_cents"])
    for v in run_sql(
        'SELECT v.id, v."user" FROM validations v JOIN examples e ON e.id = v.example WHERE v."user" = ANY($1) '
        "AND v.mode = 'user' AND ((v.label = 'correct' AND e.status = 'validated') OR "
        "(v.label = 'incorrect' AND e.status = 'rejected'))",
        ids,
    ):
        lines[f"bonus:agree:{v['id']}"] = (v["user"], c["agree_bonus_cents"])
    return lines


def _recorded(campaign_pk: int, status: str = "pending") -> dict[str, tuple[int, int]]:
    rows = run_sql("SELECT key, worker, amount_cents FROM campaign_ledger_lines WHERE campaign = $1 AND status = $2",
                   campaign_pk, status)  # fmt: skip
    return {r["key"]: (r["worker"], r["amount_cents"]) for r in rows}


def _upload(api, token, campaign_id, text: str) -> dict:
    import json

    operations = json.dumps({"query": IMPORT, "variables": {"c": campaign_id, "f": None}})
    response = api.http.post(
        "/graphql",
        headers={"Authorization": f"Bearer {token}"},
        files={"0": ("prolific_export.csv", text.encode(), "text/csv")},
        data={"operations": operations, "map": json.dumps({"0": ["variables.f"]})},
    )
    assert response.status_code == 200, response.text
    return response.json()["data"]["importApprovedSubmissions"]


def test_ledger_from_verified_outcomes_idempotent_updates_then_frozen(api, admin_token, target_models):
    campaign = _owner_world(api, admin_token, quiz=None, quotas={})
    cpk = _pk(campaign["id"])
    tokens = []
    for pid in PIDS:  # a writer and two campaign validators (no quiz: consent and work)
        token = join(api, campaign["code"], prolific_params(pid))["token"]
        api(CONSENT, {"c": campaign["id"]}, token=token)
        tokens.append(token)
    writer, validator, idle = tokens
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=writer)["nextContext"]["id"]
    e1 = fooling_example(api, writer, round_id, context_id, "Campaign review one, truly something else.")
    e2 = fooling_example(api, writer, round_id, context_id, "Campaign review two, truly something else.")
    others = [api.sign_up(f"voter{i}") for i in range(3)]
    votes = [(e1, validator, "CORRECT"), (e2, validator, "CORRECT"), (e1, others[0], "CORRECT")]
    votes += [(e1, others[1], "CORRECT"), (e2, others[2], "INCORRECT")]  # e1 validated (N = 3); e2 stays open
    for example, token, label in votes:
        voted = api(VALIDATE, {"e": example["id"], "l": label}, token=token)["validateExample"]
        assert voted["__typename"] == "ExampleValidated", voted
    for token in (writer, validator):
        assert api(FINISH, {"c": campaign["id"]}, token=token)["finishCampaign"]["__typename"] == "CampaignFinished"
    statuses = lambda: [r["status"] for r in run_sql("SELECT status FROM examples ORDER BY id")]  # noqa: E731
    unaggregated = lambda: run_sql("SELECT count(*) AS n FROM validations WHERE NOT aggregated")[0]["n"]  # noqa: E731
    wait_until(lambda: statuses() == ["validated", "open"] and unaggregated() == 0)
    expected = _by_hand(cpk)
    assert len(expected) == 4  # two base pays, e1's fooling bonus, the validator's agreeing vote on e1
    wait_until(lambda: _recorded(cpk) == expected)
    assert _rerun(cpk) == 0 and _recorded(cpk) == expected  # re-running pays nothing twice

    # Outcome changes before export. A decided example keeps its outcome (an owner vote after the decision changes
    # nothing, docs/design.md §4.2), so: the writer retracts e1 (its fooling bonus is voided; the validator's
    # agreeing vote still counts), and the owner decides the open e2 in owner mode (validated at once: e2's fooling
    # bonus and the validator's now agreeing vote on e2 are added).
    retract = "mutation($e: ID!) { retractExample(exampleId: $e) { __typename } }"
    assert api(retract, {"e": e1["id"]}, token=writer)["retractExample"]["__typename"] == "ExampleChanged"
    owner_vote = api(VALIDATE, {"e": e2["id"], "l": "CORRECT", "m": "OWNER"}, token=admin_token)["validateExample"]
    assert owner_vote["__typename"] == "ExampleValidated", owner_vote
    wait_until(lambda: statuses() == ["validated", "validated"] and unaggregated() == 0)
    wait_until(lambda: _recorded(cpk) == _by_hand(cpk) and len(_recorded(cpk, "void")) == 1)
    assert set(_recorded(cpk, "void")) == {f"bonus:fooling:{_pk(e1['id'])}"} and len(_recorded(cpk)) == 5
    assert _rerun(cpk) == 0
    ledger = api(LEDGER, {"c": campaign["id"]}, token=admin_token)["campaign"]["ledger"]
    assert ledger["pendingCents"] == 100 + 100 + 50 + 10 + 10 and ledger["exportedCents"] == 0 and ledger["workers"] == 2

    # Only matched workers are paid: the import approves the writer (and a stranger); the validator is unmatched.
    export_file = (
        "Submission id,Participant id,Status\n"
        f"s1,{PIDS[0]},APPROVED\ns2,{PIDS[1]},AWAITING REVIEW\ns3,5e9088a8a4b6ed018b45baff,APPROVED\n"
    )
    imported = _upload(api, admin_token, campaign["id"], export_file)
    assert imported["matched"] == 1 and imported["unknown"] == 1 and imported["notApproved"] == 1
    assert len(imported["unmatchedWorkers"]) == 2  # the validator and the idle worker, as pseudonyms
    assert all(name.startswith("crowd-") for name in imported["unmatchedWorkers"])
    exported = api(EXPORT, {"c": campaign["id"], "f": "PROLIFIC"}, token=admin_token)["exportPayouts"]
    assert exported == {"__typename": "PayoutsExported", "csv": f"{PIDS[0]},0.50\n", "totalCents": 50, "workers": 1,
                        "unpaidWorkers": 1}  # fmt: skip
    frozen = _recorded(cpk, "exported")
    assert list(frozen.values()) == [(run_sql('SELECT "user" FROM campaign_workers ORDER BY id')[0]["user"], 50)]

    # After export nothing paid moves: new rates reach pending lines only.
    update = "mutation($c: ID!, $i: CampaignInput!) { updateCampaign(campaignId: $c, input: $i) { __typename } }"
    rates = {"foolingBonusCents": 999, "agreementBonusCents": 20}
    assert api(update, {"c": campaign["id"], "i": rates}, token=admin_token)["updateCampaign"]["__typename"] == "CampaignSaved"
    # The update enqueues the job: the validator's two agreement bonuses go 10 → 20 each; the paid line stays.
    wait_until(lambda: sorted(c for _, c in _recorded(cpk).values()) == [20, 20, 100, 100])
    assert _rerun(cpk) == 0
    assert _recorded(cpk, "exported") == frozen
    again = api(EXPORT, {"c": campaign["id"], "f": "PROLIFIC"}, token=admin_token)["exportPayouts"]
    assert again["csv"] == "" and again["unpaidWorkers"] == 1  # nothing new for the writer; the validator unmatched
    assert (
        idle
        and api(EXPORT, {"c": campaign["id"], "f": "MTURK"}, token=admin_token)["exportPayouts"]["__typename"] == "InputError"
    )


def test_a_worker_sees_earnings_as_they_accrue_and_on_finishing(api, admin_token, target_models):
    campaign = _owner_world(api, admin_token, quiz=None, quotas={})
    writer = join(api, campaign["code"], prolific_params(PIDS[0]))["token"]
    api(CONSENT, {"c": campaign["id"]}, token=writer)
    earned = lambda: api(WORK, {"c": campaign["id"]}, token=writer)["myCampaignWork"]["earnedCents"]  # noqa: E731
    assert earned() == 0
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=writer)["nextContext"]["id"]
    example = fooling_example(api, writer, round_id, context_id, "Campaign earnings review, truly something else.")
    for voter in [api.sign_up(f"earner-voter{i}") for i in range(3)]:
        api(VALIDATE, {"e": example["id"], "l": "CORRECT"}, token=voter)
    # Validated: the fooling bonus is the worker's as the outcome is decided (no payout, no finish needed).
    wait_until(lambda: earned() == 50)
    # Finishing earns the base pay, and the answer that gives the completion code already counts it.
    finished = api(FINISH, {"c": campaign["id"]}, token=writer)["finishCampaign"]
    assert finished["__typename"] == "CampaignFinished", finished
    assert (finished["state"]["earnedCents"], finished["state"]["pendingCents"]) == (150, 150)
