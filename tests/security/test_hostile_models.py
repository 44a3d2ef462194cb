"""Hostile submissions (issue #15): each uploaded through the real uploadModel into the real sandboxed submissions
Triton, and each contained: its status ends failed with a log a researcher can read (probes: every attempt
BLOCKED), no secret reaches that log, nothing of it keeps running, and meanwhile the API's /health stays ok and a
benign submission uploaded first stays ready and keeps answering.

Models: tests/security/hostile/models/*.py. The three whose code never returns are bounded by the worker's
timeouts: the module's jobs run on a worker of their own with short ones (hostile/__init__.py WORKER_TIMEOUTS;
the session's worker keeps its generous ones): on timeout the worker has the sandbox agent kill the model's
processes, then unloads it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import uuid
from pathlib import Path

import numpy as np
import psutil
import pytest
from tritonclient.http import InferInput
from tritonclient.utils import InferenceServerException

from server.sandbox.bwrap import SandboxLimits, python_roots
from tests.api.examples_helpers import wait_until
from tests.api.models_helpers import create_dataset
from tests.conftest import (
    TABLES,
    GraphQLClient,
    clear_job_queue,
    clear_rate_limits,
    run_sql,
    seed_builtin_tasks,
    submissions_triton,
    worker_with,
)
from tests.security.hostile import (
    TERMINAL,
    WORKER_TIMEOUTS,
    Arena,
    Hammer,
    Submitted,
    archive,
    probe_results,
    processes_with,
    service_addresses,
    timeout_setting,
)

REFUSED = "Triton refused to load the model: "
SENTIMENT = ("negative", "positive", "neutral")


@pytest.fixture(scope="module")
def hostile_worker(stack):
    """The module's jobs run on a worker with short timeouts (WORKER_TIMEOUTS); the session's comes back after."""
    with worker_with(stack, WORKER_TIMEOUTS) as log_path:
        yield log_path


@pytest.fixture(scope="module")
def arena(stack, hostile_worker):
    """Clean tables once, one researcher, and the benign submission every hostile test checks on."""
    clear_job_queue()
    clear_rate_limits()
    run_sql(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")
    seed_builtin_tasks()
    api = GraphQLClient(stack.api_url)
    # A scoring dataset, so that submissions which pass the smoke test are evaluated too.
    rows = [{"uid": f"h{i}", "statement": f"Statement number {i}.", "label": SENTIMENT[i % 3]} for i in range(40)]
    admin = api.sign_up("hostile-admin")
    run_sql("UPDATE users SET is_admin = true WHERE username = 'hostile-admin'")
    create_dataset(api, admin, "sentiment", "hostile-scoring", "\n".join(map(json.dumps, rows)).encode())
    arena = Arena(stack, api, api.sign_up("hostile-researcher"))
    arena.benign_marker = f"BENIGN-{uuid.uuid4().hex}"
    benign = archive("benign", {}, name="benign", replace={"BENIGN-MARKER-PLACEHOLDER": arena.benign_marker})
    arena.benign = arena.upload("benign", benign)
    wait_until(lambda: arena.status(arena.benign)["status"] in ("evaluated", "failed"), timeout=arena.deploy_guard, interval=0.5)
    assert arena.status(arena.benign)["status"] == "evaluated", arena.status(arena.benign)
    arena.assert_platform_serves()
    yield arena
    try:
        submissions_triton(stack).unload_model(arena.benign.triton_name)
    finally:
        api.http.close()


def contained(arena: Arena, model: Submitted, until: tuple[str, ...] = TERMINAL) -> str:
    """The checks every case ends with; returns the failure message of the model's status log."""
    message = arena.failure(model, until)
    arena.wait_code_gone(model)
    arena.assert_platform_serves()
    arena.assert_no_secret_in(*(entry["message"] or "" for entry in arena.status(model)["statusLog"]))
    arena.assert_no_secret_in(arena.stack.logs.joinpath("triton-submissions.log").read_text(errors="replace"))
    return message


def assert_all_blocked(message: str, expected: set[str]) -> None:
    assert message.startswith(REFUSED) and "PROBE-REPORT " in message, message
    results = probe_results(message)
    assert expected <= set(results), f"probes missing from the report: {sorted(expected - set(results))}: {message}"
    opened = {name: outcome for name, outcome in results.items() if outcome != "BLOCKED"}
    assert not opened, f"the sandbox let these through: {sorted(opened)}: {message}"


