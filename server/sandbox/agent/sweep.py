"""The folders Triton writes a model's files into when they come with the load request
(``<scratch>/folderXXXXXX``): removed once no model uses them. Triton keeps them until the same name is
loaded again, which never happens to a submission (each has its own name), and in the sandbox's private
/tmp (a tmpfs) they count against its memory limit for as long as it runs. Standard library only."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sys
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

try:
    from .processes import INSTANCE_NAME, WAIT_TIMEOUT
except ImportError:  # run as the folder /sandbox/agent, where the siblings are top-level modules
    from processes import INSTANCE_NAME, WAIT_TIMEOUT  # type: ignore[no-redef]

OVERRIDE_FOLDER = re.compile(r"folder[A-Za-z0-9]{6}")  # Triton's mkdtemp for files sent with a load
PortOf = Callable[[str], "int | None"]


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
    except (OSError, *WAIT_TIMEOUT):
        return None
    parts = status_line.split()
    return parts[1] == b"200" if len(parts) > 1 else None


async def sweep_once(port_of: PortOf, scratch: str, seen: dict[str, str], grace_s: float) -> list[str]:
    """Remove the override folders no model uses any more; their names. A folder stays while a process
    names it and while the model it was last seen serving is ready (a stub that crashed is started
    again by Triton, and reads its files again). ``port_of`` names the Triton serving a model, if any."""
    removed = []
    for folder, model in await asyncio.to_thread(unused_override_folders, scratch, seen, time.time(), grace_s):
        port = port_of(model) if model else None
        if port is not None and await model_ready(port, model) is not False:
            continue
        await asyncio.to_thread(shutil.rmtree, os.path.join(scratch, folder), True)
        seen.pop(folder, None)
        removed.append(folder)
    return removed


async def sweep_forever(port_of: PortOf, scratch: str, every_s: float, grace_s: float) -> None:
    seen: dict[str, str] = {}
    while True:
        await asyncio.sleep(every_s)
        removed = await sweep_once(port_of, scratch, seen, grace_s)
        if removed:
            print(f"sandbox agent: removed {len(removed)} unused model folder(s) from {scratch}", file=sys.stderr)
