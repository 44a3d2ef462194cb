"""The contamination guard through GraphQL (docs/design.md §4.9): a scoring dataset whose rows duplicate examples
collected through createExample (exactly, with a small edit, with a spelling change only the encoder sees) is
reported and its rows flagged; a second dataset overlaps the first; the leaderboard shows the counts; only the
task's owners read the texts. A round opened from a really retrained model gets its own report."""

import json
import shutil
from pathlib import Path

from tests.api.examples_helpers import NEXT_CONTEXT, current_round, fooling_example, submit, wait_until
from tests.api.models_helpers import create_dataset
from tests.conftest import ROOT, run_sql, seed_builtin_tasks, target_triton

COUNTS = "compared exact nearNgram nearEmbedding rows embeddings"
DATASETS = f"""query($t: String!) {{ datasets(taskCode: $t) {{ id name contamination {{
  computedAt rows method encoder notes
  collected {{ {COUNTS} }} trainingData {{ {COUNTS} }} otherDatasets {{ {COUNTS} }}
  pairs {{ against kind similarity rowUid rowText match matchText }} }} }} }}"""
LEADERBOARD = """query($t: String!) { leaderboard(taskCode: $t) { datasetOverlap {
  datasetId datasetName rowsOverlappingTrainingData rowsDuplicatingCollected computedAt } } }"""

COLLECTED = [
    "The waiter smiled at us the whole evening and brought extra bread for the table.",
    "I waited forty minutes for a cold pizza that had almost no cheese on it.",
    "The hotel room was spotless and the view over the harbour was wonderful tonight.",
    "Our guide spoke so quietly that nobody in the group could follow the tour.",
]
ROWS = [
    # Exact after normalization: case, punctuation and spacing differ.
    {
        "uid": "exact",
        "statement": "THE WAITER smiled at us, the whole evening -- and brought extra bread for the table!",
        "label": "positive",
    },
    # Two words added at the end: 12 of 14 word 3-grams shared (Jaccard 0.86).
    {
        "uid": "edited",
        "statement": "I waited forty minutes for a cold pizza that had almost no cheese on it at all.",
        "label": "negative",
    },
    # One word spelled differently: 3-gram Jaccard 0.57, below 0.7; the encoder sees the same sentence.
    {
        "uid": "respelled",
        "statement": "The hotel room was spotless and the view over the harbor was wonderful tonight.",
        "label": "positive",
    },
    {"uid": "clean1", "statement": "A new cycle lane along the canal opened to commuters last spring.", "label": "neutral"},
    {"uid": "clean2", "statement": "My phone battery died twice before lunch, which is frankly ridiculous.", "label": "negative"},
]


def _jsonl(rows) -> bytes:
    return "\n".join(json.dumps(r) for r in rows).encode()


def _datasets(api, code, token=None):
    return {d["name"]: d for d in api(DATASETS, {"t": code}, token=token)["datasets"]}


def _report(api, code, name, token=None):
    return _datasets(api, code, token)[name]["contamination"]


