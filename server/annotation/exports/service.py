"""Round exports for owners: short-lived download links, streamed JSONL, HF-datasets archives, files (CLI)."""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import re
import shutil
import tarfile
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import aclosing
from pathlib import Path
from typing import Any

import jwt

from server.annotation.battles import leaderboard as battle_leaderboard
from server.annotation.battles.pairs import preference_lines
from server.annotation.exports import queries
from server.annotation.exports.release import FORMATS, stream_jsonl, write_hf_dataset
from server.core.disk import disk_full, is_disk_full
from server.core.errors import FieldProblem, ServiceError, invalid
from server.core.i18n import tr
from server.tasks.config import TaskConfig
from server.tasks.service import get_round, round_config

LINK_TTL_SECONDS = 15 * 60
# HF-datasets archives are built in temporary folders named so (removed after the download; the storage sweep
# removes any a crash left: server/core/storage_sweep.py).
SCRATCH_PREFIX = "dynabench-export-"
_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9_-]+")


def export_name(task_code: str, round_number: int) -> str:
    """The stem every export file of a round is named by: `<task code>-round-<n>` (the JSONL file, the HF dataset's
    folder, its archive with `-hf.tar.gz`), safe in a file name and a Content-Disposition header on any system."""
    code = _UNSAFE_IN_NAME.sub("-", task_code).strip("-")[:80] or "task"
    return f"{code}-round-{int(round_number)}"


async def export_file_name(round_id: int, fmt: str) -> str:
    """The download's file name: `<task>-round-<n>.jsonl`, `<task>-round-<n>-preferences.jsonl` or
    `<task>-round-<n>-hf.tar.gz`."""
    shape, _, _ = await export_shape(round_id)
    stem = export_name(shape["task_code"], shape["round_number"])
    return {"jsonl": f"{stem}.jsonl", "preferences": f"{stem}-preferences.jsonl"}.get(fmt, f"{stem}-hf.tar.gz")


async def check_format(round_id: int, fmt: str) -> None:
    """Preferences come from battles: a round of a task without them has none to export."""
    _, config, _ = await export_shape(round_id)
    if fmt == "preferences" and (config.generative is None or config.generative.battle is None):
        raise invalid(
            tr("This round's task has no battles, so no preferences to export."),
            FieldProblem("format", tr("PREFERENCES needs a task with battles")),
        )


def _lines(round_id: int, fmt: str, key: str, shape: dict[str, Any], config: TaskConfig, round_row: dict) -> AsyncIterator[bytes]:
    if fmt != "preferences":
        return stream_jsonl(round_id, key=key, **shape)
    return _preference_lines(round_id, round_row["task"], key, shape, config)


async def _preference_lines(
    round_id: int, task_id: int, key: str, shape: dict[str, Any], config: TaskConfig
) -> AsyncIterator[bytes]:
    generative = config.generative
    system_prompt = generative.system_prompt if generative is not None else ""
    flagged = await battle_leaderboard.excluded_voters(task_id, generative.battle if generative is not None else None)
    async with aclosing(
        preference_lines(
            round_id,
            flagged,
            task_code=shape["task_code"],
            round_number=shape["round_number"],
            system_prompt=system_prompt,
            key=key,
        )
    ) as lines:
        async for line in lines:
            yield line


async def export_shape(round_id: int) -> tuple[dict[str, Any], TaskConfig, dict]:
    round_row = await get_round(round_id)
    task = await queries.task_row(round_row["task"])
    config = await round_config(round_row)  # the version the round ran with
    return {"task_code": task["code"], "round_number": round_row["number"], "config": config}, config, round_row


def anonymisation_key(secret: str) -> str:
    """Pseudonyms are keyed by the deployment's secret: stable across exports, unlinkable without it."""
    return hashlib.sha256(b"dynabench-export:" + secret.encode()).hexdigest()


def issue_link_token(round_id: int, fmt: str, user_id: int, secret: str, now: float | None = None) -> tuple[str, int]:
    issued = int(now if now is not None else time.time())
    expires = issued + LINK_TTL_SECONDS
    payload = {"typ": "export", "round": round_id, "fmt": fmt, "sub": str(user_id), "iat": issued, "exp": expires}
    return jwt.encode(payload, secret, algorithm="HS256"), expires


def read_link_token(token: str, secret: str) -> tuple[int, str]:
    try:
        payload = jwt.decode(token, secret, algorithms=["HS256"], options={"require": ["exp", "round", "fmt"]})
    except jwt.ExpiredSignatureError:
        raise ServiceError("FORBIDDEN", tr("This export link has expired; ask for a new one with exportRound.")) from None
    except jwt.PyJWTError:
        raise ServiceError("FORBIDDEN", tr("This export link is not valid.")) from None
    if payload.get("typ") != "export" or payload.get("fmt") not in FORMATS:
        raise ServiceError("FORBIDDEN", tr("This export link is not valid."))
    return int(payload["round"]), payload["fmt"]


