"""A model directory in a Triton model repository: its template files, the build lock, the parameters
written into config.pbtxt, file modes, and whether a build there is complete."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from pathlib import Path

from server.modelbuild.progress import BuildError
from server.modelbuild.tasks import TaskSpec

TEMPLATE_ROOT = Path(__file__).resolve().parents[2] / "triton_models"
# The classification models' one model.py, at the top of TEMPLATE_ROOT: a file, not a folder, since a
# Triton model repository may hold only model directories.
CLASSIFIER_TEMPLATE = "classifier_model.py"


def model_py_template(spec: TaskSpec, template_root: Path | None = None) -> Path:
    """The source of a model's ``1/model.py``: the model's own file if it has one, else (classifiers) the shared one."""
    root = Path(template_root) if template_root else TEMPLATE_ROOT
    own = root / spec.model_name / "1" / "model.py"
    if own.is_file() or spec.kind != "classification":
        return own
    return root / CLASSIFIER_TEMPLATE


def template_files(spec: TaskSpec, template_root: Path | None = None) -> dict[str, Path]:
    """A model's template files by their path inside the model directory (``config.pbtxt``, ``1/model.py``, ...)."""
    template_root = Path(template_root) if template_root else TEMPLATE_ROOT
    root = template_root / spec.model_name
    model_py = model_py_template(spec, template_root)
    if not (root / "config.pbtxt").is_file() or not model_py.is_file():
        raise BuildError(f"{root} must contain config.pbtxt and 1/model.py (classifiers: or share {model_py})")
    files = {
        p.relative_to(root).as_posix(): p
        for p in root.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and "weights" not in p.relative_to(root).parts
        and p.name != "metadata.json"
    }
    files.setdefault("1/model.py", model_py)
    return dict(sorted(files.items(), key=lambda item: Path(item[0]).parts))


@contextlib.contextmanager
def repository_lock(output_repository: Path, model_name: str | None = None):
    """Serialize builds of one model (or of the whole repository) across processes (the loser then finds it up to
    date). Builds of different models, each in its own directory and staging folder, may run side by side."""
    scope = f".{model_name}" if model_name else ""
    lock_path = output_repository.parent / f".{output_repository.name}{scope}.build.lock"
    with open(lock_path, "a+b") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _pbtxt_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def append_parameters(config_path: Path, params: dict[str, str]) -> None:
    text = config_path.read_text(encoding="utf-8").rstrip("\n") + "\n"
    text += "# ---- written by dynabench build-models ----\n"
    for key, value in params.items():
        text += f"parameters {{ key: {_pbtxt_string(key)} value: {{ string_value: {_pbtxt_string(value)} }} }}\n"
    config_path.write_text(text, encoding="utf-8")


def make_readable(root: Path) -> None:
    # save_pretrained writes 0600 files; Triton may run as another user.
    for dirpath, _dirnames, filenames in os.walk(root):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)


def read_metadata(model_dir: Path) -> dict | None:
    try:
        return json.loads((model_dir / "1" / "metadata.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def is_complete(model_dir: Path, spec: TaskSpec) -> bool:
    weights = model_dir / "1" / "weights"
    if not (model_dir / "config.pbtxt").is_file() or not (model_dir / "1" / "model.py").is_file():
        return False
    if spec.kind == "extractive_qa":
        return (weights / "ranker.json").is_file()
    if spec.kind == "generative":  # a Hugging Face directory (generative.py)
        return all((weights / f).is_file() for f in ("config.json", "tokenizer_config.json"))
    return all((weights / f).is_file() for f in ("config.json", "head.json", "classifier.safetensors"))
