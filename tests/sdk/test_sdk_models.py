"""The SDK's researcher path against the real stack: a model directory submitted, followed live until evaluated, its
results, the leaderboard with chosen weights, and the submission made a round's target by the task's owner."""

from __future__ import annotations

import asyncio

import pytest

from dynabench_client import AsyncClient, Client, ModelResults
from tests.api.examples_helpers import current_round
from tests.api.models_helpers import model_status
from tests.conftest import MODEL_CACHE, seed_builtin_tasks
from tests.sdk.conftest import scoring_dataset, sentiment_rows


def test_a_model_directory_is_submitted_evaluated_and_ranked(stack, api, target_models, admin_token):
    seed_builtin_tasks()
    dataset_id = scoring_dataset(api, admin_token, sentiment_rows(40))
    researcher = api.sign_up("sdk-researcher")
    seen: list[str] = []
    with Client(stack.api_url, researcher, progress=False) as client:
        model = client.submit_model(
            MODEL_CACHE / target_models["sentiment"],
            "sentiment",
            "sdk sentiment",
            card={"license": "MIT", "source_url": "https://example.org"},
        )
        assert model.status == "uploaded" and model.name == "sdk sentiment"
        results = client.wait_for_evaluation(model.id, timeout=900, on_update=lambda m: seen.append(m.status))
        assert isinstance(results, ModelResults) and results.status == "evaluated", seen
        assert seen[-1] == "evaluated" and "deploying" in seen  # followed live, not just read at the end

        # The same numbers as the API's own answer.
        stored = model_status(api, researcher, model.id)["scores"]
        assert [(s.dataset, s.perf, s.robustness) for s in results.per_dataset] == [
            (row["dataset"]["name"], row["perf"], row["robustness"]) for row in stored
        ]
        assert results.per_dataset[0].dataset_id == dataset_id
        assert results.rank == 1 and results.dynascore is not None and results.metrics["perf"] == pytest.approx(stored[0]["perf"])
        frame = results.to_dataframe()
        assert list(frame["dataset"]) == ["dynasent-slice"] and frame["perf"][0] == stored[0]["perf"]

        # Unpublished: only its owner sees it ranked; the leaderboard takes the viewer's weights.
        board = client.leaderboard("sentiment", metric_weights={"perf": 1, "memory": 0}, dataset_weights={dataset_id: 2})
        assert [e.model_id for e in board] == [model.id] and board.total_count == 1
        assert board.metric_weights["perf"] == 1 and board.metric_weights["memory"] == 0
        table = board.to_dataframe()
        assert (
            list(table.columns[:5]) == ["rank", "model_id", "model", "owner", "dynascore"]
            and table["owner"][0] == "sdk-researcher"
        )
        with Client(stack.api_url, progress=False) as anonymous:
            assert anonymous.leaderboard("sentiment").entries == []

        client.publish_model(model.id)
    # The task's owner (an admin here) makes the submission the round's target.
    round_id = current_round(api, "sentiment")
    with Client(stack.api_url, admin_token, progress=False) as owner:
        round_info = owner.set_round_targets(round_id, [model.id])
        assert [t.model_id for t in round_info.target_models] == [model.id]
        assert owner.round_state(round_id).target_models[0].model_id == model.id


async def test_the_async_client_reads_inside_a_running_loop_and_so_does_the_sync_one(stack, api, admin_token):
    """pytest-asyncio runs this test in an event loop: AsyncClient is awaited in it, and Client (its own thread and
    loop) still works from inside it, without nest_asyncio."""
    await asyncio.to_thread(seed_builtin_tasks)  # the helper runs its own loop
    async with AsyncClient(stack.api_url, admin_token, progress=False) as client:
        me = await client.me()
        assert me is not None and me.username == "root-admin" and me.is_admin
        codes = [task.code async for task in client.tasks()]
        assert {"sentiment", "nli"} <= set(codes)
    with Client(stack.api_url + "/graphql", admin_token, progress=False) as client:
        assert [task.code for task in client.tasks()] == codes

        async def rounds_page(after):  # any connection, walked page by page
            return (await client.gql.task_rounds(code="nli", first=1, after=after)).task.rounds

        assert [r.number for r in client.walk(rounds_page)] == [r.number for r in client.rounds("nli")] == [1]
        assert client.round("sentiment").number == 1
