"""The sandbox's first process: the door to the submissions' Tritons, one per model (issue #28).

Runs inside the sandbox (bubblewrap locally, the submissions container in compose) with the standard
library only, so it can be copied into any image (run as ``python -I <this folder>``). It

* copies the python backend into a writable folder, with the stub replaced by ``stub_launcher.sh``
  (Triton insists on chmod-ing the stub, and every stub must start in its own nested sandbox);
* reads the model-control key from stdin (never argv or the environment, which models could read
  through /proc); every model's ``tritonserver`` restricts the model-repository and model-config APIs
  to requests that carry it;
* starts one ``tritonserver`` per loaded model (instances.py): its own process group, its own
  shared-memory regions, its output in a bounded log of its own (logs.py); a model that crashes, breaks
  its shared memory, outgrows the per-model memory limit or whose code the kernel kills is stopped and
  its reason kept for the host, which marks it failed; nothing is started again unless the host loads it;
* serves Triton's HTTP API on ``--listen`` (a unix socket in a folder shared with the host, or a TCP port
  on compose's sandbox network), each request relayed to the Triton of the model it names (relay.py);
  responses larger than ``--max-response-bytes`` are refused with a message; the generate extension's streams
  (``POST .../generate_stream``, chunked) pass chunk by chunk as they are generated, bounded by the same limit
  (chunked.py);
* answers the agent's own questions on ``--stats-listen`` (relay.py ``stats_handler``);
* removes the folders Triton writes loaded models' files into once no model uses them (sweep.py).

It runs until SIGTERM, then stops every model's Triton.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import sys
from pathlib import Path

try:
    from .instances import STUB_EXITS, InstanceLimits, Instances
    from .processes import STUB
    from .relay import CONTROL_HEADER, Router, stats_handler
    from .sweep import sweep_forever
except ImportError:  # run as the folder /sandbox/agent, where the siblings are top-level modules
    from instances import STUB_EXITS, InstanceLimits, Instances  # type: ignore[no-redef]
    from processes import STUB  # type: ignore[no-redef]
    from relay import CONTROL_HEADER, Router, stats_handler  # type: ignore[no-redef]
    from sweep import sweep_forever  # type: ignore[no-redef]

RESTRICTED_APIS = "model-repository,model-config,shared-memory,trace,logging"


def parse_address(value: str) -> tuple[str, str | tuple[str, int]]:
    if value.startswith("unix:"):
        return "unix", value[len("unix:") :]
    if value.startswith("tcp:"):
        host, _, port = value[len("tcp:") :].rpartition(":")
        return "tcp", (host, int(port))
    raise argparse.ArgumentTypeError(f"expected unix:PATH or tcp:HOST:PORT, got {value!r}")


def prepare_backend(source: Path, launcher: Path, target: Path) -> None:
    """The python backend in a folder Triton may chmod in, its stub replaced by a shim.

    Triton chmods the stub to 0100 (execute only) before each launch, so the stub cannot be a script
    its interpreter must read. The shim is a shebang line only: the kernel runs
    ``/bin/sh <launcher> <shim path> <stub arguments>`` and the launcher starts the real stub (left
    read-only in ``source``) in its nested sandbox.
    """
    python = target / "python"
    python.mkdir(parents=True, exist_ok=True)
    for item in source.iterdir():
        if item.is_file() and item.name != STUB:  # not __pycache__ (the target Triton's stubs write one)
            shutil.copy(item, python / item.name)
    shim = python / STUB
    shim.write_text(f"#!/bin/sh {launcher}\n")
    shim.chmod(0o755)


async def serve(address: str, handler) -> asyncio.base_events.Server:
    kind, where = parse_address(address)
    if kind == "unix":
        assert isinstance(where, str)
        server = await asyncio.start_unix_server(handler, where)
        os.chmod(where, 0o660)
        return server
    assert isinstance(where, tuple)
    return await asyncio.start_server(handler, where[0], where[1])


def triton_argv(args: argparse.Namespace, key: str) -> list[str]:
    """Every model's tritonserver command line but its port and shared-memory prefix (instances.py adds them)."""
    return [
        *args.triton,
        *([f"--backend-directory={args.backends_dir}"] if args.backend_source else []),
        "--http-address=127.0.0.1",
        f"--http-restricted-api={RESTRICTED_APIS}:{CONTROL_HEADER}={key}",
        "--allow-grpc=false",
    ]


