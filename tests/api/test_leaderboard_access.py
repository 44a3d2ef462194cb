"""Who reads a leaderboard: anyone, signed in or not, unless the task's owners make it private (config
`dynascore.leaderboard: private`); then its owners and admins only."""

import copy

from server.tasks.builtin import BUILTIN_TASKS
from tests.conftest import seed_builtin_tasks

SENTIMENT = next(spec["config"] for spec in BUILTIN_TASKS if spec["code"] == "sentiment")

BOARD = '{ leaderboard(taskCode: "sentiment") { totalCount exactDynaboard metricWeights { metric weight } } }'
UPDATE = """mutation($i: UpdateTaskInput!) { updateTask(input: $i) { __typename ... on Error { message } } }"""


def _set_leaderboard(api, token, visibility: str) -> None:
    config = copy.deepcopy(SENTIMENT)
    config.setdefault("dynascore", {})["leaderboard"] = visibility
    result = api(UPDATE, {"i": {"taskCode": "sentiment", "config": config}}, token=token)["updateTask"]
    assert result["__typename"] == "TaskUpdated", result


def test_a_leaderboard_is_public_until_its_owners_make_it_private(api, admin_token):
    seed_builtin_tasks()
    stranger = api.sign_up("stranger")
    board = api(BOARD)["leaderboard"]  # no account at all
    assert board["exactDynaboard"] is False and {w["metric"] for w in board["metricWeights"]} >= {"PERF", "MEMORY"}
    assert api(BOARD, token=stranger)["leaderboard"] == board

    _set_leaderboard(api, admin_token, "private")
    for token in (None, stranger):
        errors = api.errors(BOARD, token=token)
        assert [e["extensions"]["code"] for e in errors] == ["FORBIDDEN"], errors
        assert errors[0]["message"] == "This task's owners keep its leaderboard private."
    assert api(BOARD, token=admin_token)["leaderboard"]["totalCount"] == board["totalCount"]

    _set_leaderboard(api, admin_token, "public")
    assert api(BOARD)["leaderboard"] == board


def test_an_unknown_leaderboard_visibility_is_refused_with_the_field_named(api, admin_token):
    seed_builtin_tasks()
    config = copy.deepcopy(SENTIMENT)
    config.setdefault("dynascore", {})["leaderboard"] = "friends"
    result = api(
        """mutation($i: UpdateTaskInput!) { updateTask(input: $i) { __typename ... on InputError { fields { field } } } }""",
        {"i": {"taskCode": "sentiment", "config": config}},
        token=admin_token,
    )["updateTask"]
    assert result["__typename"] == "InputError" and any("leaderboard" in f["field"] for f in result["fields"]), result
