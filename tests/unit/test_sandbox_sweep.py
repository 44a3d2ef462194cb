"""The sandbox agent removes the folders Triton wrote models' files into once no model uses them
(server/sandbox/agent/sweep.py): real folders, real processes naming them, a port where no Triton answers."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from server.sandbox.agent import sweep as agent


def _folder(scratch: Path, name: str, age_s: float | None = 3600) -> Path:
    folder = scratch / name / "1"
    folder.mkdir(parents=True)
    (folder / "model.py").write_text("pass\n")
    if age_s is not None:
        os.utime(scratch / name, (time.time() - age_s, time.time() - age_s))
    return scratch / name


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _no_triton(_model: str) -> int:
    """A Triton that does not answer (closed port): it cannot say whether a model is ready."""
    return _closed_port()


def _stub_like(scratch: Path, folder: str, instance: str) -> subprocess.Popen:
    """A process whose argv names a folder's model.py and an instance, as a python-backend stub's does; returned
    once it runs (it says so), and it lives until killed (it waits for its stdin to close)."""
    code = "import sys; print('running', flush=True); sys.stdin.read()"
    args = [sys.executable, "-c", code, f"{scratch}/{folder}/1/model.py", "region", instance]
    process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdout.readline() == "running\n"
    return process


def test_unused_old_folders_go_and_used_or_young_ones_stay(tmp_path):
    for name in ("folderAAAAAA", "folderBBBBBB", "folderCCCCCC", "folderDDDDDD"):
        _folder(tmp_path, name)
    _folder(tmp_path, "folderYOUNG1", age_s=None)
    (tmp_path / "models").mkdir()  # not Triton's: never touched
    (tmp_path / "folderFILE01").write_text("a file, not a folder")
    stub = _stub_like(tmp_path, "folderBBBBBB", "submission_7_ab12cd34_0_1")
    try:
        assert "folderBBBBBB" in agent.override_folders_in_use(str(tmp_path))
        seen = {"folderCCCCCC": "submission_3_00000000"}  # seen serving a model earlier; Triton cannot say if ready
        removed = asyncio.run(agent.sweep_once(_no_triton, str(tmp_path), seen, grace_s=60))
        assert sorted(removed) == ["folderAAAAAA", "folderDDDDDD"]
        left = sorted(entry.name for entry in tmp_path.iterdir())
        assert left == ["folderBBBBBB", "folderCCCCCC", "folderFILE01", "folderYOUNG1", "models"]
        assert seen["folderBBBBBB"] == "submission_7_ab12cd34"  # remembered for later sweeps
    finally:
        stub.kill()
        stub.wait()


def test_a_folder_whose_model_triton_reports_unloaded_goes(tmp_path):
    _folder(tmp_path, "folderEEEEEE")

    async def run() -> list[str]:
        async def not_ready(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(not_ready, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            return await agent.sweep_once(
                lambda _model: port, str(tmp_path), {"folderEEEEEE": "submission_5_00000000"}, grace_s=60
            )
        finally:
            server.close()

    assert asyncio.run(run()) == ["folderEEEEEE"]
    assert not (tmp_path / "folderEEEEEE").exists()


def test_a_missing_scratch_folder_is_no_error(tmp_path):
    assert asyncio.run(agent.sweep_once(_no_triton, str(tmp_path / "absent"), {}, grace_s=0)) == []
