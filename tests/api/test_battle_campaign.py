"""A battle campaign through GraphQL (issue #31): three served targets under the balanced schedule, several voters,
one of whom always picks A. The pairs meet equally often; the voter who always picks A is flagged in the owners'
quality view and left out of the leaderboard (which equals bootstrap() of the counted votes) and of the PREFERENCES
export, whose lines are the counted votes' prompt / chosen / rejected pairs."""

import asyncio
import json
import os
import random
import uuid
from collections import Counter

import httpx
import pytest

from server.battles.ratings import Battle, bootstrap
from tests.api.conversations_helpers import demo_copy, generative_config, generative_task
from tests.api.examples_helpers import NEXT_CONTEXT, wait_until
from tests.conftest import run_sql

SIDES = "label reply modelName"
START = """mutation($i: StartBattleInput!) { startBattle(input: $i) { __typename
  ... on BattleStarted { battle { id } } ... on Error { code message } } }"""
READ = f"query($id: ID!) {{ battle(id: $id) {{ id prompt votable sides {{ {SIDES} }} }} }}"
VOTE = f"""mutation($i: VoteBattleInput!) {{ voteBattle(input: $i) {{ __typename
  ... on BattleVoted {{ battle {{ sides {{ {SIDES} }} }} }} ... on Error {{ code message }} }} }}"""
BOARD = """query($c: String!) { battleLeaderboard(taskCode: $c) { votes ballots countedBallots flaggedVoters pausedVoters repeats
  positionBias { sides label picked decisive } models { name rating lower upper battles } } }"""
QUALITY = """query($c: String!) { taskQuality(taskCode: $c) {
  battleVoters { username votes decisive favourite favouriteShare pValue flagged } } }"""
EXPORT = """mutation($r: ID!, $f: ExportFormat!) { exportRound(roundId: $r, format: $f) { __typename
  ... on RoundExport { url } ... on InputError { fields { field message } } ... on Error { code message } } }"""


@pytest.fixture(scope="module")
def three_targets(stack, target_models):
    demo = target_models["chat_demo"]
    with demo_copy(stack, demo, "generative_demo_q2") as second, demo_copy(stack, demo, "generative_demo_q3") as third:
        yield demo, second, third


def _job_result(job_id: str):
    """A worker job's result (waits for it to end)."""
    from arq import create_pool
    from arq.jobs import Job

    from server.core.services import redis_settings
    from server.observability.jobs import deserialize_job

    async def read():
        pool = await create_pool(redis_settings(os.environ["REDIS_URL"]))
        try:
            return await Job(job_id, pool, _deserializer=deserialize_job).result(timeout=120)
        finally:
            await pool.aclose()

    return asyncio.run(read())


def _battle(api, token, round_id, context_id, prompt) -> dict:
    variables = {"i": {"roundId": round_id, "contextId": context_id, "clientId": str(uuid.uuid4()), "message": prompt}}
    started = api(START, variables, token=token)["startBattle"]
    assert started["__typename"] == "BattleStarted", started
    battle_id = started["battle"]["id"]
    wait_until(lambda: api(READ, {"id": battle_id}, token=token)["battle"]["votable"], timeout=120)
    return api(READ, {"id": battle_id}, token=token)["battle"]


def _vote(api, token, battle_id, choice) -> list[str]:
    variables = {"i": {"battleId": battle_id, "clientId": str(uuid.uuid4()), "choice": choice}}
    voted = api(VOTE, variables, token=token)["voteBattle"]
    assert voted["__typename"] == "BattleVoted", voted
    return [side["modelName"] for side in voted["battle"]["sides"]]