def secret_hashes(arena: Arena) -> list[str]:
    return [hashlib.sha256(secret.encode()).hexdigest() for secret in arena.secrets()]


def test_secrets_system_files_and_other_submissions_are_out_of_reach(arena, stack):
    params = {
        "secrets_path": str(stack.data_dir / "secrets.json"),
        "data_dir": str(stack.data_dir),
        "model_store": os.environ["MODEL_STORE_DIR"],
        "benign_marker": arena.benign_marker,
        "secret_hashes": secret_hashes(arena),
        "system_trees": [str(root) for root in python_roots()],
    }
    model = arena.upload("reads", archive("probe_reads", params))
    message = contained(arena, model)
    assert_all_blocked(
        message,
        {
            "secrets-file",
            "data-dir",
            "model-store",
            "etc-shadow",
            "proc",
            "proc-1-environ",
            "run",
            "tmp",
            "relay-socket",
            "dev-shm",
            "environment",
            "other-model-files",
            "other-submissions-and-secrets",
        },
    )
    assert arena.benign_marker not in message


def test_the_platforms_services_and_the_sandboxs_control_api_are_unreachable(arena, stack):
    targets = service_addresses(stack)
    params = {
        "tcp_targets": targets,
        "benign_name": arena.benign.triton_name,
        "host_socket": stack.triton_submissions.socket_path,
        "host_stats_socket": stack.triton_submissions.stats_path,
    }
    model = arena.upload("network", archive("probe_network", params))
    message = contained(arena, model)
    assert_all_blocked(
        message,
        {
            *targets,
            "dns",
            "internet",
            "own-triton-unload",
            "own-triton-replace",
            "relay-socket-unload",
            "relay-socket-replace",
            "host-relay-socket-unload",
            "host-relay-socket-replace",
            "stats-socket",
            "host-stats-socket",
        },
    )


def test_writes_outside_its_private_tmp_are_refused_and_nothing_appears(arena, stack):
    marker = f"hostile-write-{uuid.uuid4().hex}"
    run_dir = Path(stack.triton_submissions.run_dir)
    params = {
        "marker": marker,
        "venv": sys.prefix,
        "data_dir": str(stack.data_dir),
        "model_store": os.environ["MODEL_STORE_DIR"],
        "host_run_dir": str(run_dir),
    }
    model = arena.upload("writes", archive("probe_writes", params))
    message = contained(arena, model)
    assert_all_blocked(
        message,
        {
            "model-version-dir",
            "model-dir",
            "usr",
            "usr-lib",
            "etc",
            "sandbox",
            "sandbox-backends",
            "sandbox-backend-stub-dir",
            "venv",
            "host-data-dir",
            "host-model-store",
            "host-sandbox-run",
            "run-dynabench",
            "chmod-own-code",
        },
    )
    # The host's side: no such file in the data folder, the system, the venv, the relay's folder, nor in what the
    # sandbox's Triton sees (its /sandbox and its /tmp, where the models' folders are).
    assert not list(stack.data_dir.rglob(f"*{marker}*"))
    assert not list(run_dir.rglob(f"*{marker}*"))
    for folder in ("/usr", "/usr/lib", "/etc", sys.prefix):
        assert not (Path(folder) / marker).exists()
    tritons = [p for p in arena.sandbox_processes() if p.name() == "tritonserver"]
    assert tritons, "the sandboxed tritonserver process was not found"
    seen_by_triton = Path(f"/proc/{tritons[0].pid}/root")
    for folder in ("sandbox", "tmp"):
        assert not list((seen_by_triton / folder).rglob(f"*{marker}*"))


