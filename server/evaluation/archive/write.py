"""Writing a checked :class:`ModelRepository` to disk as a Triton model directory, staged and renamed in complete."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from server.evaluation.archive.limits import MODEL_NAME
from server.evaluation.archive.repository import ModelRepository


def write_model_repository(repo: ModelRepository, destination: Path) -> Path:
    """Write ``repo`` as ``destination/<name>/`` (config.pbtxt + files; dirs 0755, files 0644).

    The model is staged next to ``destination`` and renamed in complete, so a Triton repository
    never sees a half-written (stray) folder. Refuses to overwrite an existing model folder.
    """
    destination = Path(destination)
    if not MODEL_NAME.match(repo.name):
        raise ValueError(f"invalid model name {repo.name!r}")
    target = destination / repo.name
    if target.exists() or target.is_symlink():
        raise FileExistsError(f"{target} already exists")
    destination.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{repo.name}.", dir=destination.parent))
    try:
        os.chmod(staging, 0o755)
        entries = {"config.pbtxt": repo.config_text.encode("utf-8"), **repo.files}
        for rel, content in entries.items():
            parts = rel.split("/")
            if rel.startswith("/") or "\\" in rel or any(p in ("", ".", "..") for p in parts) or "\x00" in rel:
                raise ValueError(f"unsafe path {rel!r}")
            parent = staging
            for part in parts[:-1]:
                parent = parent / part
                if not parent.is_dir():
                    parent.mkdir()
                    os.chmod(parent, 0o755)
            fd = os.open(parent / parts[-1], os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            try:
                os.fchmod(fd, 0o644)
                with os.fdopen(fd, "wb", closefd=False) as handle:
                    handle.write(content)
            finally:
                os.close(fd)
        try:
            os.rename(staging, target)
        except OSError:
            shutil.move(str(staging), str(target))
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target
