"""The sandbox's first process: starts the submissions Triton inside the sandbox and is its only door.

Runs inside the sandbox (bubblewrap locally, the submissions container in compose) with the standard
library only, so it can be copied into any image. It

* copies the python backend into a writable folder, with the stub replaced by ``stub_launcher.sh``
  (Triton insists on chmod-ing the stub, and every stub must start in its own nested sandbox);
* reads the model-control key from stdin (never argv or the environment, which models could read
  through /proc) and starts ``tritonserver`` with the model-repository and model-config APIs
  restricted to requests that carry it;
* relays every connection on ``--listen`` (a unix socket in a folder shared with the host, or a TCP
  port on compose's sandbox network) byte for byte to Triton's HTTP port on the sandbox's own
  loopback, which nothing outside can reach;
* answers ``GET /memory/<model>`` on ``--stats-listen``: the peak resident memory of the model's
  stub processes, measured here, where they are visible (docs/design.md §4, memory); and
  ``POST /kill/<model>`` (with the key): kills a model's stub processes, stuck or not.

It exits with Triton's exit code when Triton exits, and stops Triton on SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import hmac
import json
import os
import re
import shutil
import signal
import sys
import urllib.parse
from pathlib import Path

CONTROL_HEADER = "dynabench-control-key"
RESTRICTED_APIS = "model-repository,model-config,shared-memory,trace,logging"
STUB = "triton_python_backend_stub"
PIPE_CHUNK = 1 << 16
INSTANCE_SUFFIX = re.compile(r"[0-9]+_[0-9]+")


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


def _instance_of(model: str, argv: list[bytes]) -> bool:
    """Whether a process serves ``model``: the stub, its launcher and its bwraps all carry the instance
    name (``<model>_<n>_<m>``) as an argument."""
    for arg in argv:
        name = arg.decode(errors="replace")
        if name.startswith(f"{model}_") and INSTANCE_SUFFIX.fullmatch(name[len(model) + 1 :]):
            return True
    return False


def model_processes(model: str) -> list[tuple[int, list[bytes]]]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(pid) != os.getpid() and _instance_of(model, argv):
            found.append((int(pid), argv))
    return found


def stub_peak_bytes(model: str) -> int:
    """Sum of VmHWM over the stub processes serving ``model``."""
    peak = 0
    for pid, argv in model_processes(model):
        if not argv[0].endswith(STUB.encode()):
            continue
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak += int(line.split()[1]) * 1024
        except (OSError, ValueError):
            continue
    return peak


def kill_model(model: str) -> int:
    """SIGKILL every process of ``model``'s instances (their nested sandboxes die with them): the way
    out for code stuck in initialize or execute, which Triton waits for before it can unload."""
    killed = 0
    for pid, _argv in model_processes(model):
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except OSError:
            continue
    return killed


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(PIPE_CHUNK):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        try:
            writer.close()
        except (ConnectionError, OSError):
            pass


async def _responses(triton: asyncio.StreamReader, client: asyncio.StreamWriter, max_bytes: int) -> None:
    """Forward Triton's responses one by one, closing the connection on one larger than ``max_bytes``
    (a model's outputs are its own to choose: a gigabyte of "label" must not reach the worker)."""
    try:
        while True:
            try:
                head = await triton.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                return
            length = None
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
                elif name.strip().lower() == b"transfer-encoding":
                    length = -1
            if length is not None and length > max_bytes:
                print(f"sandbox agent: refused a {length}-byte response (limit {max_bytes})", file=sys.stderr)
                return
            client.write(head)
            if length is None or length < 0:  # no framing we can bound: Triton never answers so
                return await _pipe(triton, client)
            while length > 0:
                data = await triton.read(min(PIPE_CHUNK, length))
                if not data:
                    return
                length -= len(data)
                client.write(data)
                await client.drain()
            await client.drain()
    except (ConnectionError, OSError, ValueError, asyncio.LimitOverrunError):
        pass
    finally:
        try:
            client.close()
        except (ConnectionError, OSError):
            pass


def relay_to(port: int, max_response_bytes: int):
    async def relay(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        try:
            triton_reader, triton_writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(_pipe(client_reader, triton_writer), _responses(triton_reader, client_writer, max_response_bytes))

    return relay


def stats_handler(key: str):
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One request per connection (HTTP/1.0): ``GET /memory/<model>`` -> {"peak_bytes": N};
        ``POST /kill/<model>`` with the control key -> {"killed": N}."""
        try:
            request_line = (await asyncio.wait_for(reader.readline(), 10)).decode("latin-1").split()
            headers = {}
            while (line := await asyncio.wait_for(reader.readline(), 10)) not in (b"\r\n", b"\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            method, path = [*request_line, "", ""][:2]
            body, status = b'{"error": "not found"}', "404 Not Found"
            if method == "GET" and path.startswith("/memory/"):
                model = urllib.parse.unquote(path[len("/memory/") :])
                body, status = json.dumps({"peak_bytes": stub_peak_bytes(model)}).encode(), "200 OK"
            elif method == "POST" and path.startswith("/kill/"):
                if not hmac.compare_digest(headers.get(CONTROL_HEADER, "").encode(), key.encode()):
                    body, status = b'{"error": "forbidden"}', "403 Forbidden"
                else:
                    model = urllib.parse.unquote(path[len("/kill/") :])
                    body, status = json.dumps({"killed": kill_model(model)}).encode(), "200 OK"
            writer.write(
                f"HTTP/1.0 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body
            )
            await writer.drain()
        except (TimeoutError, ConnectionError, OSError):
            pass
        finally:
            writer.close()

    return answer


async def serve(address: str, handler) -> asyncio.base_events.Server:
    kind, where = parse_address(address)
    if kind == "unix":
        assert isinstance(where, str)
        server = await asyncio.start_unix_server(handler, where)
        os.chmod(where, 0o660)
        return server
    assert isinstance(where, tuple)
    return await asyncio.start_server(handler, where[0], where[1])


async def run(args: argparse.Namespace, key: str) -> int:
    restricted = f"{RESTRICTED_APIS}:{CONTROL_HEADER}={key}"
    argv = [
        *args.triton,
        *([f"--backend-directory={args.backends_dir}"] if args.backend_source else []),
        "--http-address=127.0.0.1",
        f"--http-port={args.triton_port}",
        f"--http-restricted-api={restricted}",
        "--allow-grpc=false",
    ]
    triton = await asyncio.create_subprocess_exec(*argv, stdin=asyncio.subprocess.DEVNULL)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: triton.returncode is None and triton.terminate())
    servers = [await serve(args.listen, relay_to(args.triton_port, args.max_response_bytes))]
    if args.stats_listen:
        servers.append(await serve(args.stats_listen, stats_handler(key)))
    code = await triton.wait()
    for server in servers:
        server.close()
    return code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", required=True, help="unix:PATH or tcp:HOST:PORT: the relay to Triton's HTTP")
    parser.add_argument("--stats-listen", default="", help="unix:PATH or tcp:HOST:PORT: GET /memory/<model>")
    parser.add_argument("--triton-port", type=int, default=8000, help="Triton's HTTP port on the sandbox loopback")
    parser.add_argument("--max-response-bytes", type=int, default=64 << 20, help="larger responses close the connection")
    # Without these three (compose, where Docker's seccomp profile forbids nested namespaces) the
    # image's own python backend runs the stubs directly, inside the container's limits.
    parser.add_argument("--backend-source", default="", help="the python backend folder to copy")
    parser.add_argument("--launcher", default="", help="stub_launcher.sh: one nested sandbox per stub")
    parser.add_argument("--backends-dir", default="", help="a writable folder for the backend copy")
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
    return asyncio.run(run(args, key))


if __name__ == "__main__":
    sys.exit(main())