async def run(args: argparse.Namespace, key: str) -> int:
    limits = InstanceLimits(
        memory_bytes=args.model_memory_bytes,
        sandbox_memory_bytes=args.sandbox_memory_bytes,
        log_bytes=args.model_log_bytes,
        logs_total_bytes=args.logs_total_bytes,
    )
    instances = Instances(triton_argv(args, key), Path(args.log_dir), limits)
    router = Router(instances, key, args.max_response_bytes)
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopped.set)
    servers = [await serve(args.listen, router.serve)]
    if args.stats_listen:
        servers.append(await serve(args.stats_listen, stats_handler(instances, key)))
    tasks = [asyncio.ensure_future(instances.watch_limits())]
    if args.scratch_dir:
        tasks.append(
            asyncio.ensure_future(sweep_forever(instances.port_of, args.scratch_dir, args.sweep_every_s, args.sweep_grace_s))
        )
    await stopped.wait()
    for server in servers:
        server.close()
    for task in tasks:
        task.cancel()
    await instances.stop_all()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", required=True, help="unix:PATH or tcp:HOST:PORT: Triton's HTTP API")
    parser.add_argument("--stats-listen", default="", help="unix:PATH or tcp:HOST:PORT: the agent's own questions")
    parser.add_argument("--max-response-bytes", type=int, default=64 << 20, help="larger responses are refused")
    parser.add_argument("--model-memory-bytes", type=int, default=0, help="one model's processes; 0: no own limit")
    parser.add_argument("--sandbox-memory-bytes", type=int, default=0, help="the sandbox's limit (said in messages)")
    parser.add_argument("--log-dir", default="/tmp/model-logs", help="each model's Triton output, bounded")
    parser.add_argument("--model-log-bytes", type=int, default=1 << 20, help="one model's log before it rotates")
    parser.add_argument("--logs-total-bytes", type=int, default=64 << 20, help="every model's logs together")
    # Without these three (compose, where Docker's seccomp profile forbids nested namespaces) the
    # image's own python backend runs the stubs directly, inside the container's limits.
    parser.add_argument("--backend-source", default="", help="the python backend folder to copy")
    parser.add_argument("--launcher", default="", help="stub_launcher.sh: one nested sandbox per stub")
    parser.add_argument("--backends-dir", default="", help="a writable folder for the backend copy")
    parser.add_argument("--scratch-dir", default="/tmp", help="where Triton writes loaded models' files; empty: no sweep")
    parser.add_argument("--sweep-every-s", type=float, default=30.0, help="how often unused model folders are removed")
    parser.add_argument("--sweep-grace-s", type=float, default=120.0, help="a folder younger than this is kept")
    parser.add_argument("triton", nargs="+", help="after --: tritonserver and its arguments")
    args = parser.parse_args()
    key = sys.stdin.readline().strip()
    if not key:
        print("sandbox agent: no model-control key on stdin", file=sys.stderr)
        return 2
    if args.backend_source:
        prepare_backend(Path(args.backend_source), Path(args.launcher), Path(args.backends_dir))
    for arg in args.triton:  # explicit model control: an empty repository in the sandbox's private /tmp
        if arg.startswith("--model-repository="):
            Path(arg.split("=", 1)[1]).mkdir(parents=True, exist_ok=True)
    for address in (args.listen, args.stats_listen):
        if address.startswith("unix:"):
            Path(address[len("unix:") :]).unlink(missing_ok=True)
    STUB_EXITS.mkdir(parents=True, exist_ok=True)
    return asyncio.run(run(args, key))


if __name__ == "__main__":
    sys.exit(main())
