"""The SDK's task-owner and annotation paths against the real stack: contexts and examples written in batches (a retry
stores nothing twice), every page of a list walked, a round exported and loaded, its counters streamed live."""

from __future__ import annotations

import json
import threading
import uuid

import datasets

from dynabench_client import Client, ExampleOutcome, InputError
from tests.api.examples_helpers import current_round
from tests.conftest import run_sql, seed_builtin_tasks


def _examples(context_id: str, texts: list[str]) -> list[dict]:
    return [{"context_id": context_id, "fields": {"statement": text}, "label": "positive"} for text in texts]


def test_contexts_and_examples_in_batches_every_page_and_exports(stack, api, target_models, admin_token, tmp_path):
    seed_builtin_tasks()
    round_id = current_round(api, "sentiment")
    in_round = "SELECT count(*) AS n FROM contexts WHERE round = (SELECT round FROM contexts WHERE id = $1)"
    first_context = run_sql(
        "SELECT min(c.id) AS id FROM contexts c JOIN rounds r ON r.id = c.round JOIN tasks t ON t.id = r.task WHERE t.code = 'sentiment'"
    )[0]["id"]
    before = run_sql(in_round, first_context)[0]["n"]
    with Client(stack.api_url, admin_token, progress=False) as owner:
        added = owner.add_contexts(
            round_id,
            [{"context": f"sdk context {i}"} for i in range(130)] + [{"fields": {"context": "tagged"}, "tag": "t"}],
            batch_size=40,
        )
        assert added == 131 == run_sql(in_round, first_context)[0]["n"] - before
        # More than one page (100 per page): every context once.
        contexts = list(owner.contexts(round_id))
        assert len(contexts) == before + 131 == len({c.id for c in contexts}) > 100
        assert [c.tag for c in contexts if c.fields == {"context": "tagged"}] == ["t"]

        author = api.sign_up("sdk-author")
        with Client(stack.api_url, author, progress=False) as writer:
            given = str(uuid.uuid4())
            batch = _examples(contexts[0].id, [f"The soup number {i} was fine." for i in range(7)])
            batch[0]["client_id"] = given
            first = writer.create_examples(round_id, batch, batch_size=3)
            assert all(isinstance(o, ExampleOutcome) and o.error is None for o in first), first
            assert first[0].client_id == given and len({o.client_id for o in first}) == 7
            assert {o.submitted.verdict.value for o in first} <= {"FOOLED", "NOT_FOOLED"}
            # The same examples again (a retry with their client ids): answered from storage, nothing new written.
            again = writer.create_examples(round_id, [{**e, "client_id": o.client_id} for e, o in zip(batch, first)])
            assert all(o.submitted.duplicate for o in again)
            assert run_sql("SELECT count(*) AS n FROM examples")[0]["n"] == 7
            # An expected error comes back per example, the rest of the batch goes on.
            mixed = writer.create_examples(
                round_id, [*_examples(contexts[0].id, ["A new one here."]), {"context_id": contexts[0].id, "fields": {}}]
            )
            assert mixed[0].error is None and isinstance(mixed[1].error, InputError) and mixed[1].error.field_errors, mixed

        jsonl = owner.export_round("sentiment", 1, tmp_path / "round-1.jsonl")
        rows = list(jsonl.rows())
        assert len(rows) == 8 and rows == [json.loads(line) for line in (tmp_path / "round-1.jsonl").read_text().splitlines()]
        hf = owner.export_round("sentiment", round_id, tmp_path / "hf", format="hf_dataset")
        loaded = hf.to_dataset()
        assert isinstance(loaded, datasets.Dataset) and loaded.num_rows == 8
        assert loaded.num_rows == datasets.load_from_disk(str(tmp_path / "hf")).num_rows
        assert sorted(json.loads(i)["statement"] for i in loaded["input"]) == sorted(r["sentence"] for r in rows)


def test_round_stats_stream_live(stack, api, target_models, admin_token):
    seed_builtin_tasks()
    round_id = current_round(api, "sentiment")
    author = api.sign_up("sdk-streamer")
    context_id = api("query($r: ID!) { nextContext(roundId: $r) { id } }", {"r": round_id}, token=author)["nextContext"]["id"]
    seen: list[int] = []
    listening = threading.Event()
    with Client(stack.api_url, author, progress=False) as client:

        def watch() -> None:
            for stats in client.round_stats(round_id):
                seen.append(stats.total_collected)
                listening.set()
                if stats.total_collected >= 3:
                    return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        assert listening.wait(60), "no first message"
        with Client(stack.api_url, author, progress=False) as writer:
            writer.create_examples(round_id, _examples(context_id, ["One fine day.", "Two bad days.", "Three days."]))
        watcher.join(60)
        assert not watcher.is_alive(), seen
    assert seen[0] == 0 and seen[-1] == 3 and seen == sorted(seen)