def test_huge_outputs_are_cut_and_fail_the_smoke_test(arena, stack):
    log = stack.logs / "triton-submissions.log"
    cuts_before = log.read_text(errors="replace").count("sandbox agent: refused a ")
    model = arena.upload("huge", archive("huge_output", {}))
    message = contained(arena, model)
    assert message.startswith("Smoke test failed: ") and "stopped in the sandbox: oversize output" in message, message
    # The sandbox's relay cut the response (more than the limit), not something else along the way.
    cuts = re.findall(r"sandbox agent: refused a (\d+)-byte response \(limit (\d+)\)", log.read_text(errors="replace"))
    assert len(cuts) > cuts_before and int(cuts[-1][0]) > int(cuts[-1][1]), cuts
    assert int(cuts[-1][1]) == SandboxLimits.from_env().max_response_bytes


def test_a_daemon_dies_with_its_model(arena):
    marker = f"hostile-daemon-{uuid.uuid4().hex}"
    model = arena.upload("daemon", archive("daemon", {"marker": marker}))
    message = contained(arena, model)
    # The smoke test saw the daemon running (the label is not a sentiment label, so the model failed) ...
    assert message.startswith("Smoke test failed: ") and "daemon-alive" in message, message
    # ... and after the worker unloaded the model, no process on this machine carries the daemon's marker.
    wait_until(lambda: not processes_with(marker), timeout=180, interval=0.5)


def test_a_fork_bomb_is_capped_and_cleaned_up(arena):
    model = arena.upload("forkbomb", archive("fork_bomb", {}))
    message = contained(arena, model)
    assert message.startswith(REFUSED), message
    assert "fork refused: never" not in message, message


def test_a_memory_bomb_is_stopped_at_the_sandboxs_limit(arena):
    limit = SandboxLimits.from_env().memory_bytes
    target = (limit or psutil.virtual_memory().total) + (1 << 30)
    model = arena.upload("memorybomb", archive("memory_bomb", {"target_bytes": target}))
    message = contained(arena, model)
    assert message.startswith(REFUSED), message
    assert "NOT STOPPED" not in message, message
    # The agent stops it at the per-model limit (half the sandbox's) and says so.
    assert "memory limit" in message, message


def test_sleeping_past_the_smoke_test_timeout_fails_the_model(arena):
    model = arena.upload("sleeper", archive("sleep_execute", {}))
    message = contained(arena, model)
    smoke = timeout_setting("SMOKE_TEST_TIMEOUT_S", 120)
    assert message.startswith("Smoke test failed: ") and f"did not answer within {smoke:g} s" in message, message


def test_a_cpu_spin_in_execute_fails_the_smoke_test(arena):
    model = arena.upload("spinexec", archive("spin_execute", {}))
    message = contained(arena, model)
    smoke = timeout_setting("SMOKE_TEST_TIMEOUT_S", 120)
    assert message.startswith("Smoke test failed: ") and f"did not answer within {smoke:g} s" in message, message


def test_a_cpu_spin_in_initialize_fails_the_load(arena):
    model = arena.upload("spininit", archive("spin_initialize", {}))
    message = contained(arena, model)
    assert message.startswith("Triton did not load the model"), message


def test_sleeping_through_the_evaluation_fails_the_model(arena):
    model = arena.upload("slowpoke", archive("sleep_evaluation", {}))
    message = contained(arena, model, until=("evaluated", "failed"))
    batch = timeout_setting("EVALUATION_BATCH_TIMEOUT_S", 300)
    assert message.startswith("Evaluation failed: ") and f"did not answer within {batch:g} s" in message, message
    assert any(entry["message"].startswith("Smoke test passed") for entry in arena.status(model)["statusLog"])


# Per-submission isolation (issue #28): every model has its own Triton in the sandbox.


@pytest.fixture(scope="module")
def healthy(arena) -> list[Submitted]:
    """Two more well-behaved submissions beside the arena's benign one: the three that must keep answering."""
    models = [arena.upload(f"healthy{i}", archive("benign", {}, name=f"healthy{i}")) for i in range(2)]
    for model in models:
        wait_until(lambda m=model: arena.status(m)["status"] in ("evaluated", "failed"), timeout=arena.deploy_guard, interval=0.5)
        assert arena.status(model)["status"] == "evaluated", arena.status(model)
    return [arena.benign, *models]