def test_a_dataset_that_repeats_collected_examples_is_reported_and_flagged(stack, api, admin_token, target_models):
    seed_builtin_tasks()
    author = api.sign_up("author")
    round_id = current_round(api, "sentiment")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    examples = {}
    for text in COLLECTED:
        written = submit(api, author, round_id, context_id, {"statement": text}, label="positive")
        assert written["__typename"] == "ExampleSubmitted", written
        examples[text] = written["example"]["id"]

    created = create_dataset(api, admin_token, "sentiment", "overlapping", _jsonl(ROWS))
    assert created["__typename"] == "DatasetCreated", created
    report = wait_until(lambda: _report(api, "sentiment", "overlapping", admin_token), timeout=300)

    assert report["rows"] == 5
    assert report["encoder"] == f"{target_models['sentiment']} version 1"
    assert report["collected"] == {
        "compared": 4,
        "exact": 1,
        "nearNgram": 1,
        "nearEmbedding": 1,
        "rows": 3,
        "embeddings": True,
    }
    # The stack's version 1 was built from a file the server does not keep (tests/conftest.py): nothing to compare.
    assert report["trainingData"]["compared"] == 0 and report["trainingData"]["rows"] == 0
    assert any("cannot read" in note for note in report["notes"]), report["notes"]
    assert report["otherDatasets"]["compared"] == 0
    assert "3-gram" in report["method"] and "0.98" in report["method"]

    pairs = {p["rowUid"]: p for p in report["pairs"]}
    assert set(pairs) == {"exact", "edited", "respelled"}
    assert {uid: (p["against"], p["kind"]) for uid, p in pairs.items()} == {
        "exact": ("COLLECTED", "EXACT"),
        "edited": ("COLLECTED", "NEAR_NGRAM"),
        "respelled": ("COLLECTED", "NEAR_EMBEDDING"),
    }
    assert pairs["exact"]["similarity"] == 1.0 and pairs["exact"]["matchText"] == COLLECTED[0]
    assert 0.7 <= pairs["edited"]["similarity"] < 1.0 and pairs["edited"]["matchText"] == COLLECTED[1]
    assert 0.98 <= pairs["respelled"]["similarity"] <= 1.0 and pairs["respelled"]["matchText"] == COLLECTED[2]

    # The flags on the stored rows name the example each row duplicates.
    flags = run_sql(
        "SELECT de.uid, de.collected_duplicate->>'example' AS example, de.collected_duplicate->>'kind' AS kind "
        "FROM dataset_examples de JOIN datasets d ON d.id = de.dataset WHERE d.name = 'overlapping' "
        "AND de.collected_duplicate IS NOT NULL ORDER BY de.uid"
    )
    ids = {text: run_sql("SELECT id FROM examples WHERE input->>'statement' = $1", text)[0]["id"] for text in COLLECTED[:3]}
    assert [(f["uid"], int(f["example"]), f["kind"]) for f in flags] == [
        ("edited", ids[COLLECTED[1]], "near_ngram"),
        ("exact", ids[COLLECTED[0]], "exact"),
        ("respelled", ids[COLLECTED[2]], "near_embedding"),
    ]

    # Counts are public; the texts reach only the task's owners and admins.
    public = _report(api, "sentiment", "overlapping")
    assert public["pairs"] is None and public["collected"] == report["collected"]
    assert _report(api, "sentiment", "overlapping", author)["pairs"] is None

    # A second dataset: one row of the first (respelled, so near), one new row; compared with the first dataset too.
    second = [
        {"uid": "again", "statement": "A new cycle lane along the canal opened to commuters last spring!!", "label": "neutral"},
        {"uid": "fresh", "statement": "The museum shop sells postcards of every painting in the east wing.", "label": "neutral"},
    ]
    assert create_dataset(api, admin_token, "sentiment", "second", _jsonl(second))["__typename"] == "DatasetCreated"
    other = wait_until(lambda: _report(api, "sentiment", "second", admin_token), timeout=300)
    assert other["otherDatasets"]["compared"] == 5 and other["otherDatasets"]["exact"] == 1
    assert other["otherDatasets"]["rows"] == 1 and other["collected"]["rows"] == 0
    [pair] = other["pairs"]
    assert pair["against"] == "DATASETS" and pair["rowUid"] == "again" and pair["match"] == "dataset 'overlapping' row clean1"

    board = api(LEADERBOARD, {"t": "sentiment"})["leaderboard"]["datasetOverlap"]
    assert {d["datasetName"]: (d["rowsOverlappingTrainingData"], d["rowsDuplicatingCollected"]) for d in board} == {
        "overlapping": (0, 3),
        "second": (0, 0),
    }


