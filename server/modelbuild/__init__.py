"""Offline training of the platform's built-in target models (``dynabench build-models``).

Public API:

- ``build_models(output_repository, tasks=None, profile="full", base_model=None, data=None,
  progress=None, force=False) -> list[BuiltModel]``: write a Triton model repository with the
  built-in models (see ``triton_models/README.md``).
- ``load_training_data(task, path) -> list[dict]``: read JSONL / JSON / CSV / TSV training data.
- ``TASKS``: the task definitions (input fields, label order, model name).
"""

from server.modelbuild.build import build_models
from server.modelbuild.data import DataFormatError, load_training_data
from server.modelbuild.progress import BuildError, BuildEvent, BuiltModel
from server.modelbuild.recipes import default_base_model, resolve_base_model
from server.modelbuild.tasks import TASKS, TaskSpec, get_task

__all__ = [
    "TASKS",
    "BuildError",
    "BuildEvent",
    "BuiltModel",
    "DataFormatError",
    "TaskSpec",
    "build_models",
    "default_base_model",
    "get_task",
    "load_training_data",
    "resolve_base_model",
]