def test_a_balanced_campaign_flags_a_voter_who_always_picks_a(stack, api, three_targets):
    demo, second, third = three_targets
    config = generative_config(max_tokens=3, battle={"selection": "balanced", "votes_per_user_per_day": 50})
    owner, round_id = generative_task(api, "arena_campaign", demo, config, also=(second, third))
    rng = random.Random(4)
    honest = [api.sign_up(f"reader_{i}") for i in range(2)]
    lazy = api.sign_up("always_a")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=lazy)["nextContext"]["id"]
    counted: list[tuple[list[str], str, dict]] = []
    met: Counter[frozenset[str]] = Counter()
    for i in range(12):
        voters = [(lazy, "A")] + ([(token, rng.choice("AB")) for token in honest] if i < 6 else [])
        for token, choice in voters:
            battle = _battle(api, token, round_id, context_id, f"Question {i}: name a river.")
            models = _vote(api, token, battle["id"], choice)
            met[frozenset(models)] += 1
            if token != lazy:
                counted.append((models, choice, battle))
    # Balanced: the three pairs met equally often (24 battles, 8 each), whoever started them.
    assert sorted(met.values()) == [8, 8, 8], met

    quality = api(QUALITY, {"c": "arena_campaign"}, token=owner)["taskQuality"]["battleVoters"]
    assert quality[0] == {
        "username": "always_a",
        "votes": 12,
        "decisive": 12,
        "favourite": "A",
        "favouriteShare": 1.0,
        "pValue": pytest.approx(0.5**12),
        "flagged": True,
    }
    assert [v["flagged"] for v in quality[1:]] == [False, False] and {v["votes"] for v in quality[1:]} == {6}

    board = api(BOARD, {"c": "arena_campaign"})["battleLeaderboard"]
    assert (board["ballots"], board["countedBallots"], board["flaggedVoters"], board["repeats"]) == (24, 12, 1, 0)
    expected = bootstrap([Battle(*models, "a" if choice == "A" else "b") for models, choice, _ in counted], 1000, 0)
    assert [(m["name"], m["battles"]) for m in board["models"]] == [(m.name, m.battles) for m in expected.models]
    for got, want in zip(board["models"], expected.models):
        assert (got["rating"], got["lower"], got["upper"]) == pytest.approx((want.rating, want.lower, want.upper), rel=1e-12)
    picked_a = sum(1 for _, choice, _ in counted if choice == "A")
    assert board["positionBias"] == [
        {"sides": 2, "label": "A", "picked": picked_a, "decisive": 12},
        {"sides": 2, "label": "B", "picked": 12 - picked_a, "decisive": 12},
    ]

    # The worker's job after each vote recomputed the leaderboards from rows (the task's and its round's): the same numbers.
    task_id = run_sql("SELECT id FROM tasks WHERE code = 'arena_campaign'")[0]["id"]
    last_vote = run_sql("SELECT max(id) AS id FROM battle_votes")[0]["id"]
    assert _job_result(f"rate-battles:{task_id}:{last_vote}") == {"boards": 2}
    assert api(BOARD, {"c": "arena_campaign"})["battleLeaderboard"] == board

    # The preference export: one line per counted vote, the chosen side's reply and the other's.
    link = api(EXPORT, {"r": round_id, "f": "PREFERENCES"}, token=owner)["exportRound"]
    assert link["__typename"] == "RoundExport", link
    response = httpx.get(stack.api_url + link["url"], timeout=120)
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/x-ndjson")
    assert response.headers["content-disposition"] == 'attachment; filename="arena_campaign-round-1-preferences.jsonl"'
    lines = [json.loads(line) for line in response.text.splitlines()]
    wanted = []
    for models, choice, battle in counted:
        winner = 0 if choice == "A" else 1
        replies = [side["reply"] for side in battle["sides"]]
        if replies[0] and replies[1]:
            wanted.append((battle["prompt"], replies[winner], replies[1 - winner], models[winner], models[1 - winner]))
    got = [(line["prompt"], line["chosen"], line["rejected"], line["chosen_model"], line["rejected_model"]) for line in lines]
    assert got == wanted and len(got) >= 10
    assert {line["task"] for line in lines} == {"arena_campaign"} and all(line["voter"].startswith("w") for line in lines)
    assert "reader_" not in response.text and "always_a" not in response.text

    # A task without battles has no preferences to export.
    plain_owner, plain_round = generative_task(api, "arena_plain", demo, generative_config(max_tokens=3))
    refused = api(EXPORT, {"r": plain_round, "f": "PREFERENCES"}, token=plain_owner)["exportRound"]
    assert refused["__typename"] == "InputError" and refused["fields"][0]["field"] == "format", refused


CHECKS = ["Bananas are rich in potassium.", "The train to Lyon leaves at nine from platform four."]
CHECK_SIDES = "label reply modelName check continuable"
CHECK_VOTE = f"""mutation($i: VoteBattleInput!) {{ voteBattle(input: $i) {{ __typename
  ... on BattleVoted {{ battle {{ sides {{ {CHECK_SIDES} }} }} }} ... on Error {{ code message }} }} }}"""
CHECK_QUALITY = """query($c: String!) { taskQuality(taskCode: $c) {
  battleVoters { username votes checksAnswered checksRight checkAccuracy paused } } }"""
REINSTATE = """mutation($c: String!, $u: String!) { reinstateBattleVoter(taskCode: $c, username: $u) { __typename
  ... on BattleVoterReinstated { voter { username paused checksAnswered } } ... on Error { code message } } }"""