HATE_SEED = ROOT / "server" / "modelbuild" / "seed" / "generated_hate_speech.jsonl"
VALIDATE = "mutation($e: ID!) { validateExample(exampleId: $e, label: CORRECT) { __typename } }"
TRAIN = """mutation($t: String!, $r: [Int!]!) { trainTargetModel(taskCode: $t, fromRounds: $r, profile: FAST) {
  __typename ... on TrainingStarted { run { id } } ... on Error { code message } } }"""
ENDED = ("published", "rejected", "failed", "cancelled")
RUN = "query($r: ID!) { node(id: $r) { ... on TrainingRun { status modelVersion statusLog { message } } } }"
OVERRIDE = """mutation($r: ID!, $why: String!) { overrideTrainingGate(runId: $r, reason: $why) {
  __typename ... on TrainingGateOverridden { run { status } } ... on Error { code message } } }"""
OPEN_NEXT = """mutation($t: String!, $v: String!) { openNextRound(taskCode: $t, modelVersion: $v) {
  __typename ... on NextRoundOpened { round { id number } } ... on Error { code message } } }"""
ROUND = f"""query($r: ID!) {{ node(id: $r) {{ ... on Round {{ contamination {{
  targetModels trainingRows method encoder notes
  datasets {{ datasetName rows trainingData {{ {COUNTS} }} collected {{ {COUNTS} }} }}
  pairs {{ against kind datasetName rowUid match }} }} }} }} }}"""


def test_a_round_opened_from_a_retrained_model_reports_its_training_data(stack, api, admin_token, target_models):
    model = target_models["hate_speech"]
    model_dir: Path = stack.model_repository / model
    seed_builtin_tasks()
    author = api.sign_up("author")
    round_id = current_round(api, "hate_speech")
    context_id = api(NEXT_CONTEXT, {"r": round_id}, token=author)["nextContext"]["id"]
    texts = [f"Everyone who queues politely at the bakery deserves a medal, part {i}." for i in range(3)]
    written = [fooling_example(api, author, round_id, context_id, t, labels=("not_hateful", "hateful")) for t in texts]
    for i in range(3):
        voter = api.sign_up(f"voter{i}")
        for example in written:
            api(VALIDATE, {"e": example["id"]}, token=voter)
    wait_until(lambda: run_sql("SELECT count(*) AS n FROM examples WHERE status = 'validated'")[0]["n"] == 3)

    seed_row = next(json.loads(line) for line in HATE_SEED.open() if '"split": "train"' in line)
    rows = [
        {"uid": "seed", "statement": seed_row["statement"], "label": seed_row["label"]},
        {"uid": "validated", "statement": texts[0].upper(), "label": "not_hateful"},
        {
            "uid": "clean",
            "statement": "The library extends its opening hours during the exam weeks in June.",
            "label": "not_hateful",
        },
    ]
    assert create_dataset(api, admin_token, "hate_speech", "scoring", _jsonl(rows))["__typename"] == "DatasetCreated"
    try:
        started = api(TRAIN, {"t": "hate_speech", "r": [1]}, token=admin_token)["trainTargetModel"]
        assert started["__typename"] == "TrainingStarted", started
        run_id = started["run"]["id"]
        run = wait_until(
            lambda: (r := api(RUN, {"r": run_id}, token=admin_token)["node"])["status"] in ENDED and r,
            timeout=900,
            interval=1.0,
        )
        # Three validated examples are too few for the retraining gate: the owner publishes the version anyway.
        assert run["status"] == "rejected", run["statusLog"]
        why = "Three examples are enough for this check of contamination reports."
        overridden = api(OVERRIDE, {"r": run_id, "why": why}, token=admin_token)["overrideTrainingGate"]
        assert overridden == {"__typename": "TrainingGateOverridden", "run": {"status": "published"}}, overridden
        opened = api(OPEN_NEXT, {"t": "hate_speech", "v": run["modelVersion"]}, token=admin_token)["openNextRound"]
        assert opened["__typename"] == "NextRoundOpened", opened
        report = wait_until(
            lambda: api(ROUND, {"r": opened["round"]["id"]}, token=admin_token)["node"]["contamination"], timeout=600
        )

        assert report["targetModels"] == [f"{model} {run['modelVersion']}"]
        assert report["encoder"] == f"{model} version {run['modelVersion']}"
        assert report["trainingRows"] > 3  # the seed data the recipe draws from, and the validated examples
        [dataset] = report["datasets"]
        assert dataset["datasetName"] == "scoring" and dataset["rows"] == 3
        assert dataset["trainingData"]["exact"] == 2 and dataset["trainingData"]["embeddings"] is True
        assert dataset["collected"]["exact"] == 1
        matched = {(p["against"], p["rowUid"], p["kind"]) for p in report["pairs"] if p["kind"] == "EXACT"}
        assert matched == {("TRAINING", "seed", "EXACT"), ("TRAINING", "validated", "EXACT"), ("COLLECTED", "validated", "EXACT")}
        assert api(ROUND, {"r": opened["round"]["id"]})["node"]["contamination"]["pairs"] is None

        # The dataset's own report is refreshed: its rows now overlap the retrained model's training data.
        def refreshed():
            found = _report(api, "hate_speech", "scoring", admin_token)
            return found if found and found["trainingData"]["exact"] == 2 else None

        assert wait_until(refreshed, timeout=600)["collected"]["exact"] == 1
        board = api(LEADERBOARD, {"t": "hate_speech"})["leaderboard"]["datasetOverlap"]
        assert [(d["datasetName"], d["rowsDuplicatingCollected"]) for d in board] == [("scoring", 1)]
        assert board[0]["rowsOverlappingTrainingData"] >= 2
    finally:
        # Later tests expect version 1 alone.
        for version in [p for p in model_dir.iterdir() if p.is_dir() and p.name.isdigit() and p.name != "1"]:
            shutil.rmtree(version, ignore_errors=True)
        client = target_triton(stack)
        client.load_model(model)
        client.close()


