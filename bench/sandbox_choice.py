"""One sandboxed Triton shared by every submission (model control restricted by a key) versus one
sandboxed Triton per submission, measured (issue #15 asks for the choice to be measured).

Against the raw baseline, an unsandboxed Triton, in the same run:

* start: seconds until Triton is live (the per-submission design pays it for every upload);
* idle memory: resident memory of the whole process tree with no model (paid per submission);
* load: seconds to load one small python-backend model, and the memory it adds;
* inference: p50/p99 latency and throughput of one-row requests (the sandbox adds the relay and the
  nested stub sandbox).

Run: `.venv/bin/python -m bench.sandbox_choice [--requests 300]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import tempfile
import time
from pathlib import Path

import numpy as np
import psutil
import tritonclient.http as triton_http

from bench.common import Measurement
from server.core.triton_clients import triton_client
from server.runtime import LocalTriton, prepare_triton_runtime
from server.runtime.sandboxed_triton import SandboxedTriton
from server.runtime.triton import restricted_control
from server.sandbox.bwrap import SandboxLimits

CONFIG = {
    "backend": "python",
    "max_batch_size": 0,
    "input": [{"name": "INPUT0", "data_type": "TYPE_STRING", "dims": [-1]}],
    "output": [{"name": "OUTPUT0", "data_type": "TYPE_STRING", "dims": [-1]}],
    "instance_group": [{"kind": "KIND_CPU", "count": 1}],
}
ECHO = b"""
import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        return [pb_utils.InferenceResponse([pb_utils.Tensor("OUTPUT0", pb_utils.get_input_tensor_by_name(r, "INPUT0").as_numpy())])
                for r in requests]
"""


def tree_rss_mb(pid: int) -> float:
    root = psutil.Process(pid)
    total = 0
    for process in [root, *root.children(recursive=True)]:
        try:
            total += process.memory_info().rss
        except psutil.NoSuchProcess:
            continue
    return total / 2**20


async def load_and_ask(url: str, key: str, name: str, requests: int) -> tuple[float, Measurement]:
    client = triton_client(url, key)
    try:
        started = time.perf_counter()
        await client.load_model(name, config=json.dumps({**CONFIG, "name": name}), files={"file:1/model.py": ECHO})
        load_s = time.perf_counter() - started
        latencies = []
        wall = time.perf_counter()
        for _ in range(requests):
            tensor = triton_http.InferInput("INPUT0", [1], "BYTES")
            tensor.set_data_from_numpy(np.array([b"a fine day"], dtype=object))
            t0 = time.perf_counter()
            await client.infer(name, [tensor])
            latencies.append((time.perf_counter() - t0) * 1000)
        return load_s, Measurement(name, 1, latencies, time.perf_counter() - wall)
    finally:
        await client.close()


def measure(kind: str, server, url: str, key: str, requests: int) -> dict:
    started = time.perf_counter()
    server.start()
    start_s = time.perf_counter() - started
    pid = server.pid
    assert pid is not None
    idle = tree_rss_mb(pid)
    cpu = psutil.Process(pid)
    cpu_before = sum(p.cpu_times().user + p.cpu_times().system for p in [cpu, *cpu.children(recursive=True)])
    load_s, latency = asyncio.run(load_and_ask(url, key, f"echo_{kind}", requests))
    cpu_after = sum(p.cpu_times().user + p.cpu_times().system for p in [cpu, *cpu.children(recursive=True)])
    loaded = tree_rss_mb(pid)
    server.stop()
    return {
        "kind": kind,
        "start_s": start_s,
        "idle_mb": idle,
        "load_s": load_s,
        "model_mb": loaded - idle,
        "latency": latency,
        "cpu_ms_per_request": (cpu_after - cpu_before) * 1000 / requests,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    key = secrets.token_urlsafe(24)
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        runtime = prepare_triton_runtime(base / "runtime")
        (base / "repo").mkdir()
        raw = LocalTriton(runtime, base / "repo", log_path=base / "raw.log", extra_args=restricted_control(key))
        baseline = measure("raw", raw, raw.http_url, key, args.requests)
        sandboxed = SandboxedTriton(runtime, base / "state", key, limits=SandboxLimits.from_env())
        boxed = measure("sandboxed", sandboxed, sandboxed.url, key, args.requests)
    print("| Triton | start s | idle MB | load s | model MB | p50 ms | p99 ms | req/s | CPU ms/req |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in (baseline, boxed):
        m = row["latency"]
        print(
            f"| {row['kind']} | {row['start_s']:.2f} | {row['idle_mb']:.0f} | {row['load_s']:.2f} | {row['model_mb']:.0f} | "
            f"{m.p50:.2f} | {m.p99:.2f} | {m.throughput:.0f} | {row['cpu_ms_per_request']:.2f} |"
        )
    shared = boxed["load_s"], boxed["model_mb"]
    per_submission = boxed["start_s"] + boxed["load_s"], boxed["idle_mb"] + boxed["model_mb"]
    print()
    print("| design | per upload: s until loaded | per submission: resident MB |")
    print("|---|---|---|")
    print(f"| one sandboxed Triton, key-restricted control (chosen) | {shared[0]:.2f} | {shared[1]:.0f} |")
    print(f"| one sandboxed Triton per submission | {per_submission[0]:.2f} | {per_submission[1]:.0f} |")


if __name__ == "__main__":
    main()