CONTINUE = """mutation($i: ContinueBattleInput!) { continueBattle(input: $i) { __typename ... on Error { code message }
  ... on InputError { fields { field message } } } }"""


def _check_position(battle) -> int | None:
    found = [i for i, side in enumerate(battle["sides"]) if side["reply"] in CHECKS]
    assert len(found) <= 1, battle
    return found[0] if found else None


def test_check_battles_pause_a_voter_who_prefers_the_check_reply_until_reinstated(stack, api, three_targets):
    demo, second, _ = three_targets
    checks = {"rate": 0.5, "replies": CHECKS, "min_answers": 3, "threshold": 0.8}
    config = generative_config(max_tokens=3, battle={"checks": checks, "votes_per_user_per_day": 100})
    owner, round_id = generative_task(api, "arena_checks", demo, config, also=(second,))
    careless, careful = api.sign_up("careless_voter"), api.sign_up("careful_voter")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=careful)["nextContext"]["id"]
    seen_checks = {careless: 0, careful: 0}
    rng = random.Random(8)
    for i in range(60):
        for token in (careless, careful):
            if seen_checks[token] >= 3:
                continue
            battle = _battle(api, token, round_id, context_id, f"Prompt {i}: name a mountain.")
            check = _check_position(battle)
            if check is None:
                choice = rng.choice("AB")  # reading voters: no position habit
            else:
                seen_checks[token] += 1
                picked = check if token == careless else 1 - check
                choice = "AB"[picked]
            variables = {"i": {"battleId": battle["id"], "clientId": str(uuid.uuid4()), "choice": choice}}
            voted = api(CHECK_VOTE, variables, token=token)["voteBattle"]
            assert voted["__typename"] == "BattleVoted", voted
            sides = voted["battle"]["sides"]
            assert [side["check"] for side in sides] == [check == 0, check == 1], sides  # told after the vote
            if check is not None:
                assert sides[check]["modelName"] == "" and not sides[check]["continuable"]
                refused = api(
                    CONTINUE, {"i": {"battleId": battle["id"], "clientId": str(uuid.uuid4()), "side": "AB"[check]}}, token=token
                )["continueBattle"]
                assert refused["__typename"] in ("InputError", "ConflictError"), refused
        if min(seen_checks.values()) >= 3:
            break
    assert seen_checks == {careless: 3, careful: 3}

    # Three wrong check answers of three: paused; the careful voter is not.
    stopped = api(
        START,
        {"i": {"roundId": round_id, "contextId": context_id, "clientId": str(uuid.uuid4()), "message": "Hi"}},
        token=careless,
    )
    assert stopped["startBattle"]["__typename"] == "PermissionError" and "paused" in stopped["startBattle"]["message"], stopped
    quality = {v["username"]: v for v in api(CHECK_QUALITY, {"c": "arena_checks"}, token=owner)["taskQuality"]["battleVoters"]}
    assert {k: quality["careless_voter"][k] for k in ("checksAnswered", "checksRight", "checkAccuracy", "paused")} == {
        "checksAnswered": 3,
        "checksRight": 0,
        "checkAccuracy": 0.0,
        "paused": True,
    }
    assert quality["careful_voter"]["checkAccuracy"] == 1.0 and not quality["careful_voter"]["paused"]
    board = api(BOARD, {"c": "arena_checks"})["battleLeaderboard"]
    careful_votes = quality["careful_voter"]["votes"]
    assert board["countedBallots"] == careful_votes and board["ballots"] == careful_votes + quality["careless_voter"]["votes"]
    # A paused voter counts among the board's voters when they cast ordinary ballots (checks come at random: the
    # careless voter may have met three checks first and cast none).
    assert (board["flaggedVoters"], board["pausedVoters"]) == (0, 1 if quality["careless_voter"]["votes"] else 0), (
        board,
        quality["careless_voter"],
    )

    # Only the owners reinstate; then the careless voter starts battles again.
    assert api(REINSTATE, {"c": "arena_checks", "u": "careless_voter"}, token=careful)["reinstateBattleVoter"]["__typename"] in (
        "PermissionError",
        "NotFoundError",
    )
    missing = api(REINSTATE, {"c": "arena_checks", "u": "nobody_here"}, token=owner)["reinstateBattleVoter"]
    assert missing["__typename"] == "NotFoundError", missing
    back = api(REINSTATE, {"c": "arena_checks", "u": "careless_voter"}, token=owner)["reinstateBattleVoter"]
    assert back == {
        "__typename": "BattleVoterReinstated",
        "voter": {"username": "careless_voter", "paused": False, "checksAnswered": 3},
    }
    _battle(api, careless, round_id, context_id, "Back again: name a lake.")
