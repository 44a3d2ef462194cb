"""What an uploaded model's config.pbtxt may ask of the submissions Triton: devices, instances, batch size,
parameters and server features. Checked at upload, before anything is stored or deployed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from google.protobuf import json_format

from server.core.i18n import tr, trn
from server.evaluation.archive.limits import ArchiveRejected, numbered
from server.evaluation.archive.repository import ModelRepository, _pb2

# The `parameters` keys a python-backend model may carry: those the built-in templates use
# (triton_models/*/config.pbtxt: task, inputs, labels, max_length, num_threads, model_kind; the generative demo's
# task_kind, chat_format, default_stop) and those `dynabench build-models` adds (so a built model can be uploaded as it
# is). Any other key is refused by name: python-backend keys such as EXECUTION_ENV_PATH change how the server runs
# the model.
ALLOWED_PARAMETERS = frozenset(
    {
        "task",
        "inputs",
        "labels",
        "max_length",
        "num_threads",
        "model_kind",
        "task_kind",
        "chat_format",
        "default_stop",
        "context_window",
        "heldout_perplexity",
        "profile",
        "base_model",
        "training_data",
        "n_train",
        "n_heldout",
        "heldout_accuracy",
        "heldout_f1",
        "build_seconds",
        "built_at",
    }
)
_GPU_KINDS = {
    "KIND_GPU": tr("which runs the instances on GPUs"),
    "KIND_AUTO": tr("which places the instances on a GPU when the server has one"),
    "KIND_MODEL": tr("which lets the model choose its own devices"),
}


@dataclass(frozen=True)
class ConfigLimits:
    max_instances: int = 2  # model instances in all (sum over instance_group, times the GPUs a group names)
    allow_gpu: bool = False
    max_batch_size: int = 64

    def __post_init__(self) -> None:
        if self.max_instances < 1 or self.max_batch_size < 1:
            raise ValueError("ConfigLimits: max_instances and max_batch_size must be >= 1")


def check_config_limits(repo: ModelRepository, limits: ConfigLimits) -> None:
    """Refuse (code CONFIG_LIMIT) a model whose config asks for more than submitted models may use.

    ``repo.config`` is the config as Triton would load it (instance groups without a kind are already
    KIND_CPU, see read_model_repository), so a KIND_AUTO left there was written by the researcher.
    Every problem found is reported (``details``), each naming the field and what is allowed.
    """
    config = json_format.ParseDict(repo.config, _pb2().ModelConfig())
    problems = _device_problems(config, limits) + _feature_problems(config, limits)
    if problems:
        message = tr(
            "config.pbtxt asks for more than submitted models may use here: {problems}",
            problems=problems[0] if len(problems) == 1 else numbered(problems),
        )
        raise ArchiveRejected("CONFIG_LIMIT", message, details=problems)


def _device_problems(config: Any, limits: ConfigLimits) -> list[str]:
    group_type = _pb2().ModelInstanceGroup
    problems: list[str] = []
    counts: list[int] = []
    for i, group in enumerate(config.instance_group, 1):
        label = f"instance_group '{group.name}'" if group.name else f"instance_group #{i}"
        kind = group_type.Kind.Name(group.kind) if group.kind in group_type.Kind.values() else str(group.kind)
        if not limits.allow_gpu:
            if kind in _GPU_KINDS:
                problems.append(
                    tr(
                        "{group} asks for {kind}, {effect}; submitted models run on CPU here: use kind: KIND_CPU "
                        "(or leave kind out)",
                        group=label,
                        kind=kind,
                        effect=_GPU_KINDS[kind],
                    )
                )
            if group.gpus:
                problems.append(
                    tr(
                        "{group} names gpus {gpus}; submitted models run on CPU here: use kind: KIND_CPU "
                        "(or leave kind out) and remove gpus",
                        group=label,
                        gpus=list(group.gpus),
                    )
                )
            if group.secondary_devices:
                problems.append(
                    tr(
                        "{group} names secondary_devices; submitted models run on CPU here: use kind: KIND_CPU "
                        "(or leave kind out) and remove secondary_devices",
                        group=label,
                    )
                )
        if group.count < 0:
            problems.append(tr("{group} has count {count}; a count must be at least 1", group=label, count=group.count))
            continue
        count = group.count or 1  # Triton's default count is 1
        # Triton starts `count` instances on each GPU a KIND_GPU group names.
        counts.append(count * (len(group.gpus) if kind == "KIND_GPU" and group.gpus else 1))
    total = sum(counts)
    if total > limits.max_instances:
        shown = f" ({' + '.join(map(str, counts))})" if len(counts) > 1 else ""
        problems.append(
            tr(
                "instance_group asks for {total} model instances in all{shown}; the limit here is {limit}: "
                "lower the count (dynamic_batching serves concurrent requests with fewer instances)",
                total=total,
                shown=shown,
                limit=limits.max_instances,
            )
        )
    return problems


def _feature_problems(config: Any, limits: ConfigLimits) -> list[str]:
    problems: list[str] = []
    if config.max_batch_size > limits.max_batch_size:
        problems.append(
            tr("max_batch_size is {size}; the limit here is {limit}", size=config.max_batch_size, limit=limits.max_batch_size)
        )
    keys = sorted(config.parameters)
    if "EXECUTION_ENV_PATH" in keys:
        problems.append(
            tr(
                "parameter 'EXECUTION_ENV_PATH' is not allowed: submitted models run in the server's own Python "
                "environment (a packed conda environment cannot be used); import only what it provides"
            )
        )
    unknown = [key for key in keys if key not in ALLOWED_PARAMETERS and key != "EXECUTION_ENV_PATH"]
    if unknown:
        names = ", ".join(repr(key) for key in unknown)
        problems.append(
            trn(
                "parameter {names} is not allowed: a model config may carry only the parameters {allowed}",
                "parameters {names} are not allowed: a model config may carry only the parameters {allowed}",
                count=len(unknown),
                names=names,
                allowed=", ".join(sorted(ALLOWED_PARAMETERS)),
            )
        )
    if config.HasField("model_repository_agents") and config.model_repository_agents.agents:
        problems.append(tr("model_repository_agents is not allowed: repository agents run server-side code on the model's files"))
    if config.HasField("response_cache") and config.response_cache.enable:
        problems.append(
            tr(
                "response_cache is not allowed: the response cache is shared by every model on the server, and "
                "evaluations must measure the model, not the cache"
            )
        )
    if config.runtime:
        problems.append(
            tr(
                "runtime {runtime!r} is not allowed: the python backend runs <version>/model.py; "
                "no other backend runtime can be loaded",
                runtime=config.runtime,
            )
        )
    if config.HasField("model_operations") and config.model_operations.op_library_filename:
        problems.append(tr("model_operations is not allowed: custom operation libraries cannot be loaded"))
    if config.cc_model_filenames:
        problems.append(
            tr(
                "cc_model_filenames is not allowed: it picks a model file per GPU, and submitted models run on CPU "
                "here from <version>/model.py"
            )
        )
    problems.extend(_warmup_problems(config))
    return problems


def _warmup_problems(config: Any) -> list[str]:
    """A warmup sample's input_data_file is read by Triton from the model's warmup/ folder: only a plain file name
    there (a path could read files outside the model)."""
    problems: list[str] = []
    for warmup in config.model_warmup:
        for name, sample in sorted(warmup.inputs.items()):
            if not sample.HasField("input_data_file"):
                continue
            file_name = sample.input_data_file
            if not _plain_file_name(file_name):
                problems.append(
                    tr(
                        "model_warmup {warmup!r} input {input!r} names the file {file!r}: input_data_file must be a "
                        "plain file name in the model's warmup/ folder",
                        warmup=warmup.name,
                        input=name,
                        file=file_name,
                    )
                )
    return problems


def _plain_file_name(name: str) -> bool:
    return bool(name) and name not in (".", "..") and not any(c in name for c in "/\\\0")
