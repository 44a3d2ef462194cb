"""What an uploaded config.pbtxt may ask for (server/evaluation/archive/config_limits.py), and the CPU default
read_model_repository gives instance groups without a kind. Pure: archives are written to tmp_path."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from server.core.settings import Settings
from server.evaluation.archive import (
    CODES,
    ArchiveLimits,
    ArchiveRejected,
    ConfigLimits,
    check_config_limits,
    read_model_repository,
)
from server.evaluation.archive.config_limits import ALLOWED_PARAMETERS

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ("sentiment_minilm", "nli_minilm", "hate_speech_minilm", "qa_overlap_baseline")
BASE = """name: "m"
backend: "python"
max_batch_size: 8
input [ { name: "statement" data_type: TYPE_STRING dims: [ 1 ] } ]
output [ { name: "label" data_type: TYPE_STRING dims: [ 1 ] }, { name: "probs" data_type: TYPE_FP32 dims: [ 3 ] } ]
parameters { key: "labels" value: { string_value: "[\\"negative\\", \\"positive\\", \\"neutral\\"]" } }
"""


def read(tmp_path: Path, config: str):
    path = tmp_path / "model.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for name, data in {"m/config.pbtxt": config.encode(), "m/1/model.py": b"class TritonPythonModel: pass\n"}.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return read_model_repository(path, ArchiveLimits())


def refusal(tmp_path: Path, config: str, limits: ConfigLimits | None = None) -> ArchiveRejected:
    with pytest.raises(ArchiveRejected) as caught:
        check_config_limits(read(tmp_path, config), limits or ConfigLimits())
    assert caught.value.code == "CONFIG_LIMIT"
    return caught.value


@pytest.mark.parametrize("template", TEMPLATES)
def test_the_builtin_templates_pass_the_default_limits(tmp_path, template):
    config = (ROOT / "triton_models" / template / "config.pbtxt").read_text().replace(f'"{template}"', '"m"')
    check_config_limits(read(tmp_path, config), ConfigLimits())


def test_built_model_parameters_are_allowed():
    assert {"task", "inputs", "labels", "max_length", "num_threads", "model_kind", "built_at"} <= ALLOWED_PARAMETERS
    assert "CONFIG_LIMIT" in CODES


def test_no_instance_group_becomes_one_cpu_instance(tmp_path):
    repo = read(tmp_path, BASE)
    assert repo.config["instance_group"] == [{"count": 1, "kind": "KIND_CPU"}]
    check_config_limits(repo, ConfigLimits())


def test_a_group_without_kind_becomes_cpu_and_the_text_is_kept(tmp_path):
    config = BASE + "instance_group [ { count: 2 } ]\n# KIND_AUTO in a comment does not count\n"
    repo = read(tmp_path, config)
    assert repo.config["instance_group"] == [{"count": 2, "kind": "KIND_CPU"}]
    assert repo.config_text == config
    check_config_limits(repo, ConfigLimits())


@pytest.mark.parametrize(
    ("group", "expected"),
    [
        ("{ kind: KIND_GPU }", "instance_group #1 asks for KIND_GPU, which runs the instances on GPUs"),
        ("{ kind: KIND_AUTO }", "instance_group #1 asks for KIND_AUTO, which places the instances on a GPU"),
        ('{ name: "mine" kind: KIND_MODEL }', "instance_group 'mine' asks for KIND_MODEL"),
        ("{ kind: KIND_CPU gpus: [ 0 ] }", "instance_group #1 names gpus [0]"),
        ("{ kind: KIND_CPU secondary_devices [ { kind: KIND_NVDLA device_id: 0 } ] }", "names secondary_devices"),
    ],
)
def test_gpus_are_refused_unless_allowed(tmp_path, group, expected):
    config = BASE + f"instance_group [ {group} ]\n"
    error = refusal(tmp_path, config)
    assert expected in error.message
    assert "submitted models run on CPU here: use kind: KIND_CPU (or leave kind out)" in error.message
    if "gpus" not in group and "secondary" not in group:
        check_config_limits(read(tmp_path, config), ConfigLimits(allow_gpu=True))


def test_explicit_kind_auto_is_kept_for_the_check(tmp_path):
    repo = read(tmp_path, BASE + "instance_group [ { kind: KIND_AUTO }, { count: 1 } ]\n")
    assert [g.get("kind") for g in repo.config["instance_group"]] == [None, None]  # both KIND_AUTO (proto default)


def test_instance_count_is_capped_over_all_groups(tmp_path):
    two = BASE + "instance_group [ { count: 2 kind: KIND_CPU } ]\n"
    check_config_limits(read(tmp_path, two), ConfigLimits())
    three = BASE + "instance_group [ { count: 2 kind: KIND_CPU }, { kind: KIND_CPU } ]\n"
    error = refusal(tmp_path, three)
    assert "instance_group asks for 3 model instances in all (2 + 1); the limit here is 2" in error.message
    check_config_limits(read(tmp_path, three), ConfigLimits(max_instances=3))
    per_gpu = BASE + "instance_group [ { count: 2 kind: KIND_GPU gpus: [ 0, 1 ] } ]\n"
    error = refusal(tmp_path, per_gpu, ConfigLimits(allow_gpu=True, max_instances=3))
    assert "4 model instances in all; the limit here is 3" in error.message
    negative = BASE + "instance_group [ { count: -1 kind: KIND_CPU } ]\n"
    assert "instance_group #1 has count -1; a count must be at least 1" in refusal(tmp_path, negative).message


def test_max_batch_size_is_capped(tmp_path):
    check_config_limits(read(tmp_path, BASE.replace("max_batch_size: 8", "max_batch_size: 64")), ConfigLimits())
    error = refusal(tmp_path, BASE.replace("max_batch_size: 8", "max_batch_size: 65"))
    assert error.message.endswith("max_batch_size is 65; the limit here is 64")
    error = refusal(tmp_path, BASE, ConfigLimits(max_batch_size=4))
    assert "max_batch_size is 8; the limit here is 4" in error.message


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (
            'parameters { key: "EXECUTION_ENV_PATH" value: { string_value: "$$TRITON_MODEL_DIRECTORY/env.tar.gz" } }',
            "parameter 'EXECUTION_ENV_PATH' is not allowed: submitted models run in the server's own Python environment",
        ),
        (
            'parameters { key: "shm-region-prefix-name" value: { string_value: "x" } }',
            "parameter 'shm-region-prefix-name' is not allowed: a model config may carry only the parameters",
        ),
        ('model_repository_agents { agents [ { name: "checksum" } ] }', "model_repository_agents is not allowed"),
        ("response_cache { enable: true }", "response_cache is not allowed"),
        ('runtime: "libtriton_evil.so"', "runtime 'libtriton_evil.so' is not allowed"),
        ('model_operations { op_library_filename: [ "1/ops.so" ] }', "model_operations is not allowed"),
        ('cc_model_filenames { key: "7.5" value: "../../../x.py" }', "cc_model_filenames is not allowed"),
        (
            'model_warmup [ { name: "w" batch_size: 1 inputs { key: "statement" value: { data_type: TYPE_STRING '
            'dims: [ 1 ] input_data_file: "../../../../etc/shadow" } } } ]',
            "model_warmup 'w' input 'statement' names the file '../../../../etc/shadow'",
        ),
        (
            'model_warmup [ { name: "w" batch_size: 1 inputs { key: "statement" value: { data_type: TYPE_STRING '
            'dims: [ 1 ] input_data_file: "/etc/passwd" } } } ]',
            "input_data_file must be a plain file name",
        ),
    ],
)
def test_server_side_features_and_unknown_parameters_are_refused(tmp_path, extra, expected):
    assert expected in refusal(tmp_path, BASE + extra + "\n").message


def test_every_problem_is_reported_and_unknown_parameters_are_named(tmp_path):
    config = (
        BASE.replace("max_batch_size: 8", "max_batch_size: 1000")
        + "instance_group [ { count: 8 kind: KIND_GPU } ]\n"
        + 'parameters { key: "b" value: { string_value: "1" } }\n'
        + 'parameters { key: "a" value: { string_value: "1" } }\n'
    )
    error = refusal(tmp_path, config)
    assert len(error.details) == 4
    assert error.message.startswith("config.pbtxt asks for more than submitted models may use here: (1) instance_group #1")
    assert "parameters 'a', 'b' are not allowed" in error.message
    assert "8 model instances" in error.message and "max_batch_size is 1000" in error.message


def test_response_cache_off_is_fine(tmp_path):
    check_config_limits(read(tmp_path, BASE + "response_cache { enable: false }\n"), ConfigLimits())


def test_a_warmup_with_a_plain_file_name_or_generated_data_is_fine(tmp_path):
    warmup = (
        'model_warmup [ { name: "w" batch_size: 1 inputs { key: "statement" value: { data_type: TYPE_STRING '
        'dims: [ 1 ] input_data_file: "sample.bin" } } }, { name: "z" batch_size: 1 inputs { key: "statement" '
        "value: { data_type: TYPE_STRING dims: [ 1 ] zero_data: true } } } ]\n"
    )
    check_config_limits(read(tmp_path, BASE + warmup), ConfigLimits())


def test_settings_read_the_limits_from_the_environment(monkeypatch):
    for name in ("MODEL_MAX_INSTANCES", "MODEL_ALLOW_GPU", "MODEL_MAX_BATCH_SIZE", "TRITON_CONTROL_KEY"):
        monkeypatch.delenv(name, raising=False)
    defaults = Settings.from_env()
    assert (defaults.model_max_instances, defaults.model_allow_gpu, defaults.model_max_batch_size) == (2, False, 64)
    monkeypatch.setenv("MODEL_MAX_INSTANCES", "4")
    monkeypatch.setenv("MODEL_ALLOW_GPU", "true")
    monkeypatch.setenv("MODEL_MAX_BATCH_SIZE", "128")
    monkeypatch.setenv("TRITON_CONTROL_KEY", "k" * 32)
    settings = Settings.from_env()
    assert (settings.model_max_instances, settings.model_allow_gpu, settings.model_max_batch_size) == (4, True, 128)
    assert settings.triton_control_key == "k" * 32