async def jsonl_chunks(round_id: int, key: str, fmt: str = "jsonl") -> AsyncIterator[bytes]:
    """A JSONL export (`jsonl` or `preferences`) in chunks of about 64 KB."""
    shape, config, round_row = await export_shape(round_id)
    # Closed with us: the cursor's connection goes as soon as the download ends or is abandoned.
    async with aclosing(_lines(round_id, fmt, key, shape, config, round_row)) as lines:
        buffer = bytearray()
        async for line in lines:
            buffer += line
            if len(buffer) >= 64 * 1024:
                yield bytes(buffer)
                buffer.clear()
        if buffer:
            yield bytes(buffer)


async def write_export(round_id: int, fmt: str, output: Path, key: str, progress=None, scratch_dir: str | None = None) -> int:
    """Write a round's export to `output` (a .jsonl file, or a directory for HF_DATASET, whose rows pass through a
    temporary JSONL file under `scratch_dir`, removed whatever happens); returns rows."""
    shape, config, round_row = await export_shape(round_id)
    await check_format(round_id, fmt)
    if fmt != "hf_dataset":
        output.parent.mkdir(parents=True, exist_ok=True)
        return await _write_jsonl(_lines(round_id, fmt, key, shape, config, round_row), output, progress)
    folder = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=scratch_dir))
    try:
        rows = await _write_jsonl(_lines(round_id, fmt, key, shape, config, round_row), folder / "rows.jsonl", progress)
        await asyncio.to_thread(write_hf_dataset, folder / "rows.jsonl", output, config)
    finally:
        await asyncio.to_thread(shutil.rmtree, folder, True)
    return rows


async def _write_jsonl(lines: AsyncIterator[bytes], path: Path, progress) -> int:
    rows = 0
    async with aclosing(lines) as open_lines:
        with path.open("wb") as sink:
            async for line in open_lines:
                sink.write(line)
                rows += 1
                if progress:
                    progress(1)
    return rows


async def hf_archive(round_id: int, key: str, scratch_dir: str | None = None) -> tuple[Path, str]:
    """A tar.gz of the HF-datasets directory `<task>-round-<n>`, in a temporary folder (under `scratch_dir`, else the
    system's) that the caller deletes; and the archive's file name."""
    shape, _, _ = await export_shape(round_id)
    name = export_name(shape["task_code"], shape["round_number"])
    from server.annotation.suggestions.stats import round_assistance  # the round's numbers for the README

    try:
        scratch = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX, dir=scratch_dir))
    except OSError as exc:
        if is_disk_full(exc):
            raise disk_full(tr("the export")) from None
        raise
    archive = scratch / f"{name}-hf.tar.gz"
    try:
        await write_export(round_id, "hf_dataset", scratch / name, key, scratch_dir=str(scratch))
        await asyncio.to_thread(_tar, scratch / name, archive, assistance_text(await round_assistance(round_id)))
    except BaseException as exc:
        await asyncio.to_thread(shutil.rmtree, scratch, True)  # nothing half-written stays behind
        if is_disk_full(exc):
            raise disk_full(tr("the export")) from None
        raise
    return archive, archive.name


SCRATCH_GRACE_S = 6 * 3600  # an archive lives while its download streams: minutes


def sweep_scratch(scratch_dir: str | None = None, now: float | None = None) -> list[str]:
    """HF-datasets archives' temporary folders that a crash (or a client gone mid-download) left behind."""
    now = time.time() if now is None else now
    removed = []
    for path in Path(scratch_dir or tempfile.gettempdir()).glob(f"{SCRATCH_PREFIX}*"):
        try:
            stale = now - path.stat().st_mtime > SCRATCH_GRACE_S
        except FileNotFoundError:
            continue
        if stale:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path.name)
    return removed


def assistance_text(rows: list[Any]) -> bytes:
    """The round's numbers with and without suggestions (docs/design.md §4.1e), for the archive's README."""

    def rate(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.4f}"

    lines = [b"Suggestions (docs/design.md 4.1e), examples not retracted:"]
    for row in rows:
        median = "n/a" if row.median_ms_to_fool is None else f"{row.median_ms_to_fool / 1000:.1f} s"
        lines.append(
            f"  {'assisted' if row.assisted else 'unassisted'}: collected {row.collected}, fooling rate "
            f"{rate(row.fooling_rate)}, validated fooling rate {rate(row.validated_fooling_rate)}, median time to a "
            f"fooling example {median}".encode()
        )
    return b"\n".join(lines) + b"\n"


def _tar(directory: Path, archive: Path, stats: bytes = b"") -> None:
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(directory, arcname=directory.name)
        info = tarfile.TarInfo(f"{directory.name}/README.txt")
        text = (
            b"Load with: datasets.load_from_disk('" + directory.name.encode() + b"')\n"
            b"Nested columns (input, context, model_output, label_distribution, validations.fields, assistance) are JSON "
            b"text.\n" + stats
        )
        info.size = len(text)
        tar.addfile(info, io.BytesIO(text))


def summary(rows: int, fmt: str, output: Path) -> str:
    return json.dumps({"rows": rows, "format": fmt.upper(), "output": str(output)})
