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
  with the key, ``GET /models``: the models whose stubs run, with their resident memory (Triton's
  repository index lists no model loaded with its files in the request), and ``POST /kill/<model>``:
  kills a model's stub processes, stuck or not;
* removes the folders Triton writes a model's files into when they come with the load request
  (``<scratch>/folderXXXXXX``) once no model uses them: Triton keeps them until the same name is
  loaded again, which never happens to a submission (each has its own name), and in the sandbox's
  private /tmp (a tmpfs) they count against its memory limit for as long as it runs.

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
import time
import urllib.parse
from pathlib import Path

CONTROL_HEADER = "dynabench-control-key"
RESTRICTED_APIS = "model-repository,model-config,shared-memory,trace,logging"
STUB = "triton_python_backend_stub"
PIPE_CHUNK = 1 << 16
INSTANCE_SUFFIX = re.compile(r"[0-9]+_[0-9]+")
INSTANCE_NAME = re.compile(r"([^/]+)_[0-9]+_[0-9]+")  # a stub's instance argument: <model>_<group>_<n>
OVERRIDE_FOLDER = re.compile(r"folder[A-Za-z0-9]{6}")  # Triton's mkdtemp for files sent with a load


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


def override_folders_in_use(scratch: str) -> dict[str, str]:
    """{folder: model} for every override folder a running process names (a stub's model.py path),
    with the model of the stub's instance argument ("" when it has none)."""
    prefix = scratch.rstrip("/") + "/"
    found: dict[str, str] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            args = [a.decode(errors="replace") for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")]
        except OSError:
            continue
        folders = [a[len(prefix) :].split("/", 1)[0] for a in args if a.startswith(prefix)]
        instances = [m.group(1) for a in args if (m := INSTANCE_NAME.fullmatch(a))]
        for folder in folders:
            if OVERRIDE_FOLDER.fullmatch(folder):
                found[folder] = found.get(folder) or (instances[0] if instances else "")
    return found


def unused_override_folders(scratch: str, seen: dict[str, str], now: float, grace_s: float) -> list[tuple[str, str]]:
    """(folder, the model it was last seen serving or "") for the override folders no process names and
    written more than ``grace_s`` ago (younger: a load in progress, before its stubs start). ``seen``
    remembers folder -> model between sweeps."""
    in_use = override_folders_in_use(scratch)
    seen.update({folder: model for folder, model in in_use.items() if model})
    unused: list[tuple[str, str]] = []
    try:
        entries = list(os.scandir(scratch))
    except OSError:
        return unused
    for entry in entries:
        if not OVERRIDE_FOLDER.fullmatch(entry.name) or entry.name in in_use:
            continue
        try:
            if entry.is_dir(follow_symlinks=False) and now - entry.stat(follow_symlinks=False).st_mtime >= grace_s:
                unused.append((entry.name, seen.get(entry.name, "")))
        except OSError:
            continue
    return unused


async def model_ready(port: int, model: str) -> bool | None:
    """Whether Triton has ``model`` ready (its readiness URL needs no key); None when it does not answer."""
    request = f"GET /v2/models/{urllib.parse.quote(model)}/ready HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
        try:
            writer.write(request.encode())
            await writer.drain()
            status_line = await asyncio.wait_for(reader.readline(), 30)
        finally:
            writer.close()
    except (OSError, TimeoutError):
        return None
    parts = status_line.split()
    return parts[1] == b"200" if len(parts) > 1 else None


async def sweep_once(port: int, scratch: str, seen: dict[str, str], grace_s: float) -> list[str]:
    """Remove the override folders no model uses any more; their names. A folder stays while a process
    names it and while the model it was last seen serving is ready (a stub that crashed is started
    again by Triton, and reads its files again)."""
    removed = []
    for folder, model in await asyncio.to_thread(unused_override_folders, scratch, seen, time.time(), grace_s):
        if model and await model_ready(port, model) is not False:
            continue
        await asyncio.to_thread(shutil.rmtree, os.path.join(scratch, folder), True)
        seen.pop(folder, None)
        removed.append(folder)
    return removed


async def sweep_forever(port: int, scratch: str, every_s: float, grace_s: float) -> None:
    seen: dict[str, str] = {}
    while True:
        await asyncio.sleep(every_s)
        removed = await sweep_once(port, scratch, seen, grace_s)
        if removed:
            print(f"sandbox agent: removed {len(removed)} unused model folder(s) from {scratch}", file=sys.stderr)


def loaded_models() -> dict[str, int]:
    """{model: resident bytes of its stubs now} for every model whose stubs run (loaded, or loading)."""
    found: dict[str, int] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            args = [a.decode(errors="replace") for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")]
            if not args[0].endswith(STUB):
                continue
            model = next((m.group(1) for a in args[1:] if (m := INSTANCE_NAME.fullmatch(a))), None)
            if model is None:
                continue
            rss = next(
                (
                    int(line.split()[1]) * 1024
                    for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                    if line.startswith("VmRSS:")
                ),
                0,
            )
        except (OSError, ValueError, IndexError):
            continue
        found[model] = found.get(model, 0) + rss
    return found


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
        """One request per connection (HTTP/1.0): ``GET /memory/<model>`` -> {"peak_bytes": N}; with the
        control key, ``GET /models`` -> {"models": {name: resident bytes}} and ``POST /kill/<model>`` ->
        {"killed": N}."""
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
            elif not hmac.compare_digest(headers.get(CONTROL_HEADER, "").encode(), key.encode()):
                body, status = b'{"error": "forbidden"}', "403 Forbidden"
            elif method == "GET" and path == "/models":
                body, status = json.dumps({"models": loaded_models()}).encode(), "200 OK"
            elif method == "POST" and path.startswith("/kill/"):
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
    sweeper = None
    if args.scratch_dir:
        sweep = sweep_forever(args.triton_port, args.scratch_dir, args.sweep_every_s, args.sweep_grace_s)
        sweeper = asyncio.ensure_future(sweep)
    code = await triton.wait()
    if sweeper is not None:
        sweeper.cancel()
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
    return asyncio.run(run(args, key))


if __name__ == "__main__":
    sys.exit(main())