def test_the_seeded_scoring_datasets_get_a_report_from_the_sweep(stack, api, admin_token):
    """`dynabench migrate` seeds each built-in task's scoring dataset without Redis (no job is queued): the worker's
    sweep queues their checks once they are older than its grace period."""
    import asyncio

    from server.evaluation.datasets.seed import seed_scoring_datasets
    from server.tasks.builtin import seed_builtin_tasks as seed_tasks

    asyncio.run(seed_tasks(generative_demo=True))  # as `dynabench up` seeds them: the demo chat task too
    asyncio.run(seed_scoring_datasets())
    codes = ("sentiment", "nli", "hate_speech", "qa", "chat_demo")
    seeded = {code: set(_datasets(api, code, admin_token)) for code in codes}
    assert all(seeded.values()), seeded
    assert run_sql("SELECT count(*) AS n FROM contamination_reports")[0]["n"] == 0
    run_sql("UPDATE datasets SET created_at = created_at - interval '1 hour'")  # past the sweep's grace period
    wait_until(
        lambda: all(
            report["contamination"] is not None for code in seeded for report in _datasets(api, code, admin_token).values()
        ),
        timeout=240,
        interval=2,
    )
    for code in codes[:-1]:
        for report in _datasets(api, code, admin_token).values():
            assert report["contamination"]["rows"] > 0 and report["contamination"]["computedAt"]
    # The generative demo's report (a prompt is no model input, docs/design.md §4.7a) says what it did not compare.
    [chat] = _datasets(api, "chat_demo", admin_token).values()
    notes = " ".join(chat["contamination"]["notes"])
    assert "generative model; its generated training dialogues are not compared" in notes, notes
    assert chat["contamination"]["rows"] == 0 and chat["contamination"]["trainingData"]["compared"] == 0
