"""The model store stays bounded (issue #34 point 7): the storage sweep removes upload staging files a crash left,
archives whose model row is gone, and the archives of submissions that failed or were taken down longer ago than
STORAGE_RETENTION_DAYS (after that they cannot be redeployed; docs/deploy.md). Archives of every other model stay:
they are what a deployment, a redeploy after a restart and a backup read."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from pathlib import Path

from server.core.settings import Settings
from server.evaluation import queries
from server.evaluation.records import ModelStatus

STAGING_GRACE_S = 3600  # an upload in progress writes its staging file for seconds, not an hour
_ARCHIVE = re.compile(r"^model-(\d+)\.archive$")


def _older_than(path: Path, seconds: float, now: float) -> bool:
    try:
        return now - path.stat().st_mtime > seconds
    except FileNotFoundError:
        return False


def _remove(path: Path) -> None:
    if path.is_dir():
        import shutil

        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


async def sweep_model_store(settings: Settings, now: float | None = None) -> list[str]:
    """Remove what is no longer needed; the names removed."""
    store = Path(settings.model_store_dir)
    if not store.is_dir():  # noqa: ASYNC240 — one stat per sweep
        return []
    now = time.time() if now is None else now
    entries = list(store.iterdir())  # noqa: ASYNC240 — one listing per sweep
    removed = [p for p in entries if p.name.startswith(".upload-") and _older_than(p, STAGING_GRACE_S, now)]
    archives = {int(m.group(1)): p for p in entries if (m := _ARCHIVE.match(p.name))}
    rows = {r["id"]: r for r in await queries.ARCHIVE_OWNERS.rows(ids=list(archives))} if archives else {}
    cutoff = datetime.fromtimestamp(now - settings.storage_retention_days * 86400, UTC)
    for model_id, path in archives.items():
        row = rows.get(model_id)
        if row is None:
            # The row is inserted before the archive is renamed into place: an archive without one outlived its row.
            if _older_than(path, STAGING_GRACE_S, now):
                removed.append(path)
        elif (row["taken_down_at"] is not None and row["taken_down_at"] < cutoff) or (
            row["status"] == ModelStatus.FAILED and row["created_at"] < cutoff
        ):
            removed.append(path)
    for path in removed:
        _remove(path)
    return [p.name for p in removed]
