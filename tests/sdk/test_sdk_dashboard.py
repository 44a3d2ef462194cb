"""sdk/examples/dashboard.py against the real stack: run as a script for a few seconds while examples are written
through the API, it follows the round live and writes a page holding every round's MER and vMER and the leaderboard."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

from dynabench_client import Client
from tests.api.examples_helpers import current_round, wait_until
from tests.conftest import run_sql, seed_builtin_tasks

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "sdk" / "examples" / "dashboard.py"
# Published, evaluated models on the task's scoring datasets (the evaluation itself is tested in test_sdk_models.py).
MODELS = {"alpha <b>": (90.0, 100.0), "beta": (80.0, 400.0), "gamma": (70.0, 150.0)}  # perf, throughput


def _scored_models() -> None:
    [owner] = run_sql("SELECT id FROM users WHERE username = 'dash-researcher'")
    [task] = run_sql("SELECT id FROM tasks WHERE code = 'sentiment'")
    datasets = [r["id"] for r in run_sql("SELECT id FROM datasets WHERE task = $1 AND access = 'scoring'", task["id"])]
    if not datasets:
        datasets = [
            r["id"]
            for r in run_sql(
                "INSERT INTO datasets (task, round, name, access, weight, created_at) "
                "VALUES ($1, NULL, 'dash-slice', 'scoring', 1, now()) RETURNING id",
                task["id"],
            )
        ]
    for name, (perf, throughput) in MODELS.items():
        [model] = run_sql(
            "INSERT INTO models (task, owner, name, card, status, status_log, triton_name, triton_version, published, "
            "anonymous, created_at) VALUES ($1, $2, $3, '{}', 'evaluated', '[]', '', '', true, false, now()) RETURNING id",
            task["id"],
            owner["id"],
            name,
        )
        for dataset in datasets:
            run_sql(
                "INSERT INTO scores (model, dataset, perf, perf_by_tag, throughput, memory_gb, robustness, fairness, created_at) "
                "VALUES ($1, $2, $3, '{}', $4, 1.0, 0.8, 0.8, now())",
                model["id"],
                dataset,
                perf,
                throughput,
            )


def _dashboard(stack, token: str, output: Path, *options: str) -> subprocess.Popen:
    env = {**os.environ, "DYNABENCH_TOKEN": token, "PYTHONPATH": os.pathsep.join([str(ROOT / "sdk"), str(ROOT)])}
    command = [sys.executable, str(DASHBOARD), "--api", stack.api_url, "--task", "sentiment", "--output", str(output)]
    return subprocess.Popen([*command, *options], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _data(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="dashboard-data">(.*?)</script>', page, flags=re.DOTALL)
    assert found, page[:500]
    return json.loads(found.group(1))


def test_the_dashboard_follows_a_task_live_and_draws_rounds_and_leaderboard(stack, api, target_models, tmp_path):
    seed_builtin_tasks()
    author = api.sign_up("dash-researcher")
    _scored_models()
    round_id = current_round(api, "sentiment")
    context_id = api("query($r: ID!) { nextContext(roundId: $r) { id } }", {"r": round_id}, token=author)["nextContext"]["id"]
    output = tmp_path / "dashboard.html"
    process = _dashboard(stack, author, output, "--duration", "25", "--interval", "2")
    try:
        # The first live update is written (a positive signal, polled by the suite's helper).
        first = wait_until(lambda: output.exists() and _data(output.read_text()).get("live_updates", 0) >= 1, timeout=60)
        assert first
        before = _data(output.read_text())
        assert [r["collected"] for r in before["rounds"]] == [0]
        with Client(stack.api_url, author, progress=False) as writer:
            texts = ["The soup was cold and bland.", "Lovely staff, great coffee.", "It was a restaurant."]
            examples = [{"context_id": context_id, "fields": {"statement": t}, "label": "positive"} for t in texts]
            assert all(o.error is None for o in writer.create_examples(round_id, examples))
        out, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert f"wrote {output}" in out

    page = output.read_text()
    data = _data(page)
    with Client(stack.api_url, author, progress=False) as reader:
        state = reader.round_state(round_id)
        board = reader.leaderboard("sentiment")
    [round_] = data["rounds"]
    assert (round_["id"], round_["number"], round_["collected"]) == (round_id, 1, 3)
    assert (round_["fooled"], round_["mer"], round_["vmer"]) == (state.total_fooled, state.mer, state.vmer)
    assert round_["mer"] == round_["fooled"] / 3 and data["mer"] == round_["mer"]
    assert data["live_updates"] >= 2  # the first state, then the change pushed by the subscription
    assert [(e["rank"], e["model"], e["dynascore"]) for e in data["leaderboard"]] == [
        (e.rank, e.model, e.dynascore) for e in board.entries
    ]
    assert sorted(e["model"] for e in data["leaderboard"]) == sorted(MODELS)
    # Drawn: a MER and a vMER bar for round 1, a Dynascore bar and a table row per model (names escaped).
    assert 'class="mer" data-round="1"' in page and 'class="vmer" data-round="1"' in page
    assert page.count('class="dynascore"') == 3 and "alpha <b>" not in page
    assert unescape(page).count("alpha <b>") >= 2  # its bar label and its table row
    assert "round 1" in page and f"{round_['fooled']}/3 fooled" in page


def test_the_dashboard_writes_an_svg_and_refuses_bad_options(stack, api, tmp_path):
    seed_builtin_tasks()
    token = api.sign_up("dash-viewer")
    image = tmp_path / "board.svg"
    done = _dashboard(stack, token, image, "--duration", "1")
    out, err = done.communicate(timeout=120)
    assert f"wrote {image}" in out
    assert done.returncode == 0, err
    svg = image.read_text()
    assert svg.startswith("<svg") and "sentiment: MER and vMER per round" in svg and 'data-round="1"' in svg
    assert "no ranked models yet" in svg

    bad = _dashboard(stack, token, tmp_path / "board.png", "--duration", "1")
    _, err = bad.communicate(timeout=60)
    assert bad.returncode == 2 and "--output must end in .html or .svg" in err
    missing = subprocess.run(
        [
            sys.executable,
            str(DASHBOARD),
            "--api",
            stack.api_url,
            "--task",
            "no-such-task",
            "--output",
            str(tmp_path / "x.html"),
            "--duration",
            "5",
        ],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "sdk"), str(ROOT)])},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert missing.returncode == 1 and "no task 'no-such-task'" in missing.stderr