def test_a_model_that_breaks_its_shared_memory_takes_down_only_its_own_triton(arena, healthy):
    with Hammer(arena, healthy) as hammer:
        model = arena.upload("shmcorrupt", archive("shm_corrupt", {}))
        message = contained(arena, model, until=("evaluated", "failed"))
    # It passed its smoke test, broke its region during the evaluation; the sandbox stopped it and says how (its
    # stub, or its own Triton, aborted on the broken region).
    assert message.startswith("Evaluation failed: the sandbox stopped the model: ") and "(SIGABRT)" in message, message
    assert hammer.calls > 0 and hammer.errors == [], (hammer.calls, hammer.errors[:3])
    print(f"\nhealthy submissions during the attack: {hammer.calls} answers, {len(hammer.errors)} errors")


def test_a_crash_in_the_models_code_is_named(arena):
    model = arena.upload("segfault", archive("crash_execute", {"always": True}))
    message = contained(arena, model)
    assert message.startswith("Smoke test failed: ") and "crashed (SIGSEGV)" in message, message


def test_a_model_that_crashes_while_serving_is_marked_failed_and_stays_unloaded(arena, stack):
    model = arena.upload("latecrash", archive("crash_execute", {}))
    assert arena.settle(model, ("evaluated", "failed"))["status"] == "evaluated"
    statement = InferInput("statement", [1, 1], "BYTES")
    statement.set_data_from_numpy(np.array([[b"CRASH-NOW"]], dtype=np.object_))
    with pytest.raises(InferenceServerException) as crashed:
        submissions_triton(stack).infer(model.triton_name, [statement])
    assert "stopped in the sandbox: its code crashed (SIGSEGV)" in str(crashed.value)
    # The worker's sweep (keep_round_targets_loaded) marks it failed with the reason; nothing loads it again.
    message = contained(arena, model, until=("failed",))
    assert message.startswith("Stopped in the sandbox: its code crashed (SIGSEGV)."), message
    assert not submissions_triton(stack).is_model_ready(model.triton_name)


def test_malformed_outputs_during_the_evaluation_fail_the_model_at_once(arena):
    model = arena.upload("malformed", archive("malformed_evaluation", {}))
    message = contained(arena, model, until=("evaluated", "failed"))
    assert message.startswith("Evaluation failed: ") and "do not follow the task's contract" in message, message
    assert not any("attempt 2" in entry["message"] for entry in arena.status(model)["statusLog"])


def test_an_evaluation_that_loses_answers_is_tried_again_and_then_ends(arena):
    # One error (the second request: the first evaluation batch): the second attempt completes the evaluation.
    recovered = arena.upload("flakyonce", archive("flaky_evaluation", {"fail_calls": [2]}))
    assert arena.settle(recovered, ("evaluated", "failed"))["status"] == "evaluated"
    log = [entry["message"] for entry in arena.status(recovered)["statusLog"]]
    assert any(m.startswith("Evaluation interrupted: ") and "attempt 2 of 3" in m for m in log), log
    # Errors every time: three attempts, then failed with the reason, and its processes released.
    broken = arena.upload("flakyalways", archive("flaky_evaluation", {"fail_calls": "all"}))
    message = contained(arena, broken, until=("evaluated", "failed"))
    assert message.startswith("Evaluation failed after 3 attempt(s): ") and "FLAKY call" in message, message


def test_a_model_flooding_its_output_fills_only_its_bounded_log(arena, stack):
    limits = SandboxLimits.from_env()
    agent_log = stack.logs / "triton-submissions.log"
    agent_log_before = agent_log.stat().st_size
    model = arena.upload("flood", archive("log_flood", {"megabytes": 3 * limits.logs_total_bytes >> 20}))
    message = contained(arena, model)
    logs = Path(stack.triton_submissions.run_dir) / "logs"
    own = [path for path in logs.iterdir() if path.name.startswith(model.triton_name)]
    assert own and sum(p.stat().st_size for p in own) <= 2 * limits.model_log_bytes, own
    assert sum(p.stat().st_size for p in logs.iterdir()) <= limits.logs_total_bytes + limits.model_log_bytes
    assert agent_log.stat().st_size - agent_log_before < 1 << 20  # the agent's own log says only what happened
    # The researcher reads the end of the output, bounded and escaped, beside the failure.
    assert "The end of its output: " in message and "LAST-WORDS: the flood is over" in message, message
    assert len(message) < 1500 and "\n" not in message, message
